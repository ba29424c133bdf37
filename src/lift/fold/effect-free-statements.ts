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
import { memberName, someNode, type Node } from "../../ast/pattern.js";
import { isPure } from "./pure.js";
import { listOf } from "./statement-lists.js";
import { defineFold, loopHeadsOf, rewriteUp, variablesOf, type Fold } from "./tree.js";
import type { EmptyStateArguments } from "./empty-state-calls.js";
import { adapterFacts } from "./adapter-facts.js";
import { surelyKinds } from "./surely-kinds.js";
import { quietReplacers } from "./quiet-replacers.js";
import { fromEstree } from "../../ast/estree-bridge.js";

export { adapterKinds, type Shape } from "./adapter-facts.js";

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
        for (const r of v.references) resolved.set(fromEstree(r.identifier), v);
        for (const d of v.defs) declared.set(fromEstree(d.name), v);
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
      const bindings = { root, heads, resolved, declared, parents };
      const { holds, initialised } = surelyKinds(bindings, known, queryHolders);
      const quietReplacer = quietReplacers(bindings, writesPrototype, initialised);
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
