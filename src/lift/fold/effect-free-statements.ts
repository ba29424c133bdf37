/**
 * A statement whose value is thrown away and whose evaluation has no effect, dropped where the folds can
 * prove so: a comparison of primitives, and reads of `.length` of a value that is surely an array (an
 * array's length is its own data property, so the read runs no getter and cannot throw).
 *
 *   let matches = await searchByKeywords(query, tools);   →   let matches = await searchByKeywords(query, tools);
 *   matches.length === 0;                                     if (matches.length === 0) return [];
 *   if (matches.length === 0) return [];
 *   async function searchByKeywords(query, tools) {
 *     if (query === "") return [];
 *     return tools.filter((tool) => tool.name.includes(query)).map((tool) => tool.name);
 *   }
 *
 * A port that cuts a host call leaves this shape: `if (matches.length === 0) refresh();` loses its body and
 * keeps its test, which a getter on `matches` would make an effect. The value is an array when it is made by
 * the code itself: an array literal; an awaited `Promise.all(…)`; `.map`, `.filter`, `.slice`, `.concat`, `.flat`, `.flatMap`, `.splice`,
 * `.sort`, `.reverse` or `.fill` of an array; a `let` or `const` declared once and never written whose value
 * is one; what a local function returns when its body ends in a return and every return gives one (awaited,
 * when the function is async), its parameters bound to what that call passes; or a part of call()'s context
 * that the adapter fills with its own list of tools (`tools: allTools`, also inside an object literal of the
 * adapter's, `options: { tools: allTools }`), where the adapter alone calls call() and call() destructures it
 * first thing: in its parameters, without defaults, or in its first statement. Parts the adapter sets to `undefined` are known to be undefined, so
 * `refreshTools?.() ?? tools` is the adapter's list. The read must come after the binding's declaration in the
 * same statement list (or be of a parameter), so it is never in its temporal dead zone. This takes the
 * built-ins as the language defines them, as every fold does, and gives up on a module that writes a
 * `constructor` property (which would change what an array's `.map` makes).
 *
 * Strings too: the length of a surely-string value, and a string method that only makes a new value, called on
 * one with arguments it surely takes (`discardedStringCall`), as a cut redial left in call() from 2.1.327:
 *
 *   let query = capQuery(input.query);                         →   let query = capQuery(input.query);
 *   query.replace(/mcp__[a-z0-9._-]+/gi, identity);
 *
 * A replacer is quiet when its call with the match quietly gives a string: its body only declares and returns, over
 * the match, literals, templates, the module's string constants, a string's methods that give a primitive,
 * comparisons and `?:`, and calls of functions of the module (or passed as arguments) that are quiet in turn, six
 * calls deep at most — 2.1.323–2.1.326's `toInternalMcpName`, `mapMcpServerName(name, identity)`. It may read a
 * module constant only where the statement runs after the module's body has (in call(), say).
 *
 * A value is surely a string when it is a string or template literal, a `+` with a string on one side, a join
 * of an array, `String(…)`, a string's method that gives one (slice, trim, toLowerCase, replace, …), a binding
 * or a local function's return as above, or the input's `query` in call(). That last is the one precondition
 * this fold relies on: the adapter makes call()'s input as `{ query }` from the contract's query, which the
 * contract (docs/scorer-module-contract.md) types as a string; no code of the module checks it. It holds only
 * while call() reads the input's keys and never writes it or hands it on, and gives up on a module that writes
 * into a prototype (`String.prototype.replace = …`).
 */
import type { Variable } from "eslint-scope";
import { parse, type BlockStatement, type Expression } from "acorn";
import { isFunction, memberName, returnedValues, someNode, type FunctionNode, type Node } from "../../ast/pattern.js";
import { isPure } from "./pure.js";
import { listOf } from "./statement-lists.js";
import { boundFunction, defineFold, laterWrites, loopHeadsOf, rewriteUp, singleDeclarator, variablesOf, type Fold } from "./tree.js";
import type { EmptyStateArguments } from "./empty-state-calls.js";

/** What evaluating an expression surely gives, if it gives anything (a throw gives nothing). */
type Kind = "array" | "string" | "undefined" | null;

/** Methods of an array that give an array: a new one (of the receiver's species, Array for an array the code made), or the receiver. */
const ARRAY_METHODS = new Set(["map", "filter", "slice", "concat", "flat", "flatMap", "splice", "sort", "reverse", "fill"]);

/** Methods of a string that give a string. */
const STRING_METHODS = new Set([
  "slice",
  "substring",
  "substr",
  "trim",
  "trimStart",
  "trimEnd",
  "toLowerCase",
  "toUpperCase",
  "toLocaleLowerCase",
  "toLocaleUpperCase",
  "replace",
  "replaceAll",
  "padStart",
  "padEnd",
  "repeat",
  "concat",
  "charAt",
  "normalize",
]);

/**
 * Methods of a string whose call, its value thrown away, does nothing with primitive arguments: each makes a new
 * value and can throw only on an argument it cannot take, which `argumentsTaken` rules out. Those marked true
 * also take a regular expression literal made in place (`includes` and its kin throw on one).
 */
const DISCARDABLE_STRING_METHODS = new Map<string, boolean>([
  ...["replace", "replaceAll", "split", "search", "match"].map((m) => [m, true] as const),
  ...["slice", "substring", "substr", "trim", "trimStart", "trimEnd", "toLowerCase", "toUpperCase", "charAt"].map(
    (m) => [m, false] as const,
  ),
  ...["charCodeAt", "codePointAt", "indexOf", "lastIndexOf", "includes", "startsWith", "endsWith", "at", "concat"].map(
    (m) => [m, false] as const,
  ),
]);

const NUMERIC = new Set(["-", "*", "/", "%", "**", "|", "&", "^", "<<", ">>", ">>>"]);

/** Whether a member's key is surely no word such as `constructor`: a name other than it, a number, or arithmetic. */
function keyNotConstructor(m: Node & { type: "MemberExpression" }): boolean {
  if (!m.computed) return memberName(m) !== "constructor";
  const key = m.property as Node;
  if (key.type === "Literal") return typeof key.value === "number";
  if (key.type === "BinaryExpression") return NUMERIC.has(key.operator);
  return key.type === "UpdateExpression" || (key.type === "UnaryExpression" && ["-", "+", "~"].includes(key.operator));
}

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

/** Calls and bindings followed before giving up (the query of call() in 2.1.332 takes nine: capQuery, capQueryWords, truncateText, …). */
const MAX_DEPTH = 12;

/** What the adapter's object literal holds under each key: a known kind, or the shape of an object literal written there. */
export type Shape = Map<string, Kind | Shape>;

/**
 * For each argument of call() after the input, the keys the adapter fills with its list of tools, those it sets to
 * undefined, and the object literals it writes (`{ options: { tools: allTools, refreshTools: undefined } }`).
 */
export function adapterKinds(source: string): Shape[] {
  const list = parse(`[${source}]`, { ecmaVersion: "latest" }) as unknown as { body: [{ expression: { elements: Expression[] } }] };
  const shapeOf = (e: Expression): Shape => {
    const shape: Shape = new Map();
    if (e.type !== "ObjectExpression") return shape;
    for (const p of e.properties) {
      if (p.type !== "Property" || p.computed || p.kind !== "init") continue;
      const key = p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
      if (key === null) continue;
      if (p.value.type === "ObjectExpression") shape.set(key, shapeOf(p.value));
      if (p.value.type !== "Identifier") continue;
      if (p.value.name === "allTools") shape.set(key, "array");
      if (p.value.name === "undefined") shape.set(key, "undefined");
    }
    return shape;
  };
  return list.body[0].expression.elements.map(shapeOf);
}

export function effectFreeStatements(at: EmptyStateArguments | null = null): Fold {
  return defineFold({
    scope: true,
    run: (root) => {
      // An array given an own constructor would make its .map something else: the module is left alone.
      const writesConstructor = someNode(
        root,
        (n) =>
          (n.type === "AssignmentExpression" && n.left.type === "MemberExpression" && !keyNotConstructor(n.left)) ||
          (n.type === "Identifier" && /^(defineProperty|defineProperties|setPrototypeOf|species)$/.test(n.name)),
      );
      if (writesConstructor) return 0;
      const heads = loopHeadsOf(root);
      const variables = variablesOf(root);
      const resolved = new Map<Node, Variable>();
      const declared = new Map<Node, Variable>();
      for (const v of variables) {
        for (const r of v.references) resolved.set(r.identifier as unknown as Node, v);
        for (const d of v.defs) declared.set(d.name as unknown as Node, v);
      }
      const parents = new Map<Node, Node>();
      rewriteUp(root, (n, parent) => {
        parents.set(n, parent);
        return n;
      });
      const { facts: known, queryHolders } = adapterFacts(root, at, declared, resolved, parents);
      // A module that writes into a prototype (String.prototype.replace = …) could make a string's method anything.
      const writesPrototype = someNode(
        root,
        (n) =>
          n.type === "AssignmentExpression" &&
          n.left.type === "MemberExpression" &&
          someNode(n.left, (m) => m.type === "MemberExpression" && memberName(m) === "prototype"),
      );

      /** The kind of `e`, with `bound` giving the kinds of the parameters of the calls being followed. */
      const kindOf = (e: Node | null | undefined, bound: Map<Variable, Kind>, depth: number): Kind => {
        if (!e || depth > MAX_DEPTH) return null;
        switch (e.type) {
          case "ArrayExpression":
            return "array";
          case "Literal":
            return typeof e.value === "string" ? "string" : null;
          case "TemplateLiteral":
            return "string";
          case "BinaryExpression":
            // With a string on either side, `+` concatenates (or throws converting the other side).
            return e.operator === "+" && (kindOf(e.left, bound, depth) === "string" || kindOf(e.right, bound, depth) === "string")
              ? "string"
              : null;
          case "MemberExpression":
            // The adapter's input is `{ query }`, the contract's query: a string by the contract.
            return e.object.type === "Identifier" && queryHolders.has(resolved.get(e.object)!) && memberName(e) === "query"
              ? "string"
              : null;
          case "Identifier": {
            const v = resolved.get(e);
            if (!v) return e.name === "undefined" ? "undefined" : null;
            if (bound.has(v)) return bound.get(v)!;
            if (known.has(v)) return known.get(v)!;
            const decl = singleDeclarator(v, heads);
            if (!decl || laterWrites(v).length > 0 || (v.defs[0]!.parent as unknown as { kind: string }).kind === "var") return null;
            return kindOf(decl.init, bound, depth + 1);
          }
          case "UnaryExpression":
            return e.operator === "void" && isPure(e.argument) ? "undefined" : null;
          case "AwaitExpression":
            // Promise.all settles with a new array of the values (or rejects, and the await throws).
            if (promiseAll(e.argument)) return "array";
            // Neither an array nor undefined is a thenable: the await gives it back.
            return kindOf(e.argument, bound, depth);
          case "ChainExpression":
            return kindOf(e.expression, bound, depth);
          case "LogicalExpression": {
            const left = kindOf(e.left, bound, depth);
            if (left === null) return null;
            // An array is truthy and not nullish; undefined is falsy and nullish; a string is not nullish, and
            // truthy unless empty, so `||` and `&&` of one give a string only when the other side is one too.
            if (left === "string" && e.operator !== "??") return kindOf(e.right, bound, depth) === "string" ? "string" : null;
            const takesLeft = e.operator === "&&" ? left === "undefined" : left !== "undefined";
            return takesLeft ? left : kindOf(e.right, bound, depth);
          }
          case "ConditionalExpression": {
            const test = kindOf(e.test, bound, depth);
            if (test === "array" || test === "undefined") return kindOf(test === "array" ? e.consequent : e.alternate, bound, depth);
            const [a, b] = [kindOf(e.consequent, bound, depth), kindOf(e.alternate, bound, depth)];
            return a === b ? a : null;
          }
          case "CallExpression": {
            const callee = e.callee;
            // The kind of what is called: a receiver's for an array method, the binding's for a function.
            const target = callee.type === "MemberExpression" ? callee.object : callee;
            const optional = e.optional || (callee.type === "MemberExpression" && callee.optional);
            const targetKind = kindOf(target, bound, depth);
            // `undefined?.()` gives undefined; `undefined()` throws, which gives nothing.
            if (targetKind === "undefined") return optional ? "undefined" : null;
            if (callee.type === "MemberExpression") {
              const method = memberName(callee) ?? "";
              if (targetKind === "array") return ARRAY_METHODS.has(method) ? "array" : method === "join" ? "string" : null;
              if (targetKind === "string") return STRING_METHODS.has(method) ? "string" : method === "split" ? "array" : null;
              return null;
            }
            // String(x) of the global String converts x to a string (or throws).
            if (callee.type === "Identifier" && callee.name === "String" && !resolved.has(callee)) return "string";
            const v = callee.type === "Identifier" ? resolved.get(callee) : undefined;
            const fn = v ? boundFunction(v, heads) : null;
            if (!fn || fn.generator) return null;
            // An async function's call gives a promise: only `await f()` gives what it returns.
            if (fn.async && parents.get(e)?.type !== "AwaitExpression") return null;
            return returnKind(fn, e.arguments, bound, depth + 1);
          }
          default:
            return null;
        }
      };
      /** `Promise.all(…)` or `Promise.allSettled(…)` of the global Promise. */
      const promiseAll = (e: Node): boolean =>
        e.type === "CallExpression" &&
        e.callee.type === "MemberExpression" &&
        !e.callee.computed &&
        /^(all|allSettled)$/.test(memberName(e.callee) ?? "") &&
        e.callee.object.type === "Identifier" &&
        e.callee.object.name === "Promise" &&
        !resolved.has(e.callee.object);
      /** What a call of `fn` with `args` returns, when every way out of its body returns the same kind. */
      const returnKind = (fn: FunctionNode, args: Node[], bound: Map<Variable, Kind>, depth: number): Kind => {
        if (fn.body.type === "BlockStatement" && fn.body.body.at(-1)?.type !== "ReturnStatement") return null;
        const inner = new Map(bound);
        fn.params.forEach((p: Node, i: number) => {
          const v = p.type === "Identifier" ? declared.get(p) : undefined;
          if (!v || laterWrites(v).length > 0) return;
          const spread = args.slice(0, i + 1).some((a) => a.type === "SpreadElement");
          inner.set(v, spread || !args[i] ? null : kindOf(args[i], bound, depth));
        });
        const kinds = returnedValues(fn).map((r) => (r ? kindOf(r, inner, depth) : "undefined"));
        return kinds.length > 0 && kinds.every((k) => k === kinds[0]) ? kinds[0]! : null;
      };

      /** Whether the binding `v` read in `statement` is surely initialised there (a parameter, or declared earlier in the same list). */
      const initialised = (v: Variable, statement: Node): boolean => {
        const def = v.defs[0];
        if (!def || v.defs.length !== 1) return false;
        if (def.type === "Parameter") return true;
        const list = listOf(parents.get(statement)!);
        const declaration = def.parent as unknown as Node;
        return !!list && list.indexOf(declaration) >= 0 && list.indexOf(declaration) < list.indexOf(statement);
      };
      /** Whether the identifier `id`, read in `statement`, is surely initialised there and holds a value of `kind`. */
      const holds = (id: Node, statement: Node, kind: Kind): boolean => {
        const v = id.type === "Identifier" ? resolved.get(id) : undefined;
        return !!v && initialised(v, statement) && kindOf(id, new Map(), 0) === kind;
      };
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
        return !!v && laterWrites(v).length === 0 && v.references.every((r) => within(r.identifier as unknown as Node, uses));
      };
      /** A `let` or `const` of the module's body bound once to a string literal and never written. */
      const moduleString = (v: Variable): boolean => {
        const decl = singleDeclarator(v, heads);
        const declaration = v.defs[0]?.parent as unknown as (Node & { kind: string }) | undefined;
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
        const fn = isFunction(a)
          ? a
          : v && (v.defs[0]?.type === "FunctionName" || initialised(v, statement))
            ? boundFunction(v, heads)
            : null;
        if (!fn) return false;
        // Elsewhere a module constant read by the replacer could be in its temporal dead zone: none is known.
        constantsReady = afterInit(statement);
        return quietCall(fn, ["string"], new Map(), 1, { left: QUIET_BUDGET }) === "string";
      };
      /**
       * `s.replace(/re/g, identity);` and the like: a string method that makes a new value, called on a string with
       * arguments it surely takes — literals other than a bigint, a string binding, a regular expression literal where
       * the method takes one (made in place, so no lastIndex of a shared one changes), and a quiet replacer.
       */
      const discardedStringCall = (e: Node, statement: Node): boolean => {
        if (writesPrototype || e.type !== "CallExpression" || e.optional || e.callee.type !== "MemberExpression") return false;
        const callee = e.callee;
        const method = memberName(callee);
        const takesRegex = method === undefined || callee.optional ? undefined : DISCARDABLE_STRING_METHODS.get(method);
        if (takesRegex === undefined || !holds(callee.object, statement, "string")) return false;
        return (e.arguments as Node[]).every((a, i) => {
          if (a.type === "Literal") {
            if ("bigint" in a && a.bigint !== undefined) return false;
            // replaceAll throws on a regular expression without the g flag.
            if (a.regex) return takesRegex && i === 0 && (method !== "replaceAll" || a.regex.flags.includes("g"));
            return true;
          }
          if (a.type === "UnaryExpression" && a.operator === "-")
            return a.argument.type === "Literal" && typeof a.argument.value === "number";
          if (a.type === "Identifier" && a.name === "undefined" && !resolved.has(a)) return true;
          if (holds(a, statement, "string")) return true;
          return (method === "replace" || method === "replaceAll") && i === 1 && quietReplacer(a, statement);
        });
      };
      const drop = new Set<Node>();
      rewriteUp(root, (n, parent) => {
        if (n.type !== "ExpressionStatement" || n.directive || !listOf(parent)) return n;
        // An array's or a string's length is its own data property: reading it runs no getter and cannot throw.
        const length = (m: Node & { type: "MemberExpression" }): boolean =>
          !m.computed && !m.optional && memberName(m) === "length" && (holds(m.object, n, "array") || holds(m.object, n, "string"));
        if (isPure(n.expression, { length }) || discardedStringCall(n.expression, n)) drop.add(n);
        return n;
      });
      if (drop.size === 0) return 0;
      rewriteUp(root, (n) => (drop.has(n) ? null : n));
      return drop.size;
    },
  });
}

/**
 * The kinds of the bindings call() destructures from its context, first thing, where the adapter alone calls
 * call() (its one reference is among the names the module hands out, foldDeadCode's `uses`) and never writes
 * them again; and what call() knows of its input, `{ query }` made by the adapter from the contract's query,
 * a string by the contract's types (the one precondition of this fold): the bindings of the input whose `.query`
 * is that string (only read, never written or handed on), and bindings destructured from its `query` key.
 * Empty without the adapter's arguments.
 */
function adapterFacts(
  root: Node,
  at: EmptyStateArguments | null,
  declared: Map<Node, Variable>,
  resolved: Map<Node, Variable>,
  parents: Map<Node, Node>,
): { facts: Map<Variable, Kind>; queryHolders: Set<Variable> } {
  const facts = new Map<Variable, Kind>();
  const queryHolders = new Set<Variable>();
  const none = { facts, queryHolders };
  if (!at?.context) return none;
  const kinds = adapterKinds(at.context);
  const body = (root as { body: { body: Node[] } }).body.body;
  const uses = body.at(-1);
  const fn = body.find((s) => s.type === "FunctionDeclaration" && s.id?.name === at.call) as FunctionNode | undefined;
  if (!fn || uses?.type !== "ReturnStatement" || fn.body.type !== "BlockStatement") return none;
  const own = declared.get(fn.id as Node);
  const inUses = (id: Node) => uses.range![0] < id.range![0] && id.range![1] < uses.range![1];
  if (!own || laterWrites(own).length > 0 || !own.references.every((r) => inUses(r.identifier as unknown as Node))) return none;
  // Until call()'s first statement has run, nothing can have touched the adapter's objects: its parameters are
  // plain names or patterns without defaults, which only read the adapter's own data properties.
  const plain = (p: Node): boolean =>
    p.type === "Identifier" ||
    (p.type === "ObjectPattern" && p.properties.every((q) => q.type === "Property" && !q.computed && plain(q.value as Node)));
  if (!fn.params.every(plain)) return none;
  const collect = (pattern: Node, shape: Shape) => {
    if (pattern.type !== "ObjectPattern") return;
    for (const p of pattern.properties) {
      if (p.type !== "Property" || p.computed) continue;
      const key = p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
      const held = key === null ? undefined : shape.get(key);
      // `{ options: { tools } }`: the pattern reads the object literal the adapter wrote there.
      if (held instanceof Map) collect(p.value, held);
      if (p.value.type !== "Identifier" || !held || held instanceof Map) continue;
      const v = declared.get(p.value);
      if (v && v.defs.length === 1 && laterWrites(v).length === 0) facts.set(v, held);
    }
  };
  const first = fn.body.body[0] as Node | undefined;
  const input = fn.params[0] as Node | undefined;
  const query: Shape = new Map([["query", "string"]]);
  if (input?.type === "ObjectPattern") collect(input, query);
  const holder = input?.type === "Identifier" ? declared.get(input) : undefined;
  if (holder && laterWrites(holder).length === 0) {
    // Each use of the input reads a key of it (input.query, not a call of input.x() with the input as this), or
    // destructures it in a declaration: nothing can write its query.
    const destructured: Node[] = [];
    const onlyRead = holder.references.every((r) => {
      const id = r.identifier as unknown as Node;
      const parent = parents.get(id);
      if (parent?.type === "VariableDeclarator" && parent.init === id && parent.id.type === "ObjectPattern") {
        destructured.push(parent.id);
        return true;
      }
      if (parent?.type !== "MemberExpression" || parent.object !== id || (parent.computed && parent.property.type !== "Literal"))
        return false;
      const user = parents.get(parent);
      if (!user) return false;
      if (user.type === "CallExpression" && user.callee === parent) return false;
      if (user.type === "AssignmentExpression" && user.left === parent) return false;
      if (user.type === "UpdateExpression" || (user.type === "UnaryExpression" && user.operator === "delete")) return false;
      if ((user.type === "ForInStatement" || user.type === "ForOfStatement") && user.left === parent) return false;
      return !/Pattern$|^(Property|RestElement)$/.test(user.type);
    });
    if (onlyRead) {
      queryHolders.add(holder);
      for (const pattern of destructured) collect(pattern, query);
    }
  }
  fn.params.forEach((p: Node, i: number) => {
    const keys = kinds[i - 1];
    if (!keys?.size) return;
    if (p.type === "ObjectPattern") return collect(p, keys);
    const v = p.type === "Identifier" ? declared.get(p) : undefined;
    if (!v || laterWrites(v).length > 0 || first?.type !== "VariableDeclaration") return;
    // `let { tools, refreshTools } = context;` as call()'s first statement.
    for (const d of first.declarations) if (d.init?.type === "Identifier" && resolved.get(d.init) === v) collect(d.id, keys);
  });
  return none;
}
