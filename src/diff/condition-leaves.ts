/** The conditions of the changed code whose outcomes coverage.ts probes: which tests count, and which operands are new. */
import { parse } from "acorn";
import { walk } from "estree-walker";
import type { Node } from "../ast/pattern.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

export function isFunctionNode(n: Node): boolean {
  return n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";
}

export interface Leaf {
  /** `??`'s left: set or null rather than true or false. */
  nullish: boolean;
  /** For a new operand of an `&&`/`||`: the operator and the operands after it. */
  decides?: { op: "&&" | "||"; rest: Node[] };
}

/** Array methods whose callback's return is a test. */
const PREDICATES = new Set(["some", "every", "find", "findIndex", "findLast", "findLastIndex", "filter"]);

/**
 * Whether the node at the end of `path` (reached by `key` from its parent) is a condition whose outcome counts: an
 * operand of `&&`, `||` or `??` that is not itself one (the last operand only where the chain's value is a test,
 * not a value passed on), an `if`'s or `?:`'s test, a predicate callback's return (`.some`, `.filter`, …); never
 * a constant. Null when not.
 */
export function conditionLeaf(text: string, path: readonly Node[], key: string, otherOperands: ReadonlySet<string> | null): Leaf | null {
  const n = path[path.length - 1]!;
  const parent = path[path.length - 2];
  if (!parent || isChain(n) || constantTruth(n)) return null;
  if (parent.type === "LogicalExpression") {
    let r = path.length - 2;
    while (r > 0 && path[r - 1]!.type === "LogicalExpression" && (path[r - 1] as Node & { operator: string }).operator === parent.operator)
      r--;
    const ops = operands(path[r]!, parent.operator);
    const at = ops.indexOf(n);
    if (at < 0) return null;
    const last = at === ops.length - 1;
    if (parent.operator === "??") return last ? null : { nullish: true };
    if (last && !isTest(path, r)) return null;
    const op = parent.operator;
    const norm = (x: Node) => text.slice(x.start, x.end).replace(/\s+/g, "");
    const isNew =
      otherOperands !== null && ops.length > 1 && !otherOperands.has(norm(n)) && ops.every((o) => o === n || otherOperands.has(norm(o)));
    return isNew ? { nullish: false, decides: { op, rest: ops.slice(at + 1) } } : { nullish: false };
  }
  if ((parent.type === "IfStatement" || parent.type === "ConditionalExpression") && key === "test") return { nullish: false };
  if (
    parent.type === "ArrowFunctionExpression" &&
    key === "body" &&
    n.type !== "BlockStatement" &&
    isPredicate(parent, path[path.length - 3])
  )
    return { nullish: false };
  if (parent.type === "ReturnStatement" && key === "argument") {
    const f = path.findLastIndex((x) => isFunctionNode(x));
    if (f > 0 && isPredicate(path[f]!, path[f - 1])) return { nullish: false };
  }
  return null;
}

function isChain(n: Node): boolean {
  return n.type === "LogicalExpression";
}

/** A literal, or an object, array, function or class made on the spot: true or false whatever happens. */
function constantTruth(n: Node): boolean {
  return (
    n.type === "Literal" ||
    n.type === "ObjectExpression" ||
    n.type === "ArrayExpression" ||
    isFunctionNode(n) ||
    n.type === "ClassExpression" ||
    (n.type === "TemplateLiteral" && n.expressions.length === 0)
  );
}

/** Whether the chain at path[r] is used as a test (not as a value): under `!`, an `if`, `?:` or loop test, another
 *  chain used so, or as what a predicate callback returns. */
function isTest(path: readonly Node[], r: number): boolean {
  const child = path[r]!;
  const parent = path[r - 1];
  if (!parent) return false;
  switch (parent.type) {
    case "LogicalExpression":
      return isTest(path, r - 1);
    case "UnaryExpression":
      return parent.operator === "!";
    case "IfStatement":
    case "ConditionalExpression":
    case "WhileStatement":
    case "DoWhileStatement":
    case "ForStatement":
      return (parent as Node & { test?: Node }).test === child;
    case "ArrowFunctionExpression":
      return parent.body === child && isPredicate(parent, path[r - 2]);
    case "ReturnStatement": {
      const f = path.slice(0, r).findLastIndex((x) => isFunctionNode(x));
      return f > 0 && isPredicate(path[f]!, path[f - 1]);
    }
    default:
      return false;
  }
}

/** Whether `fn` is the callback of a predicate method call (`xs.some(fn)`). */
function isPredicate(fn: Node, call: Node | undefined): boolean {
  return (
    call?.type === "CallExpression" &&
    call.arguments[0] === fn &&
    call.callee.type === "MemberExpression" &&
    !call.callee.computed &&
    call.callee.property.type === "Identifier" &&
    PREDICATES.has(call.callee.property.name)
  );
}

/** The operands of a chain of one operator (`a || b || c`: a, b, c). */
function operands(e: Node, op: string): Node[] {
  return e.type === "LogicalExpression" && e.operator === op ? [...operands(e.left, op), ...operands(e.right, op)] : [e];
}

/** The texts (without spaces) of every `&&`/`||` operand in a module, to tell a new operand from an old one. */
export function operandTexts(text: string): Set<string> {
  const out = new Set<string>();
  let ast: Node;
  try {
    ast = parse(text, { ecmaVersion: "latest", sourceType: "module" });
  } catch {
    return out;
  }
  walk(toEstree(ast), {
    enter(raw) {
      const n = fromEstree(raw);
      if (n.type === "LogicalExpression" && n.operator !== "??")
        for (const o of operands(n, n.operator)) out.add(text.slice(o.start, o.end).replace(/\s+/g, ""));
    },
  });
  return out;
}
