/**
 * A boolean named by its test: `xs.length > 0` → hasXs, `x === void 0` → noX, `xs.some(…)` → anyX,
 * `set.has(x)` → hasX, `pattern.test(s)` → matchesS, `!x` → notX.
 */
import type { BinaryExpression, MemberExpression } from "acorn";
import { memberName, type Node } from "../../ast/pattern.js";
import type { NameContext } from "./context.js";
import type { Rule } from "./rule.js";
import { baseOf, elementOf } from "./producing-call.js";
import { camelWords, join } from "./words.js";

export const predicate: Rule = (b, ctx) => (b.kind === "variable" && !b.iterates && b.init ? predicateName(b.init, ctx) : null);

export function predicateName(e: Node, ctx: NameContext): string | null {
  switch (e.type) {
    case "UnaryExpression":
      return e.operator === "!" ? joinOr("not", baseOf(e.argument, ctx) ?? predicateName(e.argument, ctx)) : null;
    case "LogicalExpression":
      return e.operator === "??" ? null : (predicateName(e.left, ctx) ?? predicateName(e.right, ctx));
    case "BinaryExpression":
      return compared(e, ctx);
    case "CallExpression": {
      const method = e.callee.type === "MemberExpression" ? memberName(e.callee) : undefined;
      return method !== undefined ? tested(method, (e.callee as MemberExpression).object, e.arguments[0], ctx) : null;
    }
    case "ChainExpression":
      return predicateName(e.expression, ctx);
    default:
      return null;
  }
}

function joinOr(prefix: string, base: string | null): string | null {
  return base ? join(prefix, base) : null;
}

const isNothing = (n: Node) =>
  (n.type === "UnaryExpression" && n.operator === "void") ||
  (n.type === "Identifier" && n.name === "undefined") ||
  (n.type === "Literal" && n.value === null);

function compared(e: BinaryExpression, ctx: NameContext): string | null {
  const op: string = e.operator;
  if (!/^(===|!==|==|!=|<|<=|>|>=)$/.test(op)) return null;
  const [subject, other] = isNothing(e.left) ? [e.right, e.left] : [e.left, e.right];
  const name = baseOf(subject, ctx);
  if (isNothing(other)) return joinOr(op.startsWith("!") ? "has" : "no", name);
  if (subject.type === "MemberExpression" && memberName(subject) === "length") {
    const of = baseOf(subject.object, ctx);
    if (other.type === "Literal" && other.value === 0) return joinOr(op === ">" || op.startsWith("!") ? "has" : "no", of);
    return joinOr(op.startsWith(">") ? "tooMany" : "fits", of);
  }
  if (other.type === "Literal" && typeof other.value === "string") {
    const word = camelWords(other.value);
    return word ? join(op.startsWith("!") ? "not" : "is", word) : null;
  }
  return name && /^[<>]/.test(op) ? join(op.startsWith(">") ? "over" : "under", name) : joinOr("same", name);
}

function tested(method: string, recv: Node, arg: Node | undefined, ctx: NameContext): string | null {
  const of = baseOf(recv, ctx);
  const what = arg ? baseOf(arg, ctx) : null;
  switch (method) {
    case "some":
      return joinOr("any", elementOf(of) ?? of);
    case "every":
      return joinOr("all", of);
    case "includes":
    case "has":
      return joinOr("has", what ?? elementOf(of));
    case "test":
      return joinOr("matches", of?.replace(/Pattern$/, "") || null);
    case "startsWith":
    case "endsWith":
      return joinOr(method, arg?.type === "Literal" && typeof arg.value === "string" ? camelWords(arg.value) : what);
    case "isArray":
      return joinOr("isList", what) ?? "isList";
    default:
      return null;
  }
}
