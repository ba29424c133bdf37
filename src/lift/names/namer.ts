/**
 * The namer: readable, deterministic names for every binding of an assembled program — its locals
 * and the module-level helpers and constants that carry only a hash tag.
 *
 * A binding takes, in order: the role the signature gives it; a curated name from the names file
 * (module-level definitions, matched by code shape); else the first rule with evidence, run in
 * passes so that names build on names already chosen (`lowerQuery` once `query` is named, `tool`
 * once `tools` is); else a name from how it is used.
 * Names differ wherever two bindings could meet — one's scope holds the other's — so no renaming can
 * capture a binding; bindings in unrelated scopes (two helpers, two sibling callbacks) may share a
 * name, as hand-written code does, and a parameter may take the name of what every call passes it where
 * its function never reads the outer binding (passed-as-itself.ts). The rare collisions left get a numeric suffix, handed out in an
 * order fixed by the code's structure (helpers by their code hash, locals by position inside their
 * own helper), so that code added elsewhere in the module does not renumber a helper's names.
 */
import { analyze, type Scope } from "eslint-scope";
import type { Identifier } from "acorn";
import { fieldsOf, isNodeList, memberName, type FunctionNode, type Node } from "../../ast/pattern.js";
import { applyRenames, canonicalShorthands, shorthandProperties } from "../assemble.js";
import { BUILTINS, REFUSED_BUILTINS } from "../globals.js";
import { FORBIDDEN_PROPERTY_SET } from "../property-names.js";
import { collectBindings, isFunction, NameContext, type Binding } from "./context.js";
import type { Rule } from "./rule.js";
import type { CuratedMatch } from "./curated.js";
import { arrayElement } from "./array-element.js";
import { destructuredKey } from "./destructured-key.js";
import { iterationElement } from "./iteration.js";
import { markedTerms } from "./marked-terms.js";
import { objectKey } from "./object-key.js";
import { calleeParameter, callerArgument } from "./callee-parameter.js";
import { lengthBound } from "./length-bound.js";
import { mapKey } from "./map-key.js";
import { COUNTERS, loopCounter } from "./loop-counter.js";
import { predicate } from "./predicate.js";
import { producingCall } from "./producing-call.js";
import { constantValue } from "./constant-value.js";
import { longText } from "./long-text.js";
import { fitToValue } from "./value-kind.js";
import { functionPurpose } from "./function-purpose.js";
import { passedAsItself } from "./passed-as-itself.js";
import { narrowedList } from "./narrowed-list.js";
import { filledList } from "./filled-list.js";
import { useSite } from "./use-site.js";
import { namePrivateFields } from "./private-fields.js";
import { cap, isPlaceholderName, lastWord } from "./words.js";
import { acornIdentifier, fromEstree } from "../../ast/estree-bridge.js";

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval async of get set undefined NaN Infinity"
  ).split(" "),
);

const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"];

/** Rules with evidence, strongest first. */
export const RULES: ReadonlyArray<[string, Rule]> = [
  ["loop counter", loopCounter],
  ["map key", mapKey],
  ["destructured key", destructuredKey],
  ["array element", arrayElement],
  ["marked terms", markedTerms],
  ["narrowed list", narrowedList],
  ["filled list", filledList],
  ["iteration", iterationElement],
  ["long text", longText],
  ["constant value", constantValue],
  ["object key", objectKey],
  ["callee parameter", calleeParameter],
  ["length bound", lengthBound],
  ["caller argument", callerArgument],
  ["predicate", predicate],
  ["producing call", producingCall],
  ["function purpose", functionPurpose],
];

export interface NamingInput {
  statements: Node[];
  /** Original source offset of an identifier (a binding or a use of it) → the role name it plays. An identifier
   *  the lift added, with no offset of its own, may carry its role (`role` on the node). */
  roles: Map<number, string>;
  /** Names the namer must leave alone or not hand out (adapter, exports, built-ins). */
  taken: Iterable<string>;
  /** Module-level names the namer may replace (hash-tagged helpers and constants). */
  renamable: (name: string) => boolean;
  /** A curated name for a module-level statement, and its parameters' names, from the names file. */
  curated?: (statement: Node) => CuratedMatch | null;
}

/** Name the program in place; returns old → new for the module-level names that changed. */
export function nameProgram(input: NamingInput): Map<string, string> {
  const { statements } = input;
  if (!statements.length) return new Map();
  const program = { type: "Program", sourceType: "module", body: statements, start: 0, end: 0, range: [0, 0] } as unknown as Node;
  const sm = analyze(program as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
  const ctx = new NameContext(program);
  const statementOf = (n: Node): Node => {
    let cur = n;
    for (let p = ctx.parent(cur); p && p !== program; p = ctx.parent(cur)) cur = p;
    return cur;
  };
  const moduleScope = sm.scopes.find((s) => s.type === "module");
  const all = collectBindings(sm.scopes, ctx.parents, statementOf, moduleScope);
  const used = new Set<string>([...input.taken, ...BUILTINS, ...REFUSED_BUILTINS, ...RESERVED, ...FORBIDDEN_PROPERTY_SET]);
  for (const ref of sm.globalScope!.through) used.add(acornIdentifier(ref.identifier).name);
  for (const s of moduleScope?.through ?? []) used.add(acornIdentifier(s.identifier).name);

  const bindings = mergeClassSelfNames(all, statements).filter((b) => {
    if (b.topLevel && !input.renamable(b.original)) return (used.add(b.original), false);
    return true;
  });
  ctx.addBindings(order(bindings, statements, input.renamable));

  const holders = new Map<string, Binding[]>();
  const meeting = (name: string, scope: Scope) => (holders.get(name) ?? []).filter((h) => related(h.variable.scope, scope));
  const free = (name: string, scope: Scope) => !used.has(name) && meeting(name, scope).length === 0;
  ctx.clashes = (name, b) => !free(name, b.variable.scope);
  const take = (b: Binding, want: string) => {
    const scope = b.variable.scope;
    let name = want;
    const shadows = !free(name, scope) && !used.has(name) && passedAsItself(b, name, meeting(name, scope), ctx);
    if (!shadows) {
      // A clash is told apart by words first, each fixed by the code's structure, and by a number last.
      for (const alt of alternatives(b, want, ctx)) if (!free(name, scope) && alt.length <= 24 && free(alt, scope)) name = alt;
      for (let i = 2; !free(name, scope); i++) name = `${want}${i}`;
    }
    holders.set(name, [...(holders.get(name) ?? []), b]);
    ctx.chosen.set(b, name);
  };
  const curatedUsed = new Set<string>();
  // Parameter names the names file gives, by the curated function they belong to.
  const curatedParameters = new Map<Node, Array<string | null>>();
  for (const b of ctx.bindings) {
    const role = b.id.start < 0 ? b.original : roleOf(b, input.roles);
    let fixed = role ?? curatedParameter(b, curatedParameters);
    // A curated name fits one helper: when two match, neither is sure, and the rules name the second. A helper
    // the signature names takes only the parameters of the entry by that name.
    const match = b.topLevel && input.curated ? input.curated(b.statement) : null;
    if (match && !curatedUsed.has(match.name) && (!fixed || match.name === fixed)) {
      fixed = match.name;
      curatedUsed.add(match.name);
      const fn = isFunction(b.init) ? b.init : constructorOf(b.init);
      if (fn && match.parameters && fn.params.length <= match.parameters.length) curatedParameters.set(fn, match.parameters);
    }
    if (fixed) take(b, fixed);
  }
  const usable = (name: string | null): name is string =>
    !!name && /^[A-Za-z_$][\w$]*$/.test(name) && !isPlaceholderName(name) && !RESERVED.has(name) && name.length <= 40;
  const runRules = () => {
    for (let pass = 0, progress = true; progress && pass < 8; pass++) {
      progress = false;
      for (const b of ctx.bindings) {
        if (ctx.chosen.has(b)) continue;
        for (const [, rule] of RULES) {
          // A name whose head noun contradicts the value's kind is corrected before it is shortened (value-kind.ts).
          const name = shorten(fitToValue(rule(b, ctx), b, ctx));
          if (usable(name)) {
            take(b, name);
            progress = true;
            break;
          }
        }
      }
    }
  };
  runRules();
  ctx.lastResort = true;
  runRules();
  ctx.lastResort = false;
  // What is still unnamed gets names from use below; a parameter's name is then better than none.
  ctx.clashes = () => false;
  // Parameters first: a name from use for them lets the rules name what is made from them.
  for (const group of [(b: Binding) => b.kind === "parameter", () => true]) {
    for (const b of ctx.bindings) if (!ctx.chosen.has(b) && group(b)) take(b, useSite(b, ctx) ?? "value");
    runRules();
  }

  const renames: Array<[Identifier, string]> = [];
  const moduleLevel = new Map<string, string>();
  for (const b of ctx.bindings) {
    const name = ctx.chosen.get(b)!;
    if (name === b.original) continue;
    for (const id of b.variable.identifiers) renames.push([acornIdentifier(id), name]);
    for (const u of b.uses) renames.push([u, name]);
    if (b.topLevel) moduleLevel.set(b.original, name);
  }
  applyRenames(program, renames, shorthandProperties(program));
  canonicalShorthands(program);
  namePrivateFields(program);
  return moduleLevel;
}

/** Two scopes where bindings of one name could meet: one holds the other. Siblings may share names. */
function related(a: Scope, b: Scope): boolean {
  for (let s: Scope | null = a; s; s = s.upper) if (s === b) return true;
  for (let s: Scope | null = b; s; s = s.upper) if (s === a) return true;
  return false;
}

/**
 * Names built on names grow (`filteredLowerTrimmedQueryWords`): past 20 letters keep the outer
 * modifier and the noun (`filteredWords`), which is what a reader needs from a local.
 */
export function shorten(name: string | null): string | null {
  if (!name || name.length <= 20) return name;
  const words = name.split(/(?=[A-Z])/);
  return words.length > 2 ? words[0] + words.slice(-1).join("") : name;
}

/**
 * Other names for a binding whose first choice is taken: a parameter by its place (`secondList`);
 * a local by the function it belongs to (`isLoadedInput`); a module-level helper by the most telling
 * property its code reads (`identityTools`, `formatMatches`); then `otherX`.
 */
function alternatives(b: Binding, want: string, ctx: NameContext): string[] {
  const Want = cap(want);
  const out: string[] = [];
  // A counter inside a loop whose counter took its letter takes the next one.
  if (COUNTERS.includes(want)) return COUNTERS.slice(COUNTERS.indexOf(want) + 1);
  if (b.kind === "parameter" && b.index > 0 && b.index < ORDINALS.length) out.push(`${ORDINALS[b.index]}${Want}`);
  const owner = ownerName(b, ctx);
  // An element of `deferredTools` whose `deferredTool` is taken nearby is a `tool` before it is an `eachDeferredTool`.
  const last = lastWord(want);
  if (owner === "each" && last) out.push(last);
  // What a `find` or `filter` callback gets is a candidate: `tools.find(candidate => candidate.name === name)`.
  if (owner === "each" && isTestedElement(b, ctx)) out.push("candidate");
  if (owner && !want.toLowerCase().includes(owner.toLowerCase())) out.push(`${owner}${Want}`);
  if (b.topLevel)
    for (const word of tellingWords(b.statement)) if (!want.toLowerCase().includes(word.toLowerCase())) out.push(`${want}${cap(word)}`);
  out.push(`other${Want}`);
  return out;
}

const COMMON = new Set([
  "length",
  "name",
  "map",
  "filter",
  "push",
  "slice",
  "join",
  "includes",
  "has",
  "get",
  "set",
  "add",
  "some",
  "every",
  "find",
  "trim",
  "split",
  "replace",
  "toLowerCase",
  "type",
  "call",
  "apply",
  "then",
  "concat",
  "indexOf",
  "keys",
  "values",
  "entries",
  "test",
  "exec",
  "forEach",
  "reduce",
  "flatMap",
]);

/** Property names and key words a statement's code reads, rarest-looking first (in source order, common ones left out). */
function tellingWords(statement: Node): string[] {
  const out: string[] = [];
  const visit = (n: Node) => {
    if (!n || typeof n.type !== "string" || out.length >= 3) return;
    if (
      n.type === "MemberExpression" &&
      !n.computed &&
      n.property.type === "Identifier" &&
      !COMMON.has(n.property.name) &&
      /^[a-zA-Z]{3,14}$/.test(n.property.name)
    )
      out.push(n.property.name);
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      if (k === "range" || k === "loc") continue;
      const v = fields[k];
      if (isNodeList(v)) v.forEach((c) => c && typeof c === "object" && visit(c));
      else if (v && typeof v === "object") visit(v as Node);
    }
  };
  visit(statement);
  return [...new Set(out)];
}

/** The chosen name of the function a binding is a parameter or local of. */
function ownerName(b: Binding, ctx: NameContext): string | null {
  let n: Node | undefined = b.fn ?? ctx.parent(b.id);
  while (n && !/Function/.test(n.type)) n = ctx.parent(n);
  const fn = n ? ctx.byFunction.get(n) : undefined;
  const holder = n ? ctx.parent(n) : undefined;
  const key =
    holder?.type === "Property" && holder.value === n && !holder.computed && holder.key.type === "Identifier" ? holder.key.name : undefined;
  const iterated =
    holder?.type === "CallExpression" && holder.callee.type === "MemberExpression" && holder.arguments[0] === n ? "each" : undefined;
  const name = fn ? ctx.chosen.get(fn) : (key ?? iterated);
  return name && !isPlaceholderName(name) ? name.replace(/\d+$/, "") : null;
}

const TESTS = new Set(["find", "findLast", "findIndex", "findLastIndex", "some", "every", "filter"]);

/** The first parameter of the callback a method such as `find` or `filter` tests each element with. */
function isTestedElement(b: Binding, ctx: NameContext): boolean {
  const call = b.kind === "parameter" && b.index === 0 && b.fn ? ctx.parent(b.fn) : undefined;
  return call?.type === "CallExpression" && call.callee.type === "MemberExpression" && TESTS.has(memberName(call.callee) ?? "");
}

/** The curated name of a parameter that is a plain name (`p` or `p = default`) of a curated function. */
/** A class's constructor, whose parameters are the class's; null for anything else. */
function constructorOf(n: Node | null): FunctionNode | null {
  const body = n?.type === "ClassDeclaration" || n?.type === "ClassExpression" ? n.body.body : [];
  const ctor = body.find((m) => m.type === "MethodDefinition" && m.kind === "constructor");
  return ctor?.type === "MethodDefinition" ? ctor.value : null;
}

function curatedParameter(b: Binding, curated: Map<Node, Array<string | null>>): string | null {
  const names = b.kind === "parameter" && b.fn ? curated.get(b.fn) : undefined;
  const param = names && (b.fn!.params[b.index] as Node | undefined);
  const plain = param?.type === "AssignmentPattern" ? param.left : param;
  return plain === b.id ? (names![b.index] ?? null) : null;
}

function roleOf(b: Binding, roles: Map<number, string>): string | null {
  const carried = (b.id as Identifier & { role?: string }).role;
  if (carried) return carried;
  for (const id of [b.id, ...b.uses]) {
    const role = roles.get(id.start);
    if (role) return role;
  }
  return null;
}

/**
 * A class declaration binds its name twice, in the enclosing scope and inside its body: one binding, one name.
 * (A top-level class's outer binding is the module-level one, found by its name.)
 */
function mergeClassSelfNames(all: Binding[], statements: Node[]): Binding[] {
  const top = new Set(statements);
  const byName = new Map(all.filter((b) => b.topLevel).map((b) => [b.original, b]));
  const byId = new Map<Node | null, Binding>(
    all.filter((b) => b.kind === "class" && b.variable.scope.type !== "class").map((b) => [b.id, b]),
  );
  return all.filter((b) => {
    const block = fromEstree(b.variable.scope.block);
    if (b.variable.scope.type !== "class") return true;
    const outer = top.has(block) ? byName.get(b.original) : block.type === "ClassDeclaration" ? byId.get(block.id) : undefined;
    if (outer) outer.uses.push(...b.uses);
    return !outer && !top.has(block);
  });
}

/**
 * Module-level bindings by their structural name (the hash tag of their code), then the locals of each
 * statement in source order, statements in that same order: a helper's names do not depend on where
 * the assembler put it.
 */
function order(bindings: Binding[], statements: Node[], renamable: (name: string) => boolean): Binding[] {
  const keyOf = new Map<Node, string>();
  statements.forEach((s, i) => {
    const own = bindings.find((b) => b.topLevel && b.statement === s);
    const name = own?.original ?? "";
    keyOf.set(s, own && renamable(name) ? `1 ${name}` : `0 ${String(i).padStart(6, "0")}`);
  });
  const key = (b: Binding) => keyOf.get(b.statement) ?? "2";
  return [...bindings].sort((a, b) => {
    if (a.topLevel !== b.topLevel) return a.topLevel ? -1 : 1;
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : a.id.start - b.id.start;
  });
}
