/**
 * The ports for computed keys. The lift rewrites every access by a key that is not harmless as
 * written (harmless-keys.ts) so that it passes through one of two small functions it adds:
 *
 * - `o[propertyKey(k)]` where the value read is only consumed (called, tested, converted) or the
 *   access is written to, and for computed names in object literals and classes: the key is
 *   passed on, converted, unless it names a constructor, a prototype, an engine hook (or is a
 *   symbol) — then it throws;
 * - `readProperty(o, k)` where the value read is kept (kept-values.ts): as `o[propertyKey(k)]`,
 *   but a function or object that `o` only inherits is refused, so that no shared built-in (a
 *   prototype's method, reached by a key built at run time) ever reaches the module's hands.
 *
 * The safety check accepts a run-time key only through these exact functions. Keys of a
 * destructuring pattern, and reads that sit after an optional link, are left as they are: the
 * check refuses them.
 */
import { parse } from "acorn";
import { analyze, type Scope, type ScopeManager } from "eslint-scope";
import { fieldsOf, isNodeList, isNode, walk, type Node } from "../ast/pattern.js";
import { NumericAnalysis, constantString, type Parents } from "./harmless-keys.js";
import { afterOptionalLink, valueKept } from "./kept-values.js";
import { FORBIDDEN_PROPERTIES, FORBIDDEN_PROPERTY_SET } from "./property-names.js";
import { fromEstree } from "../ast/estree-bridge.js";

export const KEY_PORT = "propertyKey";
export const READ_PORT = "readProperty";

/** `items` joined by commas on lines of at most 100 columns, each starting with `indent` (a lifted module's line width). */
function wrapped(items: string[], indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    if (line && indent.length + line.length + item.length + 2 > 100) {
      lines.push(indent + line.trimEnd());
      line = "";
    }
    line += `${item}, `;
  }
  lines.push(indent + line.trimEnd());
  return lines.join("\n");
}

/** The refused keys, as the port lists them. */
const REFUSED_KEYS = wrapped(
  FORBIDDEN_PROPERTIES.map((n) => JSON.stringify(n)),
  "    ",
);

/**
 * The port's text, as the check expects it character for character. The key is converted once,
 * here, and the converted key is what the access uses: an object key cannot answer differently on a
 * second conversion.
 */
export const KEY_PORT_FUNCTION = `function ${KEY_PORT}(key) {
  if (typeof key === "symbol") throw new TypeError("searchlift: a symbol as a computed key is refused");
  const name = String(key);
  const refused = [
${REFUSED_KEYS}
  ];
  if (refused.includes(name)) throw new TypeError(\`searchlift: the property key \${name} is refused\`);
  return name;
}`;

/** The read port's text: an own property, or an inherited primitive, is read as usual; nothing else is. */
export const READ_PORT_FUNCTION = `function ${READ_PORT}(object, key) {
  const name = ${KEY_PORT}(key);
  const value = object[name];
  const shared = (typeof value === "object" && value !== null) || typeof value === "function";
  if (shared && !Object.hasOwn(object, name)) {
    throw new TypeError(\`searchlift: \${name} is inherited, not the object's own: refused\`);
  }
  return value;
}`;

const KEY_PORT_BLOCK = `
/**
 * Computed keys pass through here: a key naming a constructor, a prototype or an engine hook (or a symbol)
 * is refused.
 */
${KEY_PORT_FUNCTION}
`;

const READ_PORT_BLOCK = `
/** Values read by a computed key pass through here: an inherited function or object (a shared built-in) is refused. */
${READ_PORT_FUNCTION}
`;

export interface PortedKeys {
  text: string;
  /** How many computed keys were wrapped. */
  ported: number;
}

/** How an access by a run-time key must be written, or null where no port can make it safe (the check refuses it). */
export type KeyUse = "key" | "read" | null;

/**
 * `text` (a module body) with every computed key that is not harmless wrapped in its port, and the
 * ports appended when used. Keys that are constant strings naming a forbidden property are left
 * as they are: no run time check can make them pass, and the safety check refuses them by name.
 */
export function portComputedKeys(text: string): PortedKeys {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const parents = parentsOf(ast);
  const scopes = analyze(ast as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
  const judge = new KeyJudge(scopes, parents);
  const edits: Edit[] = [];
  let reads = 0;
  let keys = 0;
  walk(ast, (n) => {
    const key = computedKey(n);
    if (!key || judge.isHarmless(key, n)) return;
    const constant = constantString(key);
    if (constant !== null && FORBIDDEN_PROPERTY_SET.has(constant)) return;
    const use = keyUse(n, parents);
    if (use === "read" && n.type === "MemberExpression") {
      edits.push(...readEdits(text, n, key, depthOf(n, parents)));
      reads++;
    } else if (use === "key") {
      const depth = depthOf(key, parents);
      edits.push({ at: key.start, cut: 0, insert: `${KEY_PORT}(`, depth }, { at: key.end, cut: 0, insert: ")", depth });
      keys++;
    }
  });
  if (!edits.length) return { text, ported: 0 };
  return { text: applyEdits(text, edits) + KEY_PORT_BLOCK + (reads ? READ_PORT_BLOCK : ""), ported: reads + keys };
}

/**
 * How a computed key must pass: a read whose value is kept through readProperty, any other read,
 * a write, or a computed name of an object literal or class through propertyKey; null for a key
 * of a destructuring pattern, a kept read after an optional link, or a logical assignment whose
 * value (perhaps the old one) is kept.
 */
export function keyUse(n: Node, parents: Parents): KeyUse {
  if (n.type !== "MemberExpression") return parents.get(n)?.type === "ObjectPattern" ? null : "key";
  if (writeTarget(n, parents)) {
    const p = parents.get(n);
    const logical = p?.type === "AssignmentExpression" && (p.operator === "&&=" || p.operator === "||=" || p.operator === "??=");
    return logical && valueKept(p, parents) ? null : "key";
  }
  if (!valueKept(n, parents)) return "key";
  return afterOptionalLink(n) ? null : "read";
}

/** The key of `o[k]`, or of a computed name (`{ [k]: v }`, `class { [k]() {} }`); null for anything else. */
export function computedKey(n: Node): Node | null {
  if (n.type === "MemberExpression" && n.computed) return n.property;
  if ((n.type === "Property" || n.type === "MethodDefinition" || n.type === "PropertyDefinition") && n.computed) return n.key;
  return null;
}

/** Whether a node is written: assigned, updated, deleted, a loop's target or inside a destructuring target. */
export function writeTarget(n: Node, parents: Parents): boolean {
  let e = n;
  for (let p = parents.get(e); p; e = p, p = parents.get(p)) {
    if (p.type === "AssignmentExpression") return p.left === e;
    if (p.type === "UpdateExpression") return true;
    if (p.type === "UnaryExpression") return p.operator === "delete";
    if (p.type === "ForInStatement" || p.type === "ForOfStatement") return p.left === e;
    if (p.type === "ChainExpression") continue;
    const inPattern =
      p.type === "ArrayPattern" ||
      p.type === "ObjectPattern" ||
      p.type === "RestElement" ||
      (p.type === "AssignmentPattern" && p.left === e) ||
      (p.type === "Property" && p.value === e && parents.get(p)?.type === "ObjectPattern");
    if (!inPattern) return false;
  }
  return false;
}

/** Keys harmless as written, and well-known symbols as the names a literal or class defines. */
export class KeyJudge {
  private readonly numeric: NumericAnalysis;
  private readonly globalRefs = new Set<Node>();

  constructor(scopes: ScopeManager, parents: Parents) {
    this.numeric = new NumericAnalysis(scopes, parents);
    for (const ref of (scopes.globalScope as Scope).through) this.globalRefs.add(fromEstree(ref.identifier));
  }

  isHarmless(key: Node, owner: Node): boolean {
    if (this.numeric.isHarmless(key)) return true;
    // `[Symbol.iterator]() {}`: a symbol of the global Symbol, named where a literal or class defines it.
    return (
      owner.type !== "MemberExpression" &&
      key.type === "MemberExpression" &&
      !key.computed &&
      key.object.type === "Identifier" &&
      key.object.name === "Symbol" &&
      this.globalRefs.has(key.object)
    );
  }
}

interface Edit {
  at: number;
  /** Characters replaced at `at` (0 for an insertion). */
  cut: number;
  insert: string;
  /** Nesting depth of the node edited: at one offset, the outer node's text goes first. */
  depth: number;
}

/** `o[k]` → `readProperty(o, k)`: the object's text and the key's stay, the brackets become the call's. */
function readEdits(text: string, m: Node & { type: "MemberExpression" }, key: Node, depth: number): Edit[] {
  const open = text.indexOf("[", m.object.end);
  const close = text.indexOf("]", key.end);
  return [
    { at: m.start, cut: 0, insert: `${READ_PORT}(`, depth },
    { at: open, cut: 1, insert: ", ", depth },
    { at: close, cut: 1, insert: ")", depth },
  ];
}

/** Apply edits from the end, so that earlier offsets stay valid; at one offset the deeper node's edit goes first. */
function applyEdits(text: string, edits: Edit[]): string {
  edits.sort((a, b) => b.at - a.at || b.depth - a.depth);
  let out = text;
  for (const e of edits) out = out.slice(0, e.at) + e.insert + out.slice(e.at + e.cut);
  return out;
}

function depthOf(n: Node, parents: Parents): number {
  let d = 0;
  for (let p = parents.get(n); p; p = parents.get(p)) d++;
  return d;
}

export function parentsOf(root: Node): Parents {
  const parents: Parents = new Map();
  const visit = (n: Node) => {
    const fields = fieldsOf(n);
    for (const k in fields) {
      const v = fields[k];
      if (typeof v !== "object" || v === null || k === "range" || k === "loc") continue;
      if (isNodeList(v)) {
        for (const c of v) {
          if (c && typeof c.type === "string") {
            parents.set(c, n);
            visit(c);
          }
        }
      } else if (isNode(v)) {
        parents.set(v, n);
        visit(v);
      }
    }
  };
  visit(root);
  return parents;
}
