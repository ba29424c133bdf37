/**
 * A read of an object's own data properties whose value is unused, dropped where the object is one no
 * one else has yet seen: it cannot throw or run a getter.
 *
 *   let callback = async (result) => {     →   let callback = async (result) => {
 *     result.data.matches;                        note();
 *     note();                                     …
 *     …                                         };
 *   };
 *   await callback(buildResult(list));          await callback(buildResult(list));
 *   function buildResult(matches) { return { data: { matches, total: matches.length } }; }
 *
 * The object is fresh: an object literal, or what a local function returns when its one return, its
 * last statement, returns one. The read happens before anything else could reach it: as the first
 * statement of a local function (with plain parameters, only ever called directly) that every call
 * passes such an object, or right after the declaration it initialises. Each step of the chain must
 * be an own property the literal writes (no getter, no `__proto__`), and every step but the last one
 * another object literal written there, not overwritten by a later spread.
 */
import type { Variable } from "eslint-scope";
import type { BlockStatement, ObjectExpression, Property } from "acorn";
import { isFunction, isNodeList, type FunctionNode, type Node } from "../../ast/pattern.js";
import { listOf } from "./statement-lists.js";
import { boundFunction, defineFold, laterWrites, loopHeadsOf, rewriteUp, singleDeclarator, variablesOf } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** The names of a member chain `p.a.b`: p and ["a", "b"], or null for anything else (computed, optional, a call). */
function chainOf(e: Node): { base: string; keys: string[] } | null {
  const keys: string[] = [];
  let at = e;
  while (at.type === "MemberExpression" && !at.computed && !at.optional && at.property.type === "Identifier") {
    keys.unshift(at.property.name);
    at = at.object;
  }
  return at.type === "Identifier" && keys.length > 0 ? { base: at.name, keys } : null;
}

const keyName = (p: Property): string | null =>
  p.computed ? null : p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;

/** The keys a spread argument may add: those of a literal, of `a && {…}`, or of either branch of a conditional; null when unknown. */
function spreadKeys(e: Node): Set<string> | null {
  if (e.type === "ObjectExpression") {
    const keys = new Set<string>();
    for (const p of e.properties) {
      if (p.type === "SpreadElement") {
        const inner = spreadKeys(p.argument);
        if (!inner) return null;
        inner.forEach((k) => keys.add(k));
      } else {
        const k = keyName(p);
        if (k === null) return null;
        keys.add(k);
      }
    }
    return keys;
  }
  if (e.type === "LogicalExpression" && e.operator === "&&") return spreadKeys(e.right);
  if (e.type === "ConditionalExpression") {
    const [a, b] = [spreadKeys(e.consequent), spreadKeys(e.alternate)];
    return a && b ? new Set([...a, ...b]) : null;
  }
  if (e.type === "Literal" && !e.value) return new Set();
  return null;
}

/**
 * What reading `key` of the literal gives: `own` when it is surely an own data property; `value`, the literal
 * written there, when no later spread may overwrite it. Null when not sure.
 */
function readOf(o: ObjectExpression, key: string): { value: Node | null } | null {
  let value: Node | null | undefined;
  for (const p of o.properties) {
    if (p.type === "SpreadElement") {
      const keys = spreadKeys(p.argument);
      if (!keys) return null;
      if (keys.has(key) && value !== undefined) value = null;
      continue;
    }
    const k = keyName(p);
    if (k === null || k === "__proto__" || p.kind !== "init") return null;
    if (k === key) value = p.value;
  }
  return value === undefined ? null : { value };
}

/** Whether reading `keys` in turn from what `fresh` evaluates to cannot throw or run a getter. */
function safeChain(object: Node, keys: string[]): boolean {
  let at: Node | null = object;
  for (const key of keys) {
    if (at?.type !== "ObjectExpression") return false;
    const read = readOf(at, key);
    if (!read) return false;
    at = read.value;
  }
  return true;
}

export const freshObjectReads = defineFold({
  scope: true,
  run: (root) => {
    const heads = loopHeadsOf(root);
    const variables = variablesOf(root);
    const byName = (scopeNode: Node, name: string): Variable | undefined =>
      variables.find((v) => v.name === name && fromEstree(v.scope.block) === scopeNode);
    const resolvedOf = new Map<Node, Variable>();
    for (const v of variables) for (const r of v.references) resolvedOf.set(fromEstree(r.identifier), v);
    /** The object literal a fresh expression makes: a literal, or a call of a local function whose last statement, its one return, returns one. */
    const freshLiteral = (e: Node): Node | null => {
      if (e.type === "ObjectExpression") return e;
      if (e.type !== "CallExpression" || e.optional || e.callee.type !== "Identifier") return null;
      const resolved = resolvedOf.get(e.callee);
      const g = resolved ? boundFunction(resolved, heads) : null;
      if (!g || g.async || g.generator) return null;
      if (g.expression) return g.body.type === "ObjectExpression" ? g.body : null;
      const body = (g.body as BlockStatement).body as Node[];
      const last = body.at(-1);
      if (last?.type !== "ReturnStatement" || last.argument?.type !== "ObjectExpression") return null;
      let returns = 0;
      const count = (n: Node): void => {
        if (n !== g && isFunction(n)) return;
        if (n.type === "ReturnStatement") returns++;
        for (const v of Object.values(n)) {
          if (isNodeList(v)) v.forEach((c) => c && typeof c.type === "string" && count(c));
          else if (v && typeof v === "object" && typeof (v as Node).type === "string") count(v as Node);
        }
      };
      count(g.body);
      return returns === 1 ? last.argument : null;
    };
    /** The fresh literals every call of `fn` passes as its parameter `index`; null unless `fn` is only ever called directly. */
    const passed = (fn: FunctionNode, v: Variable, index: number): Node[] | null => {
      const out: Node[] = [];
      for (const r of v.references) {
        if (r.init) continue;
        const id = fromEstree(r.identifier);
        const call = callOf.get(id);
        if (!call) return null;
        const arg = call.arguments[index];
        if (!arg || call.arguments.slice(0, index + 1).some((a: Node) => a.type === "SpreadElement")) return null;
        const literal = freshLiteral(arg);
        if (!literal) return null;
        out.push(literal);
      }
      return out.length > 0 && fn.params.every((p: Node) => p.type === "Identifier") ? out : null;
    };
    // Callee identifier → its direct call.
    const callOf = new Map<Node, Node & { type: "CallExpression" }>();
    rewriteUp(root, (n) => {
      if (n.type === "CallExpression" && !n.optional && n.callee.type === "Identifier") callOf.set(n.callee, n);
      return n;
    });

    const drop = new Set<Node>();
    for (const v of variables) {
      const fn = boundFunction(v, heads);
      if (!fn || fn.expression) continue;
      const first = ((fn.body as BlockStatement).body as Node[])[0];
      const chain = first?.type === "ExpressionStatement" ? chainOf(first.expression) : null;
      if (!chain) continue;
      const index = fn.params.findIndex((p: Node) => p.type === "Identifier" && p.name === chain.base);
      if (index < 0 || !byName(fn, chain.base)) continue;
      const literals = passed(fn, v, index);
      if (literals?.every((l) => safeChain(l, chain.keys))) drop.add(first!);
    }
    // Right after the declaration it initialises.
    rewriteUp(root, (n) => {
      const list = listOf(n);
      list?.forEach((s, i) => {
        const chain = s.type === "ExpressionStatement" ? chainOf(s.expression) : null;
        const before = list[i - 1];
        if (!chain || before?.type !== "VariableDeclaration" || before.declarations.length !== 1) return;
        const d = before.declarations[0]!;
        if (d.id.type !== "Identifier" || d.id.name !== chain.base || !d.init) return;
        const own = variables.find((x) => singleDeclarator(x, heads) === d);
        const literal = freshLiteral(d.init);
        if (own && laterWrites(own).length === 0 && literal && safeChain(literal, chain.keys)) drop.add(s);
      });
      return n;
    });
    if (drop.size === 0) return 0;
    rewriteUp(root, (n) => (drop.has(n) ? null : n));
    return drop.size;
  },
});
