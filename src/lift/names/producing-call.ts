/**
 * A value named by what makes it: `q.toLowerCase()` → lowerQuery, `s.split(/\s+/)` → sWords,
 * `new RegExp(…)` → …Pattern, `new Set(tools)` → toolSet, `tools.filter(…)` → filteredTools,
 * `tools.map((t) => t.name)` → toolNames, a call of `parseName(…)` → parsedName.
 */
import type { ArrayExpression, CallExpression, Identifier, MemberExpression, NewExpression, SpreadElement } from "acorn";
import { memberName, returnedValues, type Node } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import type { Rule } from "./rule.js";
import { cap, join, lastWord, plural, singular, uncap } from "./words.js";
import { BUILTINS } from "../globals.js";

export const producingCall: Rule = (b, ctx) => (b.kind === "variable" && !b.iterates && b.init ? produced(b.init, ctx, b) : null);

/** The name of a value, or of what makes it. */
export function baseOf(e: Node | null | undefined, ctx: NameContext): string | null {
  if (!e) return null;
  return ctx.nameOf(e) ?? produced(e, ctx);
}

/** A word for an element of a collection (`tools` → tool, `termSet` → term, `messagesResultTail` → message). */
export function elementOf(collection: string | null): string | null {
  if (!collection) return null;
  // A short plural under what made the collection (a call's result, a slice of it) says what it holds.
  const made = collection.replace(/(?:Result|Head|Tail)+$/, "");
  // A long one by its last word: `sortedFilteredResultsHead` holds results.
  const one = made === collection ? null : made.length <= 12 ? singular(made) : singular(lastWord(made) ?? made);
  if (one) return one;
  const stripped = collection.replace(/(Set|Map|List|Array)$/, "");
  if (stripped !== collection && stripped.length >= 3) return singular(stripped) ?? stripped;
  return singular(collection) ?? (collection.length <= 12 && !/Item$/.test(collection) ? `${collection}Item` : null);
}

export function produced(e: Node, ctx: NameContext, b?: Binding): string | null {
  switch (e.type) {
    case "AwaitExpression":
      return produced(e.argument, ctx, b);
    case "ChainExpression":
      return produced(e.expression, ctx, b);
    case "Identifier":
      return ctx.nameOf(e);
    case "MemberExpression": {
      const prop = memberName(e);
      if (prop === "length") return join(elementOf(baseOf(e.object, ctx)) ?? "item", "count");
      return prop ?? capturedGroup(e, ctx) ?? elementOf(baseOf(e.object, ctx));
    }
    case "NewExpression":
      return constructed(e, ctx, b);
    case "CallExpression":
      return e.callee.type === "MemberExpression" && !e.callee.computed ? methodResult(e, ctx, b) : calledResult(e, ctx);
    case "ArrayExpression":
      return arrayName(e, ctx, b);
    case "TemplateLiteral":
      return "message";
    case "ConditionalExpression":
      return baseOf(e.consequent, ctx) ?? baseOf(e.alternate, ctx);
    case "LogicalExpression":
      return e.operator === "&&" ? null : (baseOf(e.left, ctx) ?? baseOf(e.right, ctx));
    case "Literal":
      return b && typeof e.value === "number" && e.value === 0 && addsTo(b, ctx) ? "total" : null;
    default:
      return null;
  }
}

/**
 * A group a regular expression captured, `selectPattern.exec(q)?.[1]` or `selectMatch[1]`: named by the pattern,
 * as a list when the code splits it at commas (`selectList`), else as the group (`selectGroup`).
 */
function capturedGroup(e: MemberExpression, ctx: NameContext): string | null {
  if (!e.computed || e.property.type !== "Literal" || typeof e.property.value !== "number" || e.property.value < 1) return null;
  const subject = matchSubject(e.object, ctx);
  if (!subject) return null;
  const splitAtCommas = (c: CallExpression) => c.arguments[0]?.type === "Literal" && c.arguments[0].value === ",";
  const split = methodCalls(declaredBy(e, ctx), /^split$/, ctx).some(splitAtCommas) || splitHere(e, ctx, splitAtCommas);
  return `${subject}${split ? "List" : "Group"}`;
}

/** What a match is of: the pattern's subject (`selectPattern.exec(…)`, `s.match(selectPattern)`), or a `selectMatch`'s. */
function matchSubject(m: Node, ctx: NameContext): string | null {
  if (m.type === "Identifier") return ctx.nameOf(m)?.match(/^([a-z][A-Za-z]*)Match$/)?.[1] ?? null;
  if (m.type !== "CallExpression" || m.callee.type !== "MemberExpression") return null;
  const method = memberName(m.callee);
  if (method !== "exec" && method !== "match") return null;
  const patternName = ctx.nameOf(method === "exec" ? m.callee.object : m.arguments[0]);
  const subject = patternName?.replace(/Pattern$/, "");
  return subject && subject !== patternName ? subject : null;
}

/** Whether `e` is itself split here: `e.split(…)` with such an argument. */
function splitHere(e: Node, ctx: NameContext, test: (c: CallExpression) => boolean): boolean {
  const member = ctx.parent(e);
  const call =
    member?.type === "MemberExpression" && member.object === e && memberName(member) === "split" ? ctx.parent(member) : undefined;
  return call?.type === "CallExpression" && call.callee === member && test(call);
}

/** The variable whose initializer is `e`, through `?.` and a `?? default`. */
function declaredBy(e: Node, ctx: NameContext): Binding | undefined {
  let n = e;
  let p = ctx.parent(n);
  while (p && (p.type === "ChainExpression" || (p.type === "LogicalExpression" && p.operator === "??" && p.left === n))) {
    n = p;
    p = ctx.parent(n);
  }
  return p?.type === "VariableDeclarator" && p.init === n ? ctx.bindingOf(p.id) : undefined;
}

function addsTo(b: Binding, ctx: NameContext): boolean {
  return b.uses.some((u) => {
    const p = ctx.parent(u);
    return (p?.type === "AssignmentExpression" && p.left === u && p.operator === "+=") || p?.type === "UpdateExpression";
  });
}

/** A rule's answer while a name it builds on is not chosen yet: no name for now, the rules come back to it. */
const WAIT = Symbol("wait");

const COLLECTIONS: Record<string, string> = { Set: "Set", Map: "Map", WeakMap: "Cache", WeakSet: "Set" };

function constructed(e: NewExpression, ctx: NameContext, b?: Binding): string | null {
  const c = e.callee.type === "Identifier" ? e.callee.name : null;
  if (!c) return null;
  if (c === "RegExp") {
    const subject = patternSubject(e.arguments[0], ctx);
    return subject ? `${subject}Pattern` : "pattern";
  }
  const suffix = COLLECTIONS[c];
  if (suffix) {
    const from = elementOf(baseOf(e.arguments[0], ctx)) ?? (b ? addedElement(b, ctx) : null);
    if (from === WAIT) return null;
    return from ? `${from}${suffix}` : uncap(suffix === "Cache" ? "cache" : suffix);
  }
  if (/^[A-Z][a-z]+[A-Za-z]*$/.test(c) && c.length > 2) return uncap(c);
  return null;
}

/** The word inside `new RegExp(\`\\b${escape(term)}\\b\`)`: term. */
function patternSubject(arg: Node | undefined, ctx: NameContext): string | null {
  if (!arg) return null;
  if (arg.type === "TemplateLiteral") {
    for (const x of arg.expressions) {
      const inner = x.type === "CallExpression" && x.arguments.length === 1 ? x.arguments[0] : x;
      const n = baseOf(inner, ctx);
      if (n) return n;
    }
    return null;
  }
  return baseOf(arg, ctx);
}

/** The calls `x.method(…)` of a binding x's methods named by `methods`. */
export function methodCalls(b: Binding | undefined, methods: RegExp, ctx: NameContext): CallExpression[] {
  const out: CallExpression[] = [];
  for (const u of b?.uses ?? []) {
    const m = ctx.parent(u);
    const call = m && ctx.parent(m);
    if (
      m?.type === "MemberExpression" &&
      m.object === u &&
      !m.computed &&
      methods.test(memberName(m) ?? "") &&
      call?.type === "CallExpression"
    )
      out.push(call);
  }
  return out;
}

/** What the code adds to a collection (`set.add(term)` → term); WAIT while what it adds is a local with no name yet. */
function addedElement(b: Binding, ctx: NameContext): string | null | typeof WAIT {
  let pending = false;
  for (const call of methodCalls(b, /^(add|set|push)$/, ctx)) {
    const n = baseOf(call.arguments[0], ctx);
    if (n) return n;
    const added = ctx.bindingOf(call.arguments[0]);
    if (added && added !== b && !ctx.chosen.has(added)) pending = true;
  }
  return pending && !ctx.lastResort ? WAIT : null;
}

function arrayName(e: ArrayExpression, ctx: NameContext, b?: Binding): string | null {
  if (e.elements.length === 0) {
    const added = b ? addedElement(b, ctx) : null;
    return added && added !== WAIT ? plural(added) : null;
  }
  const first = e.elements[0];
  if (
    e.elements.length === 1 &&
    first?.type === "SpreadElement" &&
    first.argument.type === "NewExpression" &&
    (first.argument.callee as Identifier).name === "Set"
  ) {
    return join("unique", baseOf(first.argument.arguments[0], ctx));
  }
  if (e.elements.every(isText)) return "texts";
  if (first?.type === "SpreadElement") {
    const n = baseOf(first.argument, ctx);
    return n ? join("all", plural(n.replace(/Set$/, ""))) : null;
  }
  return null;
}

/**
 * An element that is text: a string, a template, `cond && text`, or spread from arrays of texts that a test
 * chooses between (`...(cond ? [text] : [])`).
 */
function isText(e: Node | null): boolean {
  if (!e) return false;
  if (e.type === "TemplateLiteral" || (e.type === "Literal" && typeof e.value === "string")) return true;
  if (e.type === "LogicalExpression" && e.operator === "&&") return isText(e.right);
  if (e.type === "ConditionalExpression") return isTextArray(e.consequent) && isTextArray(e.alternate);
  if (e.type === "SpreadElement") return isText(e.argument) || isTextArray(e.argument);
  return false;
}

/** `[]`, or an array of texts. */
const isTextArray = (e: Node): boolean => e.type === "ArrayExpression" && e.elements.every((x: Node | null) => isText(x));

function methodResult(e: CallExpression, ctx: NameContext, b?: Binding): string | null {
  const method = memberName(e.callee as MemberExpression) ?? "";
  const recv = (e.callee as MemberExpression).object;
  const base = () => baseOf(recv, ctx);
  switch (method) {
    case "toLowerCase":
      return join("lower", base());
    case "toUpperCase":
      return join("upper", base());
    case "trim":
      return join("trimmed", base());
    case "split": {
      const a = e.arguments[0];
      const kind =
        a?.type === "Literal" && (a.value === "," ? "Items" : a.value === " " || (a.regex && /\\s/.test(a.regex.pattern)) ? "Words" : null);
      return `${base() ?? (kind ? "" : "part")}${kind || (base() ? "Parts" : "s")}`.replace(/^([A-Z])/, (c) => c.toLowerCase());
    }
    case "filter":
      return join("filtered", plural(base() ?? "item"));
    case "map":
    case "flatMap":
      return mappedName(e, ctx, base());
    case "find":
    case "findLast":
      return elementOf(base()) ?? join("found", base());
    case "indexOf":
    case "lastIndexOf":
      // Where a separator is in a text (`name.indexOf("__")`), not an index of some element of it.
      if (isSeparator(e.arguments[0])) return "separatorIndex";
      return `${elementOf(base()) ?? base() ?? "item"}Index`;
    case "findIndex":
    case "findLastIndex":
      return `${elementOf(base()) ?? base() ?? "item"}Index`;
    case "sort":
    case "toSorted":
      return join("sorted", base());
    case "slice":
    case "substring":
      return base() ? `${base()}${isZero(e.arguments[0]) ? "Head" : "Tail"}` : null;
    case "join":
      return `${elementOf(base()) ?? base() ?? "joined"}${base() ? "Text" : ""}`;
    case "replace":
    case "replaceAll":
      return join("cleaned", base());
    case "get": {
      const stored = storedValue(recv, ctx, b);
      if (stored === WAIT) return null;
      if (stored && !(b && ctx.clashes(stored, b))) return stored;
      // The name of what was stored, held nearby by the value about to be stored, would come back numbered:
      // what the map gives back is then what is cached, or the one already there (`existingTool`, looked up
      // before `tool` is stored).
      const got = gotten(base(), e.arguments[0], ctx);
      return stored && got !== "cached" ? join("existing", stored) : got;
    }
    case "exec":
    case "match":
      return `${(base() ?? "").replace(/Pattern$/, "") || "match"}${base() ? "Match" : ""}`;
    case "matchAll":
      return "matches";
    case "concat":
      return base();
    case "keys":
    case "values":
    case "entries":
      return join(base() ?? method, base() ? method : null);
    default:
      return staticResult(recv, method, e, ctx) ?? verbResult(method);
  }
}

function staticResult(recv: Node, method: string, e: CallExpression, ctx: NameContext): string | null {
  if (recv.type !== "Identifier") return null;
  const arg = baseOf(e.arguments[0], ctx);
  if (recv.name === "Object" && /^(keys|values|entries)$/.test(method)) return join(arg ?? method, arg ? method : null);
  if (recv.name === "Array" && method === "from") return arg ? plural(elementOf(arg) ?? arg) : "list";
  if (recv.name === "JSON") return method === "parse" ? "parsed" : "json";
  // No further than a length: the end of a chunk or a window (`Math.min(offset + 8192, text.length)`).
  if (recv.name === "Math" && method === "min" && e.arguments.some((a) => a.type === "MemberExpression" && memberName(a) === "length"))
    return "end";
  if (recv.name === "Math") return join(method, arg);
  if (recv.name === "Promise" && (method === "all" || method === "allSettled")) return "results";
  // A frozen value is the value: a shared empty list or object is what it stands in for, nothing.
  if (recv.name === "Object" && method === "freeze") return emptyValue(e.arguments[0]) ?? (arg ? join("frozen", arg) : null);
  return null;
}

/** `[]` and `{}` as names: emptyList, emptyObject. */
function emptyValue(e: Node | SpreadElement | undefined): string | null {
  if (e?.type === "ArrayExpression" && e.elements.length === 0) return "emptyList";
  return e?.type === "ObjectExpression" && e.properties.length === 0 ? "emptyObject" : null;
}

/** A string of punctuation only: `"__"`, `"/"`, `": "`. */
function isSeparator(n: Node | undefined): boolean {
  return n?.type === "Literal" && typeof n.value === "string" && /^[^\p{L}\p{N}]+$/u.test(n.value) && n.value.trim() !== "";
}

function isZero(n: Node | undefined): boolean {
  return n?.type === "Literal" && n.value === 0;
}

/**
 * What a map holds, from what the code stores in it: `index.set(tool.name, tool)` makes `index.get(…)` a
 * tool. Null unless every store names the same thing (a store of the very value being named says nothing);
 * WAIT while a stored local has no name yet.
 */
function storedValue(map: Node, ctx: NameContext, b: Binding | undefined): string | null | typeof WAIT {
  let agreed: string | null = null;
  for (const call of methodCalls(ctx.bindingOf(map), /^set$/, ctx)) {
    const value = call.arguments[1];
    const stored = ctx.bindingOf(value);
    if (!value || (b && stored === b)) continue;
    if (stored && !ctx.chosen.has(stored) && !ctx.lastResort) return WAIT;
    const name = baseOf(value, ctx);
    if (!name || (agreed && agreed !== name)) return null;
    agreed = name;
  }
  return agreed;
}

/** `toolMap.get(…)`, `descriptionCache.get(…)`: a map named after what it holds; a cache named after its keys holds what is cached. */
function gotten(base: string | null, key: Node | undefined, ctx: NameContext): string | null {
  if (!base) return null;
  const keyName = baseOf(key, ctx);
  if (/Cache$/.test(base) && keyName === base.replace(/Cache$/, "")) return "cached";
  const stripped = base.replace(/(Map|Cache|ByName|ById|Result)$/, "");
  if (stripped !== base && stripped.length >= 3) return singular(stripped) ?? stripped;
  return elementOf(base) ?? (keyName ? join(keyName, base) : null);
}

/**
 * The parameter of a callback that returns it or nothing: `(x) => keep ? x : null`, or a body whose every
 * return is so. What a map over such a callback makes holds the elements it kept, and gaps.
 */
function keptParameter(fn: Node | undefined): Node | null {
  if ((fn?.type !== "ArrowFunctionExpression" && fn?.type !== "FunctionExpression") || fn.params[0]?.type !== "Identifier") return null;
  const param = fn.params[0];
  let keeps = false;
  const keptOrNothing = (e: Node | null | undefined): boolean => {
    if (e?.type === "Identifier" && e.name === param.name) return (keeps = true);
    if (e?.type === "ConditionalExpression") return keptOrNothing(e.consequent) && keptOrNothing(e.alternate);
    return (
      (e?.type === "Literal" && e.value === null) ||
      (e?.type === "Identifier" && e.name === "undefined") ||
      (e?.type === "UnaryExpression" && e.operator === "void")
    );
  };
  const returns = returnedValues(fn);
  return returns.length > 0 && returns.every(keptOrNothing) && keeps ? param : null;
}

/** The `x` of a flatMap callback that is a filter: `cond ? [x] : []` or `cond ? [] : [x]`. */
function keptByFlatMap(body: Node | null | undefined): Node | null {
  if (body?.type !== "ConditionalExpression") return null;
  const one = (n: Node) =>
    n.type === "ArrayExpression" && n.elements.length === 1 && n.elements[0]?.type !== "SpreadElement" ? n.elements[0] : null;
  const none = (n: Node) => n.type === "ArrayExpression" && n.elements.length === 0;
  if (none(body.alternate)) return one(body.consequent) ?? null;
  if (none(body.consequent)) return one(body.alternate) ?? null;
  return null;
}

function mappedName(e: CallExpression, ctx: NameContext, base: string | null): string | null {
  const fn = e.arguments[0];
  const body = fn && (fn.type === "ArrowFunctionExpression" ? (fn.body.type === "BlockStatement" ? null : fn.body) : null);
  const element = elementOf(base);
  // `items.map((item) => [item, found(item)])`: pairs; `pairs.flatMap(([item, found]) => found.length ? [] : [item])`:
  // a filter of what it keeps.
  if (body?.type === "ArrayExpression" && body.elements.length === 2) return join(element ?? "", "pairs").replace(/^Pairs$/, "pairs");
  const kept = memberName(e.callee as MemberExpression) === "flatMap" ? keptByFlatMap(body) : null;
  if (kept) {
    const name = ctx.nameOf(kept);
    return name ? join("filtered", plural(name)) : null;
  }
  const prop = body?.type === "MemberExpression" ? memberName(body) : undefined;
  if (prop !== undefined) return `${element ?? ""}${element ? cap(plural(prop)) : plural(prop)}`;
  if (body?.type === "CallExpression" && body.callee.type === "MemberExpression" && !body.callee.computed) {
    const m = memberName(body.callee);
    if (m === "toLowerCase") return join("lower", base ?? "items");
    if (m === "trim") return join("trimmed", base ?? "items");
  }
  const fnName = ctx.nameOf(fn);
  if (fnName) return plural(verbResult(fnName) ?? fnName);
  return base ? join("mapped", plural(base)) : null;
}

function calledResult(e: CallExpression, ctx: NameContext): string | null {
  const name = ctx.nameOf(e.callee);
  // What passes its argument through is no name for the result.
  if (name && /^identity\d*$/.test(name)) return baseOf(e.arguments[0], ctx);
  // `mapWithYield(tools, …, (tool) => keep ? tool : null)`: the tools it kept.
  const kept = name && /^map(?![a-z])/.test(name) ? e.arguments.map(keptParameter).find((p) => p) : null;
  if (kept) {
    const element = ctx.nameOf(kept);
    return element ? plural(element) : null;
  }
  if (!name || /^(Boolean|String|Number)$/.test(name))
    return name ? uncap(name === "String" ? "text" : name === "Number" ? "number" : "flag") : null;
  // The global error constructors make an error with or without `new`: named as `new` names it.
  if (/^([A-Z][a-z]+)?Error$/.test(name) && BUILTINS.has(name) && !ctx.bindingOf(e.callee)) return uncap(name);
  return verbResult(name);
}

const PARTICIPLES: Record<string, string> = {
  parse: "parsed",
  normalize: "normalized",
  format: "formatted",
  escape: "escaped",
  truncate: "truncated",
  trim: "trimmed",
  split: "split",
  sort: "sorted",
  merge: "merged",
  resolve: "resolved",
  cap: "capped",
  clean: "cleaned",
  dedupe: "unique",
  unique: "unique",
};

/** Verbs whose result is a noun that follows what it is of: describeTool → toolDescription. */
const NOUNS: Record<string, string> = {
  describe: "description",
};

/** What a call of a function so named returns: getX → x, parseX → parsedX, describeX → xDescription, isX stays isX. */
export function verbResult(fn: string): string | null {
  // `parsedNameOf(tool)`, `charCodeAt(i)`: the words before the preposition name what the call gives.
  const noun = /^([a-z][A-Za-z0-9]*?)(?:Of|For|At|From)$/.exec(fn)?.[1];
  if (noun) {
    const made = verbResult(noun);
    return made && !made.endsWith("Result") ? made : noun;
  }
  const m = /^([a-z]+)([A-Z][A-Za-z0-9]*)?$/.exec(fn);
  if (!m) return null;
  const [, verb, rest] = m;
  if (/^(is|has|can|should)$/.test(verb!)) return fn;
  if (/^(get|read|load|fetch|find|compute|collect|build|make|create|to|list|select|pick|lookup|count)$/.test(verb!))
    return rest ? uncap(rest) : verb === "count" ? "count" : null;
  if (PARTICIPLES[verb!]) return join(PARTICIPLES[verb!]!, rest ? uncap(rest) : null);
  if (NOUNS[verb!]) return rest ? join(uncap(rest), NOUNS[verb!]) : NOUNS[verb!]!;
  return rest ? `${fn}Result` : `${verb}Result`;
}
