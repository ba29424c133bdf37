/**
 * Names that fit the value: where the code shows what kind of value a binding holds, the head noun of
 * the name a rule chose for it must not contradict that kind. A rule names a value by how it is made,
 * and names built on names carry the older name's noun along: `capQueryWords(query).toLowerCase().trim()`
 * is a string, but `trimmed` + `lowerQueryWords` reads as a list (`trimmedWords`). Corrected:
 *
 *   let trimmedWords = capQueryWords(query).toLowerCase().trim();   // before
 *   let trimmedLowerQuery = capQueryWords(query).toLowerCase().trim(); // after
 *
 * The kinds known: a string (`.trim()`, `.toLowerCase()`, `.join()`, a template, `+` with a string), an
 * array (`.split()`, `.filter()`, `.map()`, an array literal, `Array.from`, `Object.keys`), a boolean
 * (comparisons, `!`, `.includes()`, `.some()`, `.startsWith()`, `.test()`) and a number (`.length`,
 * arithmetic, `.indexOf()`). A binding's kind is its initializer's, when every later assignment agrees;
 * the element a callback gets from a `.split()` result is a string. A function (an arrow or function
 * expression, or the call of a local function whose every return is one, as a handler factory's) is not
 * named as a result, a list or a text: `let otherResult = makeHandler(names);` reads `otherHandler`.
 * Kinds are read from the code alone,
 * so the same code gets the same correction in every release. `scripts/placeholders.mjs` counts the
 * names that still contradict their value's kind with `misfit`.
 */
import { isFunction, returnedValues, type Node } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import { cap, plural, singular, uncap } from "./words.js";

export type ValueKind = "string" | "array" | "boolean" | "number" | "function";

const STRING_METHODS = new Set([
  "trim",
  "trimStart",
  "trimEnd",
  "toLowerCase",
  "toUpperCase",
  "toLocaleLowerCase",
  "toLocaleUpperCase",
  "join",
  "replace",
  "replaceAll",
  "padStart",
  "padEnd",
  "repeat",
  "charAt",
  "substring",
  "normalize",
]);
const ARRAY_METHODS = new Set(["split", "filter", "map", "flatMap"]);
const BOOLEAN_METHODS = new Set(["includes", "some", "every", "startsWith", "endsWith", "test", "has", "isArray"]);
const NUMBER_METHODS = new Set(["indexOf", "lastIndexOf", "findIndex", "findLastIndex", "charCodeAt", "codePointAt", "localeCompare"]);
const COMPARISONS = new Set(["===", "!==", "==", "!=", "<", ">", "<=", ">=", "instanceof", "in"]);
const ARITHMETIC = new Set(["-", "*", "/", "%", "**", "|", "&", "^", "<<", ">>", ">>>"]);

/** What an identifier refers to: its initializer when it is a variable never given a value of another kind, else null. */
export type KindLookup = (id: Node) => ValueKind | null;
/** The kind of what a call of the function an identifier holds returns, when every return shows the same kind. */
export type ReturnLookup = (callee: Node) => ValueKind | null;

/** The kind of value an expression makes, when its code shows it; null when it does not. */
export function kindOf(e: Node | null | undefined, lookup: KindLookup = () => null, returns: ReturnLookup = () => null): ValueKind | null {
  if (!e) return null;
  switch (e.type) {
    case "ArrowFunctionExpression":
    case "FunctionExpression":
      return "function";
    case "TemplateLiteral":
      return "string";
    case "Literal":
      if (typeof e.value === "string") return "string";
      if (typeof e.value === "boolean") return "boolean";
      return typeof e.value === "number" ? "number" : null;
    case "ArrayExpression":
      return "array";
    case "Identifier":
      return lookup(e);
    case "ChainExpression":
      return kindOf(e.expression, lookup);
    case "AwaitExpression":
      return null;
    case "UnaryExpression":
      if (e.operator === "!") return "boolean";
      if (e.operator === "-" || e.operator === "+" || e.operator === "~") return "number";
      return e.operator === "typeof" ? "string" : null;
    case "UpdateExpression":
      return "number";
    case "BinaryExpression": {
      if (COMPARISONS.has(e.operator)) return "boolean";
      if (ARITHMETIC.has(e.operator)) return "number";
      if (e.operator !== "+") return null;
      const [l, r] = [kindOf(e.left, lookup), kindOf(e.right, lookup)];
      if (l === "string" || r === "string") return "string";
      return l === "number" && r === "number" ? "number" : null;
    }
    case "LogicalExpression": {
      const [l, r] = [kindOf(e.left, lookup), kindOf(e.right, lookup)];
      return l && l === r ? l : null;
    }
    case "ConditionalExpression": {
      const [l, r] = [kindOf(e.consequent, lookup), kindOf(e.alternate, lookup)];
      return l && l === r ? l : null;
    }
    case "MemberExpression":
      return !e.computed && e.property.type === "Identifier" && e.property.name === "length" ? "number" : null;
    case "CallExpression":
      return calledKind(e, lookup) ?? (e.callee.type === "Identifier" ? returns(e.callee) : null);
    default:
      return null;
  }
}

function calledKind(e: Node & { type: "CallExpression" }, lookup: KindLookup): ValueKind | null {
  const callee = e.callee;
  if (callee.type === "Identifier") {
    if (callee.name === "String") return "string";
    if (callee.name === "Boolean") return "boolean";
    if (callee.name === "Number" || callee.name === "parseInt" || callee.name === "parseFloat") return "number";
    return null;
  }
  if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier") return null;
  const method = callee.property.name;
  const recv = callee.object;
  if (recv.type === "Identifier" && (recv.name === "Math" || recv.name === "Number")) return method === "isInteger" ? "boolean" : "number";
  if (recv.type === "Identifier" && recv.name === "Array") return method === "isArray" ? "boolean" : method === "from" ? "array" : null;
  if (recv.type === "Identifier" && recv.name === "Object" && /^(keys|values|entries)$/.test(method)) return "array";
  if (STRING_METHODS.has(method)) return "string";
  if (ARRAY_METHODS.has(method)) return "array";
  if (BOOLEAN_METHODS.has(method)) return "boolean";
  if (NUMBER_METHODS.has(method)) return "number";
  // `slice` and `concat` keep the kind of what they are called on.
  if (method === "slice" || method === "concat") {
    const k = kindOf(recv, lookup);
    return k === "string" || k === "array" ? k : null;
  }
  return null;
}

/** The kind of the elements a callback of `.filter`/`.map`/… gets: a string for the parts of a `.split()`. */
export function elementKind(list: Node | null | undefined, resolve: (id: Node) => Node | null = () => null, depth = 0): ValueKind | null {
  if (!list || depth > 6) return null;
  if (list.type === "Identifier") return elementKind(resolve(list), resolve, depth + 1);
  if (list.type !== "CallExpression" || list.callee.type !== "MemberExpression" || list.callee.computed) return null;
  const method = list.callee.property.type === "Identifier" ? list.callee.property.name : "";
  if (method === "split") return "string";
  return /^(filter|slice|sort|toSorted|reverse)$/.test(method) ? elementKind(list.callee.object, resolve, depth + 1) : null;
}

const ITERATING = /^(filter|map|flatMap|some|every|find|findLast|findIndex|forEach)$/;

/** The list whose elements a callback's first parameter gets (`list.filter((x) => …)`), or null. */
export function iteratedList(fn: Node | null | undefined, parentOf: (n: Node) => Node | undefined): Node | null {
  const call = fn ? parentOf(fn) : undefined;
  if (call?.type !== "CallExpression" || call.arguments[0] !== fn) return null;
  const m = call.callee;
  return m.type === "MemberExpression" && !m.computed && m.property.type === "Identifier" && ITERATING.test(m.property.name)
    ? m.object
    : null;
}

const LIST_WORDS = /^(list|set|map|array|pairs|items|entries|parts|words|terms|names|tokens)$/;
const TEXT_WORDS = /^(text|string|query|message|name|description|prompt|label|title|line|word|prefix|suffix|sentence|paragraph)$/;
const COUNT_WORDS = /^(count|index|length|total|size|number|limit)$/;
const PREDICATE = /^(is|has|have|can|should|was|were|needs|does|did|are|will|matches|contains|includes|allows|keeps|asks)$/;
/** Words that open a boolean's name as well as a list's (`noQuery`, `allTools`): a predicate only for a boolean. */
const QUANTIFIER = /^(no|not|any|all|every|some|none|exact|found|only)$/;
const QUANTITY = /^(max|min|total|num|count|limit|number)$/;
/** Nouns of a value a function is not: what it returns, or gets. */
const RESULT_WORDS = /^(result|results|value|values|data|output|response|info|item|items)$/;
/** First words that make a name a verb phrase or a handler's (`getResult`, `onResult`, `makeList`). */
const VERB =
  /^(get|make|create|build|find|format|parse|run|call|apply|compute|check|handle|on|to|read|load|fetch|resolve|select|filter|map|add|set|update|refresh|always|never)$/;

const wordsOf = (name: string): string[] => name.replace(/\d+$/, "").split(/(?=[A-Z])/);
const isList = (w: string) => LIST_WORDS.test(w) || singular(w) !== null;

/** Whether a name's head noun (or its predicate form) contradicts the value's kind: a string named as a list, a list as a text. */
export function misfit(name: string, kind: ValueKind): boolean {
  const words = wordsOf(name);
  const head = uncap(words.at(-1)!);
  const first = words[0]!;
  const predicate = PREDICATE.test(first) && words.length > 1;
  switch (kind) {
    case "string":
      return predicate || (words.length > 0 && isList(head)) || COUNT_WORDS.test(head);
    case "array":
      return predicate || TEXT_WORDS.test(head) || COUNT_WORDS.test(head);
    case "boolean":
      return !predicate && !QUANTIFIER.test(first) && (isList(head) || TEXT_WORDS.test(head) || COUNT_WORDS.test(head));
    case "number":
      if (QUANTITY.test(first) || COUNT_WORDS.test(head) || /Ms$|ms$/.test(name)) return false;
      return predicate || TEXT_WORDS.test(head) || LIST_WORDS.test(head) || isList(head);
    case "function":
      if (VERB.test(uncap(first)) || predicate) return false;
      return RESULT_WORDS.test(head) || LIST_WORDS.test(head) || TEXT_WORDS.test(head) || COUNT_WORDS.test(head);
  }
}

/**
 * The name corrected to fit the kind, or the name itself when it fits or no correction is sure: a string
 * drops the list words at its end (`trimmedLowerQueryWords` → trimmedLowerQuery; `trimmedWords` →
 * trimmedText), a list says it holds its texts (`filteredName` → filteredNames), a boolean says what it
 * has (`hasFilteredTools`), a number counts (`toolCount`, `queryLength`).
 */
export function fitName(name: string, kind: ValueKind): string {
  if (!misfit(name, kind)) return name;
  const words = wordsOf(name);
  const head = uncap(words.at(-1)!);
  const rest = words.slice(0, -1);
  const predicate = PREDICATE.test(words[0]!) && words.length > 1;
  if (predicate) return name;
  switch (kind) {
    case "string": {
      const kept = [...words];
      while (kept.length > 0 && (isList(uncap(kept.at(-1)!)) || COUNT_WORDS.test(uncap(kept.at(-1)!)))) kept.pop();
      const last = uncap(kept.at(-1) ?? "");
      // What is left is a noun (`trimmedLowerQuery`), or only how the text was made (`trimmed` → trimmedText).
      if (!last || /(ed|^lower|^upper|^joined)$/.test(last) || kept.length === 0) kept.push("Text");
      return uncap(kept.map(cap).join(""));
    }
    case "array":
      return TEXT_WORDS.test(head) ? uncap([...rest, plural(head)].map(cap).join("")) : name;
    case "boolean":
      return `has${cap(name)}`;
    case "number":
      if (TEXT_WORDS.test(head)) return `${name}Length`;
      return uncap([...rest, singular(head) ?? head.replace(LIST_WORDS, "item"), "Count"].map(cap).join(""));
    case "function":
      // What a function is for shows where it is called; a handler is the nearest word that does not mislead.
      return uncap([...rest, "Handler"].map(cap).join(""));
  }
}

/** The kind of value a binding holds, when its code shows one and no assignment gives it another. */
export function bindingKind(b: Binding, ctx: NameContext, depth = 0): ValueKind | null {
  if (depth > 6) return null;
  const lookup: KindLookup = (id) => {
    const other = ctx.bindingOf(id);
    return other && other !== b ? bindingKind(other, ctx, depth + 1) : null;
  };
  if (b.kind === "parameter") {
    if (b.index !== 0 || !b.fn || b.fn.params[0] !== b.id) return null;
    const resolve = (id: Node) => {
      const o = ctx.bindingOf(id);
      return o && o.kind === "variable" && !o.iterates && !reassigned(o, ctx) ? o.init : null;
    };
    return elementKind(
      iteratedList(b.fn, (n) => ctx.parent(n)),
      resolve,
    );
  }
  if (b.kind !== "variable" || b.iterates || !b.init) return null;
  const returns: ReturnLookup = (callee) => {
    const fn = ctx.bindingOf(callee);
    if (!fn || fn === b || !fn.init || !isFunction(fn.init) || (fn.kind === "variable" && (fn.iterates || reassigned(fn, ctx))))
      return null;
    const kinds = returnedValues(fn.init).map((r) => (r ? kindOf(r, lookup) : null));
    return kinds.length > 0 && kinds.every((k) => k === kinds[0]) ? kinds[0]! : null;
  };
  const kind = kindOf(b.init, lookup, returns);
  if (!kind) return null;
  for (const u of b.uses) {
    const p = ctx.parent(u);
    if (p?.type === "UpdateExpression") return kind === "number" ? kind : null;
    if (p?.type !== "AssignmentExpression" || p.left !== u) continue;
    if (p.operator === "+=" && (kind === "string" || kind === "number")) continue;
    if (p.operator !== "=" || kindOf(p.right, lookup) !== kind) return null;
  }
  return kind;
}

function reassigned(b: Binding, ctx: NameContext): boolean {
  return b.uses.some((u) => {
    const p = ctx.parent(u);
    return (p?.type === "AssignmentExpression" && p.left === u) || p?.type === "UpdateExpression";
  });
}

/** A rule's name made to fit the value the binding holds (see `fitName`); unchanged where the kind is unknown. */
export function fitToValue(name: string | null, b: Binding, ctx: NameContext): string | null {
  if (!name) return name;
  const kind = bindingKind(b, ctx);
  return kind ? fitName(name, kind) : name;
}
