/**
 * What the adapter's call of call() makes known to effectFreeStatements: the kinds of the parts of call()'s context
 * it fills, and the input's query, a string by the contract.
 */
import type { Variable } from "eslint-scope";
import { parse, type Expression } from "acorn";
import type { FunctionNode, Node } from "../../ast/pattern.js";
import { laterWrites } from "./tree.js";
import type { EmptyStateArguments } from "./empty-state-calls.js";
import type { Kind } from "./surely-kinds.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/** What the adapter's object literal holds under each key: a known kind, or the shape of an object literal written there. */
export type Shape = Map<string, Kind | Shape>;

/**
 * For each argument of call() after the input, the keys the adapter fills with its list of tools, those it sets to
 * undefined, and the object literals it writes (`{ options: { tools: allTools, refreshTools: undefined } }`).
 */
export function adapterKinds(source: string): Shape[] {
  const list = parse(`[${source}]`, { ecmaVersion: "latest" }) as unknown as { body: [{ expression: { elements: Expression[] } }] };
  const shapeOf = (e: Expression): Shape => {
    const shape: Shape = new Map();
    if (e.type !== "ObjectExpression") return shape;
    for (const p of e.properties) {
      if (p.type !== "Property" || p.computed || p.kind !== "init") continue;
      const key = p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
      if (key === null) continue;
      if (p.value.type === "ObjectExpression") shape.set(key, shapeOf(p.value));
      if (p.value.type !== "Identifier") continue;
      if (p.value.name === "allTools") shape.set(key, "array");
      if (p.value.name === "undefined") shape.set(key, "undefined");
    }
    return shape;
  };
  return list.body[0].expression.elements.map(shapeOf);
}

/**
 * The kinds of the bindings call() destructures from its context, first thing, where the adapter alone calls
 * call() (its one reference is among the names the module hands out, foldDeadCode's `uses`) and never writes
 * them again; and what call() knows of its input, `{ query }` made by the adapter from the contract's query,
 * a string by the contract's types (the one precondition of this fold): the bindings of the input whose `.query`
 * is that string (only read, never written or handed on), and bindings destructured from its `query` key.
 * Empty without the adapter's arguments.
 */
export function adapterFacts(
  root: Node,
  at: EmptyStateArguments | null,
  declared: Map<Node, Variable>,
  resolved: Map<Node, Variable>,
  parents: Map<Node, Node>,
): { facts: Map<Variable, Kind>; queryHolders: Set<Variable> } {
  const facts = new Map<Variable, Kind>();
  const queryHolders = new Set<Variable>();
  const none = { facts, queryHolders };
  if (!at?.context) return none;
  const kinds = adapterKinds(at.context);
  const body = (root as { body: { body: Node[] } }).body.body;
  const uses = body.at(-1);
  const fn = body.find((s) => s.type === "FunctionDeclaration" && s.id?.name === at.call) as FunctionNode | undefined;
  if (!fn || uses?.type !== "ReturnStatement" || fn.body.type !== "BlockStatement") return none;
  const own = declared.get(fn.id as Node);
  const inUses = (id: Node) => uses.range![0] < id.range![0] && id.range![1] < uses.range![1];
  if (!own || laterWrites(own).length > 0 || !own.references.every((r) => inUses(fromEstree(r.identifier)))) return none;
  // Until call()'s first statement has run, nothing can have touched the adapter's objects: its parameters are
  // plain names or patterns without defaults, which only read the adapter's own data properties.
  const plain = (p: Node): boolean =>
    p.type === "Identifier" ||
    (p.type === "ObjectPattern" && p.properties.every((q) => q.type === "Property" && !q.computed && plain(q.value as Node)));
  if (!fn.params.every(plain)) return none;
  const collect = (pattern: Node, shape: Shape) => {
    if (pattern.type !== "ObjectPattern") return;
    for (const p of pattern.properties) {
      if (p.type !== "Property" || p.computed) continue;
      const key = p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
      const held = key === null ? undefined : shape.get(key);
      // `{ options: { tools } }`: the pattern reads the object literal the adapter wrote there.
      if (held instanceof Map) collect(p.value, held);
      if (p.value.type !== "Identifier" || !held || held instanceof Map) continue;
      const v = declared.get(p.value);
      if (v && v.defs.length === 1 && laterWrites(v).length === 0) facts.set(v, held);
    }
  };
  const first = fn.body.body[0] as Node | undefined;
  const input = fn.params[0] as Node | undefined;
  const query: Shape = new Map([["query", "string"]]);
  if (input?.type === "ObjectPattern") collect(input, query);
  const holder = input?.type === "Identifier" ? declared.get(input) : undefined;
  if (holder && laterWrites(holder).length === 0) {
    // Each use of the input reads a key of it (input.query, not a call of input.x() with the input as this), or
    // destructures it in a declaration: nothing can write its query.
    const destructured: Node[] = [];
    const onlyRead = holder.references.every((r) => {
      const id = fromEstree(r.identifier);
      const parent = parents.get(id);
      if (parent?.type === "VariableDeclarator" && parent.init === id && parent.id.type === "ObjectPattern") {
        destructured.push(parent.id);
        return true;
      }
      if (parent?.type !== "MemberExpression" || parent.object !== id || (parent.computed && parent.property.type !== "Literal"))
        return false;
      const user = parents.get(parent);
      if (!user) return false;
      if (user.type === "CallExpression" && user.callee === parent) return false;
      if (user.type === "AssignmentExpression" && user.left === parent) return false;
      if (user.type === "UpdateExpression" || (user.type === "UnaryExpression" && user.operator === "delete")) return false;
      if ((user.type === "ForInStatement" || user.type === "ForOfStatement") && user.left === parent) return false;
      return !/Pattern$|^(Property|RestElement)$/.test(user.type);
    });
    if (onlyRead) {
      queryHolders.add(holder);
      for (const pattern of destructured) collect(pattern, query);
    }
  }
  fn.params.forEach((p: Node, i: number) => {
    const keys = kinds[i - 1];
    if (!keys?.size) return;
    if (p.type === "ObjectPattern") return collect(p, keys);
    const v = p.type === "Identifier" ? declared.get(p) : undefined;
    if (!v || laterWrites(v).length > 0 || first?.type !== "VariableDeclaration") return;
    // `let { tools, refreshTools } = context;` as call()'s first statement.
    for (const d of first.declarations) if (d.init?.type === "Identifier" && resolved.get(d.init) === v) collect(d.id, keys);
  });
  return none;
}
