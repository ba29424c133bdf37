/**
 * What proves a replacer quiet, for effectFreeStatements (its doc comment says which are): its call with the
 * matched text surely gives a string and does nothing else.
 */
import type { Variable } from "eslint-scope";
import type { BlockStatement } from "acorn";
import { isFunction, memberName, type FunctionNode, type Node } from "../../ast/pattern.js";
import { boundFunction, laterWrites, singleDeclarator } from "./tree.js";
import type { ModuleBindings } from "./surely-kinds.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** What a string's methods give, for those a quiet replacer may call (`replace` only as `quiet` checks its arguments). */
const QUIET_STRING_METHODS = new Map<string, "string" | "number" | "boolean">([
  ...["startsWith", "endsWith", "includes"].map((m) => [m, "boolean"] as const),
  ["indexOf", "number"],
  ...["slice", "substring", "toLowerCase", "toUpperCase", "trim", "replace"].map((m) => [m, "string"] as const),
]);

/** Calls a quiet replacer is followed through before giving up (2.1.323 takes three: the replacer, the name mapper, identity). */
const MAX_HELPER_DEPTH = 6;

/** Expressions one quiet-replacer question may look at, so that helpers calling helpers cannot make the work grow past it. */
const QUIET_BUDGET = 2000;

/** Whether a replacer is quiet where `statement` calls it; `initialised` says which bindings are initialised there. */
export function quietReplacers(
  { root, heads, resolved, declared, parents }: ModuleBindings,
  writesPrototype: boolean,
  initialised: (v: Variable, statement: Node) => boolean,
): (a: Node, statement: Node) => boolean {
  const rootBody = (root as { body: BlockStatement }).body as Node;
  const uses = (rootBody as BlockStatement).body.at(-1) as Node | undefined;
  /** Whether `n` lies inside `outer`. */
  const within = (n: Node, outer: Node): boolean => {
    for (let m: Node | undefined = n; m; m = parents.get(m)) if (m === outer) return true;
    return false;
  };
  /**
   * Whether `statement` runs only once the module's body has run to its end, so that every `let` and `const` of
   * the module holds its value: it lies in a function declared in the module's body, never written, that only
   * the module's last statement, the return of its names, refers to.
   */
  const afterInit = (statement: Node): boolean => {
    let outer: Node | undefined;
    for (let m = parents.get(statement); m && m !== root; m = parents.get(m)) if (isFunction(m)) outer = m;
    if (outer?.type !== "FunctionDeclaration" || parents.get(outer) !== rootBody || uses?.type !== "ReturnStatement") return false;
    const v = declared.get(outer.id as Node);
    return !!v && laterWrites(v).length === 0 && v.references.every((r) => within(fromEstree(r.identifier), uses));
  };
  /** A `let` or `const` of the module's body bound once to a string literal and never written. */
  const moduleString = (v: Variable): boolean => {
    const decl = singleDeclarator(v, heads);
    const declaration = fromEstree(v.defs[0]?.parent) as (Node & { kind: string }) | undefined;
    return (
      !!decl &&
      !!declaration &&
      declaration.kind !== "var" &&
      parents.get(declaration) === rootBody &&
      laterWrites(v).length === 0 &&
      decl.init?.type === "Literal" &&
      typeof decl.init.value === "string"
    );
  };
  type Quiet = "string" | "number" | "boolean" | "primitive" | null;
  type Closure = { fn: FunctionNode; env: Env };
  type Env = Map<Variable, Quiet | Closure>;
  /** Whether the statement being looked at runs after the module's body (set by quietReplacer for its question). */
  let constantsReady = false;
  /**
   * What a call of `fn` quietly gives, its parameters holding `args`: its body only `let`/`const` declarations and
   * `if (…) return …;`/`return …;` statements over quiet expressions, ending in a return.
   */
  const quietCall = (fn: FunctionNode, args: (Quiet | Closure)[], outer: Env, depth: number, budget: { left: number }): Quiet => {
    if (depth > MAX_HELPER_DEPTH || fn.async || fn.generator) return null;
    const env: Env = new Map(outer);
    for (const [i, p] of (fn.params as Node[]).entries()) {
      const v = p.type === "Identifier" ? declared.get(p) : undefined;
      if (!v || laterWrites(v).length > 0) return null;
      env.set(v, args[i] ?? null);
    }
    const kinds: Quiet[] = [];
    if (fn.expression) kinds.push(quiet(fn.body, env, depth, budget));
    else {
      const body = (fn.body as BlockStatement).body as Node[];
      if (body.at(-1)?.type !== "ReturnStatement") return null;
      for (const s of body) {
        if (s.type === "VariableDeclaration" && s.kind !== "var") {
          for (const d of s.declarations) {
            const v = d.id.type === "Identifier" ? declared.get(d.id) : undefined;
            const kind = d.init ? quiet(d.init, env, depth, budget) : null;
            if (!v || kind === null || laterWrites(v).length > 0) return null;
            env.set(v, kind);
          }
          continue;
        }
        let value: Node | null | undefined;
        if (s.type === "ReturnStatement") value = s.argument;
        else if (s.type === "IfStatement" && !s.alternate && quiet(s.test, env, depth, budget) !== null) {
          const then = s.consequent as Node;
          const only = then.type === "BlockStatement" && then.body.length === 1 ? (then.body[0] as Node) : then;
          if (only.type === "ReturnStatement") value = only.argument;
        }
        const kind = value ? quiet(value, env, depth, budget) : null;
        if (kind === null) return null;
        kinds.push(kind);
      }
    }
    if (kinds.some((k) => k === null)) return null;
    return kinds.every((k) => k === kinds[0]) ? kinds[0]! : "primitive";
  };
  /** A function an argument passes: written in place, a function declaration, or a parameter holding one. */
  const closureOf = (a: Node, env: Env): Closure | null => {
    if (isFunction(a)) return { fn: a, env };
    const v = a.type === "Identifier" ? resolved.get(a) : undefined;
    const held = v ? env.get(v) : undefined;
    if (held && typeof held === "object") return held;
    const fn = v && !env.has(v) && v.defs[0]?.type === "FunctionName" ? boundFunction(v, heads) : null;
    return fn ? { fn, env: new Map() } : null;
  };
  /**
   * A quiet evaluation: one that surely gives a primitive and does nothing else (no call of anything but a
   * string's own methods and quiet functions, no read of a property but a string's length, no throw). `env` holds
   * what the parameters and bindings of the calls being followed are; `budget` bounds the work of one question.
   */
  const quiet = (e: Node, env: Env, depth: number, budget: { left: number }): Quiet => {
    if (--budget.left < 0) return null;
    switch (e.type) {
      case "Literal":
        return typeof e.value === "string"
          ? "string"
          : typeof e.value === "number"
            ? "number"
            : typeof e.value === "boolean"
              ? "boolean"
              : null;
      case "TemplateLiteral":
        // A primitive other than a symbol converts to a string without running anything.
        return e.expressions.every((x) => quiet(x as Node, env, depth, budget) !== null) ? "string" : null;
      case "Identifier": {
        const v = resolved.get(e);
        const held = v ? env.get(v) : undefined;
        if (held !== undefined) return typeof held === "object" ? null : held;
        return v && constantsReady && moduleString(v) ? "string" : null;
      }
      case "UnaryExpression":
        if (e.operator === "!") return quiet(e.argument, env, depth, budget) !== null ? "boolean" : null;
        return e.operator === "-" && e.argument.type === "Literal" && typeof e.argument.value === "number" ? "number" : null;
      case "BinaryExpression":
        // Comparing primitives converts them without running anything.
        return /^([!=]==?|[<>]=?)$/.test(e.operator) &&
          quiet(e.left, env, depth, budget) !== null &&
          quiet(e.right, env, depth, budget) !== null
          ? "boolean"
          : null;
      case "ConditionalExpression": {
        if (quiet(e.test, env, depth, budget) === null) return null;
        const [a, b] = [quiet(e.consequent, env, depth, budget), quiet(e.alternate, env, depth, budget)];
        return a === null || b === null ? null : a === b ? a : "primitive";
      }
      case "MemberExpression":
        return !e.computed && !e.optional && memberName(e) === "length" && quiet(e.object, env, depth, budget) === "string"
          ? "number"
          : null;
      case "CallExpression": {
        if (e.optional || (e.arguments as Node[]).some((a) => a.type === "SpreadElement")) return null;
        const args = e.arguments as Node[];
        const callee = e.callee as Node;
        if (callee.type === "MemberExpression") {
          const method = callee.computed || callee.optional ? undefined : memberName(callee);
          const gives = method === undefined ? undefined : QUIET_STRING_METHODS.get(method);
          if (!gives || quiet(callee.object, env, depth, budget) !== "string") return null;
          if (method !== "replace") return args.every((a) => quiet(a, env, depth, budget) !== null) ? gives : null;
          // A regular expression made in place (no shared lastIndex), and a replacement that is a string or comes from a quiet replacer.
          const [pattern, replacement] = args;
          if (args.length !== 2 || (!(pattern!.type === "Literal" && pattern.regex) && quiet(pattern!, env, depth, budget) === null))
            return null;
          if (quiet(replacement!, env, depth, budget) !== null) return gives;
          const replacer = closureOf(replacement!, env);
          return replacer && quietCall(replacer.fn, ["string"], replacer.env, depth + 1, budget) === "string" ? gives : null;
        }
        const held = callee.type === "Identifier" ? closureOf(callee, env) : null;
        if (!held) return null;
        const values: (Quiet | Closure)[] = [];
        for (const a of args) {
          const k = quiet(a, env, depth, budget);
          const c = k === null ? closureOf(a, env) : null;
          if (k === null && !c) return null;
          values.push(k ?? c);
        }
        return quietCall(held.fn, values, held.env, depth + 1, budget);
      }
      default:
        return null;
    }
  };
  /**
   * A replacer that does nothing and gives a string (which the replacement's conversion takes as it is): a function
   * of the module's (or written in place) whose call with the matched text quietly gives a string. Its later
   * parameters hold nothing known: one could be the object of named groups, whose conversion calls its methods.
   * It may read the module's string constants only where the statement runs after the module's body has.
   */
  const quietReplacer = (a: Node, statement: Node): boolean => {
    if (writesPrototype) return false;
    const v = a.type === "Identifier" ? resolved.get(a) : undefined;
    const fn = isFunction(a) ? a : v && (v.defs[0]?.type === "FunctionName" || initialised(v, statement)) ? boundFunction(v, heads) : null;
    if (!fn) return false;
    // Elsewhere a module constant read by the replacer could be in its temporal dead zone: none is known.
    constantsReady = afterInit(statement);
    return quietCall(fn, ["string"], new Map(), 1, { left: QUIET_BUDGET }) === "string";
  };
  return quietReplacer;
}
