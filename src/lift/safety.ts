/**
 * The strict half of the purity check: code in which nothing can reach a constructor (and through
 * it `Function`), a prototype, the engine's stack hooks, or a built-in shared with the importer.
 * It is written from what the release's routines use — reads and writes of their own objects and of
 * the tools they are given, calls of built-ins by name — and refuses the rest:
 *
 * - No property is named — by dot, string key, destructuring or member definition — from
 *   FORBIDDEN_PROPERTIES (`constructor`, `prototype`, `__proto__`, `caller`, …); no `super`,
 *   `new.target`.
 * - A computed key is harmless as written (harmless-keys.ts) or passes through the port its use
 *   calls for (key-port.ts): `readProperty` where the value read is kept, which refuses an
 *   inherited function or object; `propertyKey` elsewhere. Both are the exact canonical functions,
 *   never reassigned or shadowed. A run-time key in a destructuring pattern is refused.
 * - A global built-in is only read from by name (`Math.max`), called or constructed; never
 *   assigned, passed, spread or extended, and no write has a member chain rooted at one
 *   (`JSON.parse = …`, `delete Math.x`). `Object.assign`, `freeze`, `seal` and
 *   `preventExtensions` take only an object made where they are called.
 * - What a built-in holds under a member name (`includes`, `call`, `max`, …) is only called,
 *   never taken as a value nor assigned: a shared built-in function is never in the module's hands.
 */
import type { ScopeManager, Variable } from "eslint-scope";
import type { FunctionDeclaration, Identifier, Program } from "acorn";
import { fieldsOf, isNodeList, isNode, type Node, type NodeOf } from "../ast/pattern.js";
import { constantString, type Parents } from "./harmless-keys.js";
import { BUILTINS } from "./globals.js";
import { KEY_PORT, KeyJudge, READ_PORT, computedKey, keyUse, writeTarget } from "./key-port.js";
import { BUILTIN_MEMBER_NAMES, FORBIDDEN_PROPERTY_SET, REGEXP_LEGACY } from "./property-names.js";
import { TRUSTED_FUNCTIONS } from "./trusted-functions.js";
import { acornIdentifier, fromEstree } from "../ast/estree-bridge.js";

export interface Problem {
  what: string;
  at: number;
}

/** Primitive values: used as any value is. */
const PRIMITIVES = new Set(["undefined", "NaN", "Infinity"]);

/**
 * Object's functions that change the object given first: only on one the module has just made
 * (a literal, a `new` object, a function), never on one it was handed or reached.
 */
const MUTATORS = new Set(["assign", "freeze", "seal", "preventExtensions"]);

/** The problems, and the trusted functions (whose free names — Proxy in emptyState — are not the caller's to report). */
export function safetyProblems(
  text: string,
  ast: Program,
  scopes: ScopeManager,
  parents: Parents,
): { problems: Problem[]; trusted: Set<Node> } {
  const out: Problem[] = [];
  const trusted = trustedFunctions(text, ast, scopes, out);
  const resolved = new Map<Node, Variable | null>();
  for (const scope of scopes.scopes) for (const r of scope.references) resolved.set(fromEstree(r.identifier), r.resolved);
  const judge = new KeyJudge(scopes, parents);
  const isPort = (key: Node) =>
    key.type === "CallExpression" &&
    !key.optional &&
    key.callee.type === "Identifier" &&
    key.callee.name === KEY_PORT &&
    key.arguments.length === 1 &&
    key.arguments[0]!.type !== "SpreadElement" &&
    trusted.port !== null &&
    resolved.get(key.callee) === trusted.port;

  const visit = (n: Node): void => {
    if (trusted.nodes.has(n)) return;
    const key = computedKey(n);
    if (key && constantString(key) === null && !judge.isHarmless(key, n)) {
      const problem = runTimeKeyProblem(n, parents, isPort(key));
      if (problem) out.push({ what: problem, at: key.start });
    }
    checkNode(n, parents, out);
    const fields = fieldsOf(n);
    for (const k in fields) {
      const v = fields[k];
      if (typeof v !== "object" || v === null || k === "range" || k === "loc") continue;
      if (isNodeList(v)) {
        for (const c of v) if (c && typeof c.type === "string") visit(c);
      } else if (isNode(v)) visit(v);
    }
  };
  visit(ast);
  for (const ref of scopes.globalScope!.through) {
    const id = acornIdentifier(ref.identifier);
    if (!BUILTINS.has(id.name) || PRIMITIVES.has(id.name) || insideAny(id, trusted.nodes)) continue;
    const misuse = globalMisuse(id, parents) ?? mutatedArgument(id, parents);
    if (misuse) out.push({ what: misuse, at: id.start });
  }
  return { problems: out.sort((a, b) => a.at - b.at), trusted: trusted.nodes };
}

/**
 * Why an access by a run-time key is refused where it stands, or null: it must pass through the
 * port its use calls for (key-port.ts), and some uses no port can make safe.
 */
function runTimeKeyProblem(n: Node, parents: Parents, throughKeyPort: boolean): string | null {
  switch (keyUse(n, parents)) {
    case "key":
      return throughKeyPort ? null : "a computed key not passed through propertyKey";
    case "read":
      return `a value read by a run-time key not passed through ${READ_PORT}`;
    default:
      if (n.type !== "MemberExpression") return "a run-time key in a destructuring pattern";
      if (writeTarget(n, parents)) return "the value of a logical assignment by a run-time key";
      return "a value read by a run-time key after an optional link";
  }
}

/** Problems of one node by itself: forbidden names, built-in members taken or written. */
function checkNode(n: Node, parents: Parents, out: Problem[]): void {
  if (n.type === "Super") out.push({ what: "super", at: n.start });
  if (n.type === "MetaProperty" && n.meta.name === "new") out.push({ what: "new.target", at: n.start });
  const name = propertyName(n);
  if (name === null) return;
  const isClassConstructor = n.type === "MethodDefinition" && n.kind === "constructor";
  if (FORBIDDEN_PROPERTY_SET.has(name) && !isClassConstructor)
    out.push({
      what: `property ${name}`,
      at: (n.type === "MemberExpression" ? n.property : (n as NodeOf<"Property" | "MethodDefinition" | "PropertyDefinition">).key).start,
    });
  if (n.type === "Property" && parents.get(n)?.type === "ObjectPattern" && BUILTIN_MEMBER_NAMES.has(name))
    out.push({ what: `.${name} as a value`, at: n.key.start });
  if (n.type !== "MemberExpression") return;
  if (writeTarget(n, parents)) {
    const root = chainRoot(n);
    if (BUILTIN_MEMBER_NAMES.has(name)) out.push({ what: `a write to .${name}`, at: n.property.start });
    if (root.type === "Identifier" && BUILTINS.has(root.name)) out.push({ what: `a write to ${root.name}`, at: n.start });
  } else if (BUILTIN_MEMBER_NAMES.has(name) && !calledOrTested(n, parents)) {
    out.push({ what: `.${name} as a value`, at: n.property.start });
  }
  if (n.object.type === "Identifier" && n.object.name === "RegExp" && REGEXP_LEGACY.has(name))
    out.push({ what: `RegExp.${name}`, at: n.start });
}

/** The property a node names, where it names one by a constant (`o.x`, `o["x"]`, `{ x: … }`, `get x() {}`). */
function propertyName(n: Node): string | null {
  if (n.type === "MemberExpression")
    return n.computed ? constantString(n.property) : n.property.type === "Identifier" ? n.property.name : null;
  if (n.type !== "Property" && n.type !== "MethodDefinition" && n.type !== "PropertyDefinition") return null;
  if (n.computed) return constantString(n.key);
  if (n.key.type === "Identifier") return n.key.name;
  if (n.key.type === "Literal") return String(n.key.value);
  return null;
}

/** Why a reference to a global built-in is not allowed where it stands, or null. */
function globalMisuse(id: Identifier, parents: Parents): string | null {
  const p = parents.get(id)!;
  if (p.type === "MemberExpression" && p.object === id) {
    if (p.computed) return `${id.name}[…]`;
    return null;
  }
  if ((p.type === "CallExpression" || p.type === "NewExpression") && p.callee === id) return null;
  if (p.type === "TaggedTemplateExpression" && p.tag === id) return null;
  if (p.type === "UnaryExpression" && p.operator === "typeof") return null;
  if (p.type === "BinaryExpression" && p.operator === "instanceof" && p.right === id) return null;
  return writeTarget(id, parents) ? `a write to ${id.name}` : `${id.name} as a value`;
}

/** `Object.assign(target, …)` and the like on a target the module did not make here, or null. */
function mutatedArgument(id: Identifier, parents: Parents): string | null {
  const member = parents.get(id);
  if (id.name !== "Object" || member?.type !== "MemberExpression" || member.computed || member.property.type !== "Identifier") return null;
  const call = parents.get(member);
  if (call?.type !== "CallExpression" || call.callee !== member || !MUTATORS.has(member.property.name)) return null;
  const target = call.arguments[0];
  const fresh =
    target?.type === "ObjectExpression" ||
    target?.type === "ArrayExpression" ||
    target?.type === "NewExpression" ||
    target?.type === "FunctionExpression" ||
    target?.type === "ArrowFunctionExpression" ||
    target?.type === "ClassExpression";
  return fresh ? null : `Object.${member.property.name} of an object not made here`;
}

/** Whether an expression's value is only called (or only tested with typeof), never kept. */
function calledOrTested(n: Node, parents: Parents): boolean {
  let e = n;
  let p = parents.get(e);
  while (p?.type === "ChainExpression") [e, p] = [p, parents.get(p)];
  if (!p) return false;
  if ((p.type === "CallExpression" || p.type === "NewExpression") && p.callee === e) return true;
  if (p.type === "TaggedTemplateExpression" && p.tag === e) return true;
  return p.type === "UnaryExpression" && p.operator === "typeof";
}

/** The innermost object of a member chain (`Math` in `Math.a.b`). */
function chainRoot(n: Node): Node {
  let e = n;
  while (e.type === "MemberExpression" || e.type === "ChainExpression") e = e.type === "ChainExpression" ? e.expression : e.object;
  return e;
}

interface Trusted {
  /** The trusted function declarations: their bodies are not checked. */
  nodes: Set<Node>;
  /** The key port's variable, when the module holds the canonical port. */
  port: Variable | null;
}

/**
 * The module-level functions whose text is one of TRUSTED_FUNCTIONS. A function by such a name
 * with any other text, a second binding of the name, or an assignment to it is a problem.
 */
function trustedFunctions(text: string, ast: Program, scopes: ScopeManager, out: Problem[]): Trusted {
  const trusted: Trusted = { nodes: new Set(), port: null };
  const moduleScope = scopes.scopes.find((s) => s.type === "module")!;
  for (const stmt of ast.body) {
    // A module-level function declaration has a name (only `export default function` may not).
    if (stmt.type !== "FunctionDeclaration" || !TRUSTED_FUNCTIONS.has(stmt.id.name)) continue;
    const name: string = stmt.id.name;
    const v = moduleScope.set.get(name)!;
    if (text.slice(stmt.start, stmt.end) !== TRUSTED_FUNCTIONS.get(name))
      out.push({ what: `${name} (not the canonical function)`, at: stmt.start });
    else if (v.defs.length !== 1 || v.references.some((r) => r.isWrite())) out.push({ what: `${name} reassigned`, at: stmt.start });
    else {
      trusted.nodes.add(stmt);
      if (name === KEY_PORT) trusted.port = v;
    }
  }
  // Shadowing: another binding of a trusted function's name makes calls by that name something else.
  const names = new Set([...trusted.nodes].map((f) => (f as FunctionDeclaration).id.name));
  for (const scope of scopes.scopes) {
    for (const v of scope.variables) {
      if (!names.has(v.name) || scope === moduleScope) continue;
      for (const d of v.defs)
        if (!trusted.nodes.has(fromEstree(d.node))) out.push({ what: `${v.name} shadowed`, at: fromEstree(d.name).start });
    }
  }
  return trusted;
}

export function insideAny(n: Node, nodes: Set<Node>): boolean {
  for (const f of nodes) if (n.start >= f.start && n.end <= f.end) return true;
  return false;
}
