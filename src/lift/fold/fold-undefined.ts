/**
 * Constant folding of locals that are always undefined. Once a port has set a piece of the client's
 * state to "none" (`let session = undefined`), the code that only runs when there is one is dead:
 * its tests become constants here, and the branches they guard go, with the host calls inside them.
 * Only what is certain is folded: a local declared once, never assigned again, and comparisons,
 * logic and conditionals whose outcome follows from `undefined` alone.
 */
import { analyze, type ScopeManager } from "eslint-scope";
import type { CallExpression, Literal, VariableDeclarator } from "acorn";
import { fieldsOf, isNodeList, walk, type FunctionNode, type Node } from "../../ast/pattern.js";
import { transform } from "../../ast/traverse.js";
import { rewriteTree } from "../../ast/rewrite.js";
import { isUndefined, undefinedAt } from "./pure.js";
import { fromEstree } from "../../ast/estree-bridge.js";

const BOOL = (value: boolean, at: Node): Node => ({ type: "Literal", value, raw: String(value), start: at.start, end: at.end });

const isBool = (n: Node): boolean => n.type === "Literal" && typeof n.value === "boolean";
/** A literal or undefined: its truth and its comparison with undefined are known. */
const known = (n: Node): boolean => isUndefined(n) || n.type === "Literal";
const truth = (n: Node): boolean => (isUndefined(n) ? false : !!(n as Literal).value);

/** Fold `fn`'s body in place; returns the names folded away. */
export function foldUndefinedLocals(fn: FunctionNode): string[] {
  const folded: string[] = [];
  fold(fn.body);
  // `for (let x of xs)` declares x without an initializer and writes it on every turn. Folding only
  // replaces expressions and removes statements, so the loop heads found once stay the ones there are.
  let loopHeads: Set<Node> | null = null;
  const isLoopHead = (declaration: Node) => {
    if (!loopHeads) {
      const heads = (loopHeads = new Set<Node>());
      walk(fn, (n) => {
        if ((n.type === "ForInStatement" || n.type === "ForOfStatement") && n.left.type === "VariableDeclaration") heads.add(n.left);
      });
    }
    return loopHeads.has(declaration);
  };
  // Folding only removes reads, writes and calls, so one scope analysis serves a while: a candidate it found
  // stays one while the others are folded, and the locals it lists may be asked again about what the folds
  // made of their initializers (its reads and writes are then a superset of the real ones, which only makes
  // the answer more cautious). A new analysis confirms that nothing is left.
  for (let round = 0; round < 64; round++) {
    const scopes = analyzeFunction(fn);
    let found = candidates(fn, scopes, new Set(folded), isLoopHead);
    if (found.length === 0) break;
    while (found.length > 0) {
      for (const { key, replace } of found) {
        folded.push(key);
        replaceNodes(fn, replace);
        fold(fn.body);
      }
      found = candidates(fn, scopes, new Set(folded), isLoopHead);
    }
  }
  return folded.map((k) => k.slice(0, k.indexOf("@")));
}

interface Candidate {
  key: string;
  replace: Map<Node, Node>;
}

/**
 * Locals (by scope, so that a name declared in several functions is several locals) declared once,
 * initialised to undefined (or not at all) or a boolean and never written again — their reads become
 * that value; or a local arrow `(…) => undefined` never written again — its calls with plain
 * arguments become that value. In scope order; a function's parameters before its calls.
 */
function candidates(fn: FunctionNode, sm: ScopeManager, done: Set<string>, isLoopHead: (declaration: Node) => boolean): Candidate[] {
  const found: Candidate[] = [];
  // Calls by their callee identifier, found in one walk when a function-valued local first asks.
  let callOf: Map<Node, CallExpression> | null = null;
  const callsOf = (callees: Node[]): CallExpression[] => {
    if (!callOf) {
      const calls = (callOf = new Map<Node, CallExpression>());
      walk(fn, (n) => {
        if (n.type === "CallExpression") calls.set(n.callee, n);
      });
    }
    return callees.flatMap((c) => callOf!.get(c) ?? []);
  };
  for (const scope of sm.scopes) {
    for (const v of scope.variables) {
      if (v.defs.length !== 1 || v.defs[0]!.type !== "Variable") continue;
      const decl = fromEstree(v.defs[0]!.node) as VariableDeclarator;
      if (!decl.init && isLoopHead(fromEstree(v.defs[0]!.parent))) continue;
      if (decl.id?.type !== "Identifier") continue;
      const key = `${v.name}@${decl.start}`;
      if (done.has(key)) continue;
      if (v.references.some((r) => r.isWrite() && !r.init)) continue;
      const init: Node | null = decl.init ?? null;
      const reads = v.references.filter((r) => r.isRead()).map((r) => fromEstree(r.identifier));
      if (!init || isUndefined(init) || isBool(init)) {
        const replace = new Map<Node, Node>(
          reads.map((id) => [id, init && isBool(init) ? { ...structuredClone(init), start: id.start, end: id.end } : undefinedAt(id)]),
        );
        if (replace.size > 0) found.push({ key, replace });
        continue;
      }
      // `let has = (tool, held) => held !== undefined && …`, called only as `has(tool, undefined)`:
      // inside it, `held` is undefined.
      // An initializer that is a function: an expression or an arrow.
      const before = found.length;
      if ((init.type === "FunctionExpression" || init.type === "ArrowFunctionExpression") && reads.length > 0) {
        const calls = callsOf(reads);
        if (calls.length === reads.length) {
          const fnScope = sm.acquire(init as never);
          for (let i = 0; i < init.params.length; i++) {
            const p = init.params[i]!;
            const pkey = `${key}#${i}`;
            if (
              p.type !== "Identifier" ||
              done.has(pkey) ||
              !calls.every(
                (c) =>
                  c.arguments.length <= i ||
                  (isUndefined(c.arguments[i]) && !c.arguments.slice(0, i + 1).some((a: Node) => a.type === "SpreadElement")),
              )
            )
              continue;
            const pv = fnScope?.variables.find((x) => x.name === p.name);
            if (!pv || pv.references.some((r) => r.isWrite())) continue;
            const replace = new Map<Node, Node>(
              pv.references.filter((r) => r.isRead()).map((r) => [fromEstree(r.identifier), undefinedAt(fromEstree(r.identifier))]),
            );
            if (replace.size > 0) found.push({ key: pkey, replace });
          }
        }
      }
      // The arrow's own body may be folded by its parameters' candidates: it is asked again next round.
      if (found.length > before) continue;
      if (init.type === "ArrowFunctionExpression" && init.expression && (isUndefined(init.body) || isBool(init.body))) {
        const replace = new Map<Node, Node>();
        for (const n of callsOf(reads)) {
          if (!n.optional && n.arguments.every((a: Node) => a.type === "Identifier" || a.type === "Literal"))
            replace.set(n, { ...structuredClone(init.body), start: n.start, end: n.end });
        }
        if (replace.size > 0) found.push({ key, replace });
      }
    }
  }
  return found;
}

/** The scopes of a function's own code (its free names resolve to nothing). */
export function analyzeFunction(fn: Node): ScopeManager {
  const expression = { ...fn, type: fn.type === "FunctionDeclaration" ? "FunctionExpression" : fn.type };
  const program = {
    type: "Program",
    sourceType: "module",
    body: [{ type: "ExpressionStatement", expression, start: fn.start, end: fn.end }],
    start: fn.start,
    end: fn.end,
    range: [fn.start, fn.end],
  };
  return analyze(program as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
}

/** Replace nodes (by identity) under root. */
function replaceNodes(root: Node, replace: Map<Node, Node>): void {
  rewriteTree(root, (n) => replace.get(n) ?? n);
}

/** One bottom-up pass of folding over expressions and if statements. */
function fold(root: Node): void {
  const foldExpr = (n: Node): Node => {
    switch (n.type) {
      case "ChainExpression": {
        // `undefined?.x(…).y` is undefined: an optional link on undefined ends the whole chain.
        for (let link: Node = n.expression; link && (link.type === "MemberExpression" || link.type === "CallExpression");) {
          const inner: Node = link.type === "MemberExpression" ? link.object : link.callee;
          if (link.optional && isUndefined(inner)) return undefinedAt(n);
          link = inner;
        }
        return n;
      }
      case "UnaryExpression":
        return n.operator === "!" && known(n.argument) ? BOOL(!truth(n.argument), n) : n;
      case "BinaryExpression": {
        const { left, right, operator } = n;
        if (!known(left) || !known(right)) return n;
        const l = isUndefined(left) ? undefined : (left as Literal).value;
        const r = isUndefined(right) ? undefined : (right as Literal).value;
        if (operator === "===") return BOOL(l === r, n);
        if (operator === "!==") return BOOL(l !== r, n);
        if (operator === "==") return BOOL(l == r, n);
        if (operator === "!=") return BOOL(l != r, n);
        return n;
      }
      case "LogicalExpression": {
        // `(held && false) && check(…)`: whatever `held` is, the left side is falsy, so the right never runs.
        if (
          n.operator === "&&" &&
          n.left.type === "LogicalExpression" &&
          n.left.operator === "&&" &&
          known(n.left.right) &&
          !truth(n.left.right)
        )
          return n.left;
        if (!known(n.left)) return n;
        if (n.operator === "&&") return truth(n.left) ? n.right : n.left;
        if (n.operator === "||") return truth(n.left) ? n.left : n.right;
        if (n.operator === "??") return isUndefined(n.left) || (n.left.type === "Literal" && n.left.value === null) ? n.right : n.left;
        return n;
      }
      case "ConditionalExpression":
        return known(n.test) ? (truth(n.test) ? n.consequent : n.alternate) : n;
      default:
        return n;
    }
  };
  // Statements after a return are dead (function declarations are hoisted: they stay).
  const dropAfterExit = (n: Node) => {
    for (const k of ["body", "consequent"]) {
      const v = fieldsOf(n)[k];
      if (!isNodeList(v)) continue;
      const end = v.findIndex((x) => x?.type === "ReturnStatement" || x?.type === "ThrowStatement");
      if (end >= 0) for (let i = v.length - 1; i > end; i--) if (v[i]?.type !== "FunctionDeclaration") v.splice(i, 1);
    }
  };
  transform(root, {
    leave: (n) => {
      dropAfterExit(n);
      // A dead if without else leaves nothing behind in a statement list.
      if (n.type === "IfStatement" && (known(n.test) || isBool(n.test))) return truth(n.test) ? n.consequent : (n.alternate ?? null);
      return n.type.endsWith("Expression") ? foldExpr(n) : n;
    },
  });
  dropAfterExit(root);
}
