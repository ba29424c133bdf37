/** Whether coverage.ts may evaluate an expression again to see it decide: reads that change nothing, and the regexes to keep. */
import { walk } from "estree-walker";
import type { Node } from "../ast/pattern.js";
import { isFunctionNode } from "./condition-leaves.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** Methods that read and do not write (on strings, arrays, maps, sets, regexes), and built-in functions alike. */
const PURE_METHODS = new Set([
  "includes",
  "some",
  "every",
  "find",
  "findIndex",
  "filter",
  "map",
  "startsWith",
  "endsWith",
  "indexOf",
  "lastIndexOf",
  "toLowerCase",
  "toUpperCase",
  "trim",
  "has",
  "get",
  "isArray",
  "slice",
  "split",
  "charAt",
  "at",
  "hasOwn",
  "test",
  "exec",
  "search",
]);
const PURE_FUNCTIONS = new Set(["String", "Number", "Boolean"]);

/**
 * Whether evaluating `n` again changes nothing: reads, comparisons and calls of PURE_METHODS, callbacks alike.
 * `.test`/`.exec` move a global regex's lastIndex, which the recorder puts back for receivers outside functions;
 * inside a callback they count as changing state.
 */
export function pureExpression(n: Node | null | undefined, inFunction: boolean): boolean {
  if (!n) return true;
  const pure = (x: unknown) => pureExpression(x as Node, inFunction);
  switch (n.type) {
    case "Identifier":
    case "Literal":
    case "ThisExpression":
      return true;
    case "MemberExpression":
      return pure(n.object) && (!n.computed || pure(n.property));
    case "ChainExpression":
      return pure(n.expression);
    case "TemplateLiteral":
      return n.expressions.every(pure);
    case "BinaryExpression":
    case "LogicalExpression":
      return pure(n.left) && pure(n.right);
    case "UnaryExpression":
      return n.operator !== "delete" && pure(n.argument);
    case "ConditionalExpression":
      return pure(n.test) && pure(n.consequent) && pure(n.alternate);
    case "ArrayExpression":
      return n.elements.every((e) => e === null || (e.type !== "SpreadElement" && pure(e)));
    case "ArrowFunctionExpression":
      return n.params.every((p) => p.type === "Identifier") && n.body.type !== "BlockStatement" && pureExpression(n.body, true);
    case "CallExpression": {
      if (!n.arguments.every((a) => a.type !== "SpreadElement" && pure(a))) return false;
      const c = n.callee as Node;
      if (c.type === "ArrowFunctionExpression") return pure(c);
      if (c.type === "Identifier") return PURE_FUNCTIONS.has(c.name);
      if (c.type !== "MemberExpression" || c.computed || c.property.type !== "Identifier") return false;
      if (!PURE_METHODS.has(c.property.name)) return false;
      if (inFunction && (c.property.name === "test" || c.property.name === "exec")) return false;
      return pure(c.object);
    }
    default:
      return false;
  }
}

/** The receivers of `.test(…)` and `.exec(…)` calls in `n` outside its callbacks: the regexes whose lastIndex to keep. */
export function regexReceivers(n: Node): Node[] {
  const out: Node[] = [];
  walk(toEstree(n), {
    enter(raw) {
      const x = fromEstree(raw);
      if (isFunctionNode(x)) return this.skip();
      if (
        x.type === "CallExpression" &&
        x.callee.type === "MemberExpression" &&
        !x.callee.computed &&
        x.callee.property.type === "Identifier" &&
        (x.callee.property.name === "test" || x.callee.property.name === "exec")
      )
        out.push(x.callee.object);
    },
  });
  return out;
}
