/**
 * The port for computed keys: the lift rewrites every computed member access (and computed key of
 * a destructuring pattern) whose key is not harmless as written to `o[propertyKey(k)]`, and adds
 * one small function that passes the key on, converted, unless it is one of the forbidden names or
 * a symbol — then it throws. The safety check accepts such a key only through this exact function.
 */
import { parse } from "acorn";
import { analyze } from "eslint-scope";
import { fieldsOf, isNode, walk, type Node } from "../ast/pattern.js";
import { NumericAnalysis, constantString, type Parents } from "./harmless-keys.js";
import { FORBIDDEN_PROPERTIES, FORBIDDEN_PROPERTY_SET } from "./property-names.js";

export const KEY_PORT = "propertyKey";

/**
 * The port's text, as the check expects it character for character. The key is converted once,
 * here, and the converted key is what the access uses: an object key cannot answer differently on a
 * second conversion.
 */
export const KEY_PORT_FUNCTION = `function ${KEY_PORT}(key) {
  if (typeof key === "symbol") throw new TypeError("searchlift: a symbol as a computed key is refused");
  const name = String(key);
  if ([${FORBIDDEN_PROPERTIES.map((n) => JSON.stringify(n)).join(", ")}].includes(name)) throw new TypeError(\`searchlift: the property key \${name} is refused\`);
  return name;
}`;

const KEY_PORT_BLOCK = `
/** Computed keys pass through here: a key naming a constructor, a prototype or an engine hook (or a symbol) is refused. */
${KEY_PORT_FUNCTION}
`;

export interface PortedKeys {
  text: string;
  /** How many computed keys were wrapped. */
  ported: number;
}

/**
 * `text` (a module body) with every computed key that is not harmless wrapped in the port, and the
 * port appended when any was. Keys that are constant strings naming a forbidden property are left
 * as they are: no run time check can make them pass, and the safety check refuses them by name.
 */
export function portComputedKeys(text: string): PortedKeys {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module", ranges: true }) as unknown as Node;
  const parents = parentsOf(ast);
  const numeric = new NumericAnalysis(analyze(ast as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" }), parents);
  const keys: Node[] = [];
  walk(ast, (n) => {
    const key = computedReadKey(n, parents);
    if (!key || numeric.isHarmless(key)) return;
    const constant = constantString(key);
    if (constant !== null && FORBIDDEN_PROPERTY_SET.has(constant)) return;
    keys.push(key);
  });
  if (!keys.length) return { text, ported: 0 };
  const edits: Array<[number, string]> = [];
  for (const k of keys) edits.push([k.start, `${KEY_PORT}(`], [k.end, ")"]);
  // From the end, so that earlier offsets stay valid; a `)` before a `propertyKey(` at one offset never happens (keys are bracketed).
  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [at, insert] of edits) out = out.slice(0, at) + insert + out.slice(at);
  return { text: out + KEY_PORT_BLOCK, ported: keys.length };
}

/** The key of `o[k]`, or of `{ [k]: v }` in a destructuring pattern (a read too); null for anything else. */
export function computedReadKey(n: Node, parents: Parents): Node | null {
  if (n.type === "MemberExpression" && n.computed) return n.property;
  if (n.type === "Property" && n.computed && parents.get(n)?.type === "ObjectPattern") return n.key;
  return null;
}

export function parentsOf(root: Node): Parents {
  const parents: Parents = new Map();
  const visit = (n: Node) => {
    const fields = fieldsOf(n);
    for (const k in fields) {
      const v = fields[k];
      if (typeof v !== "object" || v === null || k === "range" || k === "loc") continue;
      if (Array.isArray(v)) {
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
