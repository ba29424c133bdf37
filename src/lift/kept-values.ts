/**
 * Where the value an expression yields ends up: kept (stored, passed, returned, thrown), or only
 * consumed (called, tested, converted to a primitive, used as a key or as the object of a further
 * read). A read by a run-time key whose value is kept must not hand over a shared built-in; one
 * whose value is only consumed cannot, whatever it reads.
 */
import type { Node } from "../ast/pattern.js";
import type { Parents } from "./harmless-keys.js";

/** Functions the lift writes that take a key or an object to read from, and keep neither. */
const KEY_TAKERS = new Set(["propertyKey", "readProperty"]);

/** Whether the value of `e` may be kept: false only where every use of it is proven to consume it. */
export function valueKept(e: Node, parents: Parents): boolean {
  let n = e;
  for (let p = parents.get(n); p; n = p, p = parents.get(p)) {
    switch (p.type) {
      case "ChainExpression":
      case "ParenthesizedExpression":
      case "LogicalExpression":
      case "AwaitExpression":
        continue;
      case "ConditionalExpression":
        if (p.test === n) return false;
        continue;
      case "SequenceExpression":
        if (p.expressions[p.expressions.length - 1] !== n) return false;
        continue;
      case "MemberExpression":
        // The object of a further read (that read is judged on its own), or a key (converted to a string).
        return false;
      case "CallExpression":
      case "NewExpression":
        if (p.callee === n) return false;
        return !(p.callee.type === "Identifier" && KEY_TAKERS.has(p.callee.name));
      case "TaggedTemplateExpression":
        return p.tag !== n;
      case "UnaryExpression":
      case "BinaryExpression":
      case "TemplateLiteral":
      case "ExpressionStatement":
      case "IfStatement":
      case "WhileStatement":
      case "DoWhileStatement":
      case "ForStatement":
      case "SwitchStatement":
      case "SwitchCase":
        return false;
      case "ForInStatement":
      case "ForOfStatement":
        // Iterated over: the keys or elements are kept, not the object (and a shared one has no elements).
        return p.left === n;
      default:
        return true;
    }
  }
  return false;
}

/** Whether a member read sits after an optional link of its chain (or is one): it cannot be moved into a call. */
export function afterOptionalLink(m: Node): boolean {
  for (let e: Node = m; ;) {
    if (e.type === "MemberExpression") {
      if (e.optional) return true;
      e = e.object;
    } else if (e.type === "CallExpression") {
      if (e.optional) return true;
      e = e.callee;
    } else return false;
  }
}
