/**
 * A function named by what it returns or does: returning its argument → identity, nothing → noop,
 * `[...new Set(xs)]` → unique, an object `{ data, … }` → buildData, a test → isX/hasX, a named value →
 * getX; a class by its first method.
 */
import type { ClassDeclaration, ClassExpression, Identifier, Literal, MethodDefinition } from "acorn";
import { returnedValues, type FunctionNode, type Node, memberName } from "../../ast/pattern.js";
import type { Binding, NameContext } from "./context.js";
import { isFunction } from "./context.js";
import type { Rule } from "./rule.js";
import { predicateName } from "./predicate.js";
import { baseOf } from "./producing-call.js";
import { keyWord } from "./key-word.js";
import { cap, join } from "./words.js";

export const functionPurpose: Rule = (b, ctx) => {
  if (b.kind === "class") return className(b.init);
  const fn = b.kind === "function" || (b.kind === "variable" && !b.iterates) ? b.init : null;
  if (!isFunction(fn)) return null;
  return purpose(fn, b, ctx);
};

function purpose(fn: FunctionNode, b: Binding, ctx: NameContext): string | null {
  const results = returnedValues(fn);
  const values = results.filter((r): r is Node => r !== null && !isUndefined(r));
  if (values.length === 0) return fn.body.type === "BlockStatement" && fn.body.body.length > 1 ? "run" : "noop";
  const first = values[0]!;
  if (values.every((v) => v.type === "Literal" && typeof v.value === "boolean" && v.value === (first as Literal).value))
    return (first as Literal).value ? "alwaysTrue" : "alwaysFalse";
  if (values.length === 1 && first.type === "Literal" && first.value === null) return "alwaysNull";
  if (values.length === 1 && first.type === "ArrayExpression" && first.elements.length === 0) return "alwaysEmpty";
  if (
    values.length === 1 &&
    first.type === "Identifier" &&
    fn.params.length === 1 &&
    fn.params[0]?.type === "Identifier" &&
    fn.params[0].name === first.name
  )
    return "identity";
  if (first.type === "FunctionExpression" || first.type === "ArrowFunctionExpression") return "makeHandler";
  const keys =
    first.type === "ObjectExpression"
      ? first.properties.map((p: Node) => (p.type === "Property" && !p.computed ? keyWord(p.key) : null)).filter(Boolean)
      : [];
  if (keys.length) return join("build", keys[0]);
  if (first.type === "TemplateLiteral") return "formatText";
  const test = predicateName(first, ctx);
  if (test && values.every((v) => isBooleanish(v)))
    return /^(is|has|any|all|not|no|matches|starts|ends)/.test(test) ? test : join("is", test);
  const noun = baseOf(first, ctx);
  if (noun && noun.length <= 28 && noun !== "length") return /^(is|has)[A-Z]/.test(noun) ? noun : join("get", noun);
  return calledMethod(fn) ?? (b.topLevel ? null : null);
}

function className(node: Node | null): string | null {
  const method = (node as ClassDeclaration | ClassExpression | null)?.body?.body?.find(
    (m: Node): m is MethodDefinition => m.type === "MethodDefinition" && m.kind === "method" && !m.computed && m.key.type === "Identifier",
  );
  return method ? `${cap((method.key as Identifier).name)}Holder` : null;
}

const isUndefined = (n: Node) =>
  (n.type === "UnaryExpression" && n.operator === "void") || (n.type === "Identifier" && n.name === "undefined");

function isBooleanish(n: Node): boolean {
  if (n.type === "Literal") return typeof n.value === "boolean";
  if (n.type === "UnaryExpression") return n.operator === "!";
  if (n.type === "BinaryExpression") return /^(===|!==|==|!=|<|<=|>|>=|in|instanceof)$/.test(n.operator);
  if (n.type === "LogicalExpression") return n.operator !== "??" && isBooleanish(n.left) && isBooleanish(n.right);
  if (n.type === "CallExpression")
    return (
      n.callee.type === "MemberExpression" &&
      /^(some|every|includes|has|test|startsWith|endsWith|isArray)$/.test((n.callee.property as Identifier)?.name)
    );
  return false;
}

/** The method a one-statement function calls (`return x.settling(y)` → settling). */
function calledMethod(fn: FunctionNode): string | null {
  const body = fn.body.type === "BlockStatement" ? (fn.body.body.length === 1 ? fn.body.body[0] : null) : fn.body;
  let e = body?.type === "ReturnStatement" ? body.argument : body?.type === "ExpressionStatement" ? body.expression : body;
  while (e && (e.type === "ChainExpression" || e.type === "AwaitExpression")) e = e.type === "ChainExpression" ? e.expression : e.argument;
  const method = e?.type === "CallExpression" && e.callee.type === "MemberExpression" ? memberName(e.callee) : undefined;
  return method !== undefined && method.length > 2 ? method : null;
}
