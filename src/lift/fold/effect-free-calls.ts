/**
 * A call, as a statement, of a local function that does nothing a caller could see, with arguments that
 * do nothing either: dropped (and unusedFunctions then drops the function once nothing calls it).
 *
 *   let entry = { accepted: false };             let entry = { accepted: false };
 *   let callback = async (result) => {       →   let callback = async (result) => {
 *     getAccepted();                                return result;
 *     return result;                              };
 *   };
 *   function getAccepted() { return entry.accepted; }
 *
 * A port that cuts a host effect leaves this shape: the function kept only the read of a value that its
 * callers, once cut too, no longer use. The function is one the binding holds for good, neither a generator
 * nor taking defaults or patterns; its body is return statements, expression statements and ifs of pure
 * expressions only (pure.ts). Besides those, a read of a property of a plain object is pure here: an
 * object literal without accessors or `__proto__`, bound once and never written, whose binding is only
 * ever the object of a `.name` access and never the receiver of a call, so no code could give it a getter
 * or make it anything else. The call must be of the function's name, not optional, with pure arguments and
 * no spread; `await f();` stays (it waits a turn).
 */
import type { Variable } from "eslint-scope";
import type { BlockStatement, ObjectExpression } from "acorn";
import type { FunctionNode, Node } from "../../ast/pattern.js";
import { isPure, type Known } from "./pure.js";
import { boundFunction, defineFold, laterWrites, loopHeadsOf, rewriteUp, singleDeclarator, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** An object literal of plain data properties: no getter or setter, and no `__proto__` to set its prototype. */
const isPlainLiteral = (o: ObjectExpression): boolean =>
  o.properties.every(
    (p) =>
      p.type === "SpreadElement" ||
      (p.kind === "init" &&
        !p.computed &&
        !(p.key.type === "Identifier" && p.key.name === "__proto__") &&
        !(p.key.type === "Literal" && p.key.value === "__proto__")),
  );

/** Whether evaluating the statements has no effect and cannot throw, given what `known` knows. */
function quietStatements(statements: Node[], known: Known): boolean {
  return statements.every((s) => {
    switch (s.type) {
      case "EmptyStatement":
        return true;
      case "ReturnStatement":
        return isPure(s.argument, known);
      case "ExpressionStatement":
        return isPure(s.expression, known);
      case "BlockStatement":
        return quietStatements(s.body, known);
      case "IfStatement":
        return isPure(s.test, known) && quietStatements([s.consequent, ...(s.alternate ? [s.alternate] : [])], known);
      default:
        return false;
    }
  });
}

/** Whether calling `fn` directly has no effect and cannot throw (nor reject, when async). */
function quietFunction(fn: FunctionNode, known: Known): boolean {
  if (fn.generator || !fn.params.every((p: Node) => p.type === "Identifier")) return false;
  return fn.expression ? isPure(fn.body, known) : quietStatements((fn.body as BlockStatement).body, known);
}

export const effectFreeCalls = defineFold({
  scope: true,
  after: ["freshObjectReads"],
  run: (root) => {
    const heads = loopHeadsOf(root);
    const variables = variablesOf(root);
    const parents = new Map<Node, { parent: Node; key: string }>();
    rewriteUp(root, (n, parent, key) => {
      parents.set(n, { parent, key });
      return n;
    });
    // The references of plain-object bindings, each the object of a `.name` read or write.
    const plainObjects = new Set<Node>();
    const resolved = new Map<Node, Variable>();
    for (const v of variables) {
      for (const r of v.references) resolved.set(fromEstree(r.identifier), v);
      const decl = singleDeclarator(v, heads);
      if (decl?.init?.type !== "ObjectExpression" || !isPlainLiteral(decl.init) || laterWrites(v).length > 0) continue;
      if ((fromEstree(v.defs[0]!.parent) as { kind?: string }).kind === "var") continue;
      const uses = v.references.filter((r) => !r.init).map((r) => fromEstree(r.identifier));
      const onlyRead = uses.every((id) => {
        const at = parents.get(id);
        if (at?.key !== "object" || at.parent.type !== "MemberExpression" || at.parent.computed) return false;
        const outer = parents.get(at.parent);
        return !(outer?.key === "callee" && (outer.parent.type === "CallExpression" || outer.parent.type === "NewExpression"));
      });
      if (onlyRead) uses.forEach((id) => plainObjects.add(id));
    }
    const known: Known = { read: (m) => !m.computed && plainObjects.has(m.object) };
    const quiet = new Set<Variable>();
    for (const v of variables) {
      const fn = boundFunction(v, heads);
      if (fn && quietFunction(fn, known)) quiet.add(v);
    }
    if (quiet.size === 0) return 0;
    let count = 0;
    rewriteUp(root, (n) => {
      if (n.type !== "ExpressionStatement" || n.expression.type !== "CallExpression") return n;
      const call = n.expression;
      if (call.optional || call.callee.type !== "Identifier") return n;
      const v = resolved.get(call.callee);
      if (!v || !quiet.has(v)) return n;
      if (!call.arguments.every((a: Node) => a.type !== "SpreadElement" && isPure(a, known))) return n;
      count++;
      return null;
    });
    return count;
  },
});
