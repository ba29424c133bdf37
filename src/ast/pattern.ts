/**
 * Structural patterns over acorn's ESTree, in the spirit of ast-grep and semgrep: a pattern is
 * JavaScript in which identifiers spelled as metavariables stand for code.
 *
 *   $NAME    any one node; the same name twice must be the same code (for identifiers, the same name)
 *   $_       any one node, not bound
 *   $$$NAME  any run of zero or more elements of a list (arguments, statements, properties, …), bound
 *   $$$      the same, not bound
 *
 * Matching ignores positions and spellings that minifiers change: `!0`/`!1` equal `true`/`false`,
 * `void 0` equals `undefined`, `a.b` equals `a["b"]`, `let`/`const`/`var` are one, and literals
 * compare by value.
 */
import { parse, type AnyNode, type Literal, type MemberExpression, type Program } from "acorn";
import "./acorn-warm.js"; // before any parse: see acorn-warm.ts
import { walk as estreeWalk } from "estree-walker";
import { fromEstree, toEstree } from "./estree-bridge.js";

/** A node of acorn's ESTree: a union by `type`, so `if (n.type === "CallExpression")` narrows. */
export type Node = AnyNode;

/** The node of type `T`: `NodeOf<"CallExpression">`. */
export type NodeOf<T extends Node["type"]> = Extract<Node, { type: T }>;

/** A function of any form: declaration, expression or arrow. */
export type FunctionNode = NodeOf<"FunctionDeclaration" | "FunctionExpression" | "ArrowFunctionExpression">;

/** Whether a node is a function (the node types whose name contains "Function"). */
export function isFunction(n: Node): n is FunctionNode {
  return n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";
}

/** The property a member expression names by dot (`a.name`): its name; undefined for `a[k]` and `a.#name`. */
export function memberName(m: NodeOf<"MemberExpression">): string | undefined {
  return !m.computed && m.property.type === "Identifier" ? m.property.name : undefined;
}

/**
 * A node's fields by name, for the code that walks every field alike (matching, copying,
 * rewriting) rather than reading one it knows: the one place a node is an untyped record.
 */
export function fieldsOf(n: Node): Record<string, unknown> {
  return n as unknown as Record<string, unknown>;
}

/** Whether a field's value is a node (an object with a string `type`). */
export function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string";
}

/**
 * Whether a field's value is a list: read as nodes (null in an array's holes) by the walkers that splice and
 * rewrite them, which still check each element, since `range` is a list of numbers.
 */
export function isNodeList(v: unknown): v is (Node | null)[] {
  return Array.isArray(v);
}

export type Binding = Node | Node[];
export type Bindings = Map<string, Binding>;

export interface Pattern {
  source: string;
  root: Node;
}

const META = /^\$([A-Z][A-Z0-9_]*|_)$/;
const META_SEQ = /^\$\$\$([A-Z][A-Z0-9_]*)?$/;
// `shorthand` is spelling: `{ query }` and `{ query: query }` are one property.
const IGNORED = new Set(["type", "start", "end", "loc", "range", "raw", "sourceFile", "shorthand"]);

/**
 * Parse pattern source as statements: a lone expression statement gives its expression, one
 * statement gives itself, several give a block. (Write an object pattern in parentheses.)
 * Two shorthands reach nodes that are not statements:
 *   `let $X = …` with one declarator matches that declarator inside any let/const/var list;
 *   `@property <member>` matches one property or method of an object literal, e.g.
 *   `@property async call($INPUT, $$$) { $$$ }`.
 */
export function compilePattern(source: string, opts: { template?: boolean } = {}): Pattern {
  const p = parsePattern(source);
  // A pattern spells `void 0` or `!0` as the minifier does or as written: it is read as targets are.
  // A template (a port's replacement) is code to emit, kept as written.
  return opts.template ? p : { source: p.source, root: canonTree(p.root) };
}

function parsePattern(source: string): Pattern {
  const prop = /^\s*@property\s+([\s\S]*)$/.exec(source);
  if (prop) {
    const obj = tryParse(`({ ${prop[1]} \n})`);
    const stmt = obj?.body[0];
    const expr = stmt?.type === "ExpressionStatement" ? stmt.expression : undefined;
    const only = expr?.type === "ObjectExpression" ? expr.properties : undefined;
    if (!only || only.length !== 1) throw new Error(`@property pattern must be one object member: ${source}`);
    return { source, root: only[0]! };
  }
  const prog = tryParse(source) ?? tryParse(`(${source}\n)`);
  if (!prog) throw new Error(`pattern does not parse as JavaScript: ${source}`);
  if (prog.body.length === 1) {
    const only = prog.body[0]!;
    if (only.type === "VariableDeclaration" && only.declarations.length === 1) return { source, root: only.declarations[0]! };
    return { source, root: only.type === "ExpressionStatement" && metaName(only) === null ? unwrapParens(only.expression) : only };
  }
  return { source, root: { type: "BlockStatement", body: prog.body, start: 0, end: 0 } as Node };
}

function tryParse(src: string): Program | null {
  try {
    return parse(src, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      ranges: true,
    });
  } catch {
    return null;
  }
}

function unwrapParens(n: Node): Node {
  return n.type === "ParenthesizedExpression" ? unwrapParens(n.expression) : n;
}

/** The metavariable name of a pattern node, if it is one (`$X` → "X", `$_` → "_"). */
function metaName(n: Node): string | null {
  if (n.type === "Identifier") return META.exec(n.name)?.[1] ?? null;
  if (n.type === "ExpressionStatement" && n.expression.type === "Identifier") return META.exec(n.expression.name)?.[1] ?? null;
  return null;
}

/** The sequence metavariable name (`$$$X` → "X", `$$$` → ""), looking through wrappers a list element can have. */
function seqName(n: Node | null): string | null {
  if (!n) return null;
  let id: Node = n;
  if (id.type === "ExpressionStatement") id = id.expression;
  else if (id.type === "SpreadElement" || id.type === "RestElement") id = id.argument ?? id;
  else if (id.type === "Property" && id.shorthand) id = id.value;
  if (id.type !== "Identifier") return null;
  const m = META_SEQ.exec(id.name);
  return m ? (m[1] ?? "") : null;
}

/** Canonical form of a target node for comparison: what a minifier may have rewritten. */
function canon(n: Node): Node {
  if (n.type === "UnaryExpression" && n.operator === "!" && n.argument.type === "Literal" && typeof n.argument.value === "number") {
    return { type: "Literal", value: n.argument.value === 0, start: n.start, end: n.end };
  }
  if (n.type === "UnaryExpression" && n.operator === "void" && n.argument.type === "Literal" && n.argument.value === 0) {
    return { type: "Identifier", name: "undefined", start: n.start, end: n.end };
  }
  if (n.type === "ParenthesizedExpression") return canon(n.expression);
  return n;
}

/** A copy of a pattern tree with every node in canonical form (see canon). */
function canonTree(n: Node): Node {
  if (!n || typeof n !== "object") return n;
  const c = canon(n);
  if (c !== n) return c;
  const out = fieldsOf({ ...n });
  for (const [k, v] of Object.entries(fieldsOf(n))) {
    if (isNodeList(v)) out[k] = v.map((x) => (x && typeof x === "object" ? canonTree(x) : x));
    else if (isNode(v)) out[k] = canonTree(v);
  }
  return out as unknown as Node;
}

/** Structural equality of two target subtrees (for a metavariable bound twice). */
export function sameCode(a: Node | Node[] | null | undefined, b: Node | Node[] | null | undefined): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameCode(x, b[i]));
  }
  const x = canon(a);
  const y = canon(b);
  if (x.type !== y.type) return false;
  if (x.type === "Literal") return literalEqual(x, y as Literal);
  const xs = fieldsOf(x);
  const ys = fieldsOf(y);
  for (const k of Object.keys(xs)) {
    if (IGNORED.has(k)) continue;
    const u = xs[k];
    const v = ys[k];
    if (u && typeof u === "object") {
      if (!sameCode(u as Node | Node[], v as Node | Node[] | null | undefined)) return false;
    } else if (u !== v) return false;
  }
  return true;
}

function literalEqual(a: Literal, b: Literal): boolean {
  if (a.regex || b.regex) return !!a.regex && !!b.regex && a.regex.pattern === b.regex.pattern && a.regex.flags === b.regex.flags;
  if (typeof a.bigint === "string" || typeof b.bigint === "string") return a.bigint === b.bigint;
  return Object.is(a.value, b.value);
}

/**
 * Match `pat` against target node `node`, extending `env`. Returns the extended bindings or null.
 * Bindings are persistent (copied on write) so backtracking over sequences is simple.
 */
export function matchNode(pat: Node, node: Node | null | undefined, env: Bindings): Bindings | null {
  if (node == null) return null;
  const meta = metaName(pat);
  if (meta !== null) {
    const target = node.type === "ExpressionStatement" && pat.type === "ExpressionStatement" ? node.expression : node;
    if (meta === "_") return env;
    const prev = env.get(meta);
    if (prev !== undefined) return !Array.isArray(prev) && sameCode(prev, target) ? env : null;
    return new Map(env).set(meta, target);
  }
  const t = canon(node);
  if (pat.type === "MemberExpression" && t.type === "MemberExpression") return matchMember(pat, t, env);
  if (pat.type !== t.type) return null;
  if (pat.type === "Literal") return literalEqual(pat, t as Literal) ? env : null;
  let cur: Bindings | null = env;
  const ps = fieldsOf(pat);
  const ts = fieldsOf(t);
  for (const k of Object.keys(ps)) {
    if (IGNORED.has(k)) continue;
    // let, const and var are one declaration to a minifier (Bun turns const into let, esbuild keeps it).
    if (k === "kind" && pat.type === "VariableDeclaration") continue;
    const p = ps[k];
    const v = ts[k];
    if (isNodeList(p)) {
      if (!isNodeList(v)) return null;
      cur = matchList(p, v, 0, 0, cur);
    } else if (p && typeof p === "object") {
      if (!v || typeof v !== "object") return null;
      cur = matchNode(p as Node, v as Node, cur);
    } else if (p !== v) {
      return null;
    }
    if (!cur) return null;
  }
  return cur;
}

/** `a.b` and `a["b"]` are one access. */
function matchMember(pat: MemberExpression, t: MemberExpression, env: Bindings): Bindings | null {
  const key = (m: MemberExpression): string | null =>
    !m.computed && m.property.type === "Identifier"
      ? m.property.name
      : m.computed && m.property.type === "Literal" && typeof m.property.value === "string"
        ? m.property.value
        : null;
  const pk = key(pat);
  const tk = key(t);
  if (pat.optional !== t.optional) return null;
  const cur = matchNode(pat.object, t.object, env);
  if (!cur) return null;
  if (pk !== null && tk !== null && metaName(pat.property) === null) return pk === tk ? cur : null;
  if (pat.computed !== t.computed && metaName(pat.property) === null) return null;
  return matchNode(pat.property, t.property, cur);
}

/** Match a pattern list against a target list, with `$$$` runs matching any number of elements. */
function matchList(pats: Array<Node | null>, items: Array<Node | null>, i: number, j: number, env: Bindings | null): Bindings | null {
  if (!env) return null;
  if (i === pats.length) return j === items.length ? env : null;
  const p = pats[i] ?? null;
  const seq = seqName(p);
  if (seq !== null) {
    // Shortest run first: patterns read left to right, as ast-grep does.
    for (let k = j; k <= items.length; k++) {
      const run = items.slice(j, k) as Node[];
      let next: Bindings | null = env;
      if (seq !== "") {
        const prev = env.get(seq);
        if (prev !== undefined) next = Array.isArray(prev) && sameCode(prev, run) ? env : null;
        else next = new Map(env).set(seq, run);
      }
      const r = next && matchList(pats, items, i + 1, k, next);
      if (r) return r;
    }
    return null;
  }
  if (j >= items.length) return null;
  const it = items[j] ?? null;
  if (p === null || it === null) return p === it ? matchList(pats, items, i + 1, j + 1, env) : null;
  return matchList(pats, items, i + 1, j + 1, matchNode(p, it, env));
}

export interface Match {
  node: Node;
  bindings: Bindings;
}

/** Every node under `root` (root included) that matches `pattern`, outermost first in source order. */
export function findAll(root: Node, pattern: Pattern, env: Bindings = new Map()): Match[] {
  const out: Match[] = [];
  const want = pattern.root.type;
  const anyType = metaName(pattern.root) !== null;
  walk(root, (n) => {
    if (!anyType && n.type !== want && !(want === "Literal" && n.type === "UnaryExpression")) return;
    const b = matchNode(pattern.root, n, env);
    if (b) out.push({ node: n, bindings: b });
  });
  return out;
}

/** Pre-order walk over every ESTree node (estree-walker's, which visits a node's fields in order). */
export function walk(n: Node, visit: (n: Node) => void): void {
  estreeWalk(toEstree(n), { enter: (node) => visit(fromEstree(node)) });
}

/** What a function returns: the expression body, or every `return` of its own (not of nested functions); null for a bare `return`. */
export function returnedValues(fn: FunctionNode): Array<Node | null> {
  if (fn.body.type !== "BlockStatement") return [fn.body];
  return ownReturns(fn.body).map((r) => (r.argument as Node | null | undefined) ?? null);
}

/** The `return` statements under `body` that are its function's own, not those of functions nested in it. */
export function ownReturns(body: Node): Array<NodeOf<"ReturnStatement">> {
  const out: Array<NodeOf<"ReturnStatement">> = [];
  estreeWalk(toEstree(body), {
    enter(node) {
      const n = fromEstree(node);
      if (n.type === "ReturnStatement") out.push(n);
      else if (isFunction(n)) this.skip();
    },
  });
  return out;
}

/** Whether some node below `n` (or `n` itself) passes `test`; the walk stops at the first that does. */
export function someNode(n: Node, test: (n: Node) => boolean): boolean {
  let found = false;
  estreeWalk(toEstree(n), {
    enter(node) {
      if (found || test(fromEstree(node))) {
        found = true;
        this.skip();
      }
    },
  });
  return found;
}

/** Whether the child of `parent` at `key` is the name of a property (`a.b`'s `b`, `{ b: c }`'s `b`), not a value. */
export function isPropertyName(parent: Node | null | undefined, key: string | number | symbol | null | undefined): boolean {
  return (
    (parent?.type === "MemberExpression" && !parent.computed && key === "property") ||
    (parent?.type === "Property" && !parent.computed && key === "key")
  );
}

/** The same walk without the names of properties: only what holds a value. */
export function walkValues(n: Node, visit: (n: Node) => void): void {
  estreeWalk(toEstree(n), {
    enter(node, parent, key) {
      if (isPropertyName(fromEstree(parent), key)) this.skip();
      else visit(fromEstree(node));
    },
  });
}

/** A copy of a pattern's tree with each metavariable replaced by (a copy of) what it is bound to. */
export function instantiate(p: Pattern, b: Bindings): Node {
  const copy = (n: unknown): unknown => {
    if (Array.isArray(n)) {
      const out: unknown[] = [];
      for (const x of n) {
        const seq = x && typeof x === "object" ? seqName(x as Node) : null;
        const bound = seq ? b.get(seq) : undefined;
        if (seq !== null && Array.isArray(bound)) for (const y of bound) out.push(structuredClone(y));
        else out.push(copy(x));
      }
      return out;
    }
    if (!n || typeof n !== "object") return n;
    const meta = metaName(n as Node);
    if (meta !== null && meta !== "_") {
      const bound = b.get(meta);
      if (bound && !Array.isArray(bound)) return structuredClone(bound);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n)) out[k] = copy(v);
    return out;
  };
  return copy(p.root) as Node;
}
