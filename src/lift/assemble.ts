/**
 * Put a closure back together as one program: every definition once, module-level names made
 * unique across chunks, references rewritten to them, and definitions ordered so that whatever an
 * initializer needs at once is defined before it. Local names are left to the renamer.
 */
import { analyze } from "eslint-scope";
import type { Identifier } from "acorn";
import { fieldsOf, isNodeList, walk, type Node, type NodeOf } from "../ast/pattern.js";
import { definitionKey, type Closure, type ClosureEntry } from "./closure.js";
import { acornIdentifier } from "../ast/estree-bridge.js";

export interface Assembled {
  /** Statements in dependency order. */
  statements: Node[];
  /** Definition key → the name it has in the assembled program. */
  names: Map<string, string>;
}

export class AssembleError extends Error {}

/**
 * `nameOf` proposes a module-level name for each definition (the minified name for a faithful copy
 * of the original, a readable one for the lifted module); clashes get a numeric suffix.
 */
export function assemble(closure: Closure, nameOf: (d: ClosureEntry) => string, reserved: Iterable<string> = []): Assembled {
  const names = new Map<string, string>();
  const used = new Set<string>(reserved);
  for (const d of closure.definitions) {
    if (d.kind === "member") continue;
    const want = nameOf(d);
    let name = want;
    for (let i = 2; used.has(name); i++) name = `${want}${i}`;
    used.add(name);
    names.set(definitionKey(d), name);
  }

  const byKey = new Map(closure.definitions.map((d) => [definitionKey(d), d]));
  const emitted = new Map<string, Node>();
  for (const d of closure.definitions) emitted.set(definitionKey(d), toStatement(d, names));

  // Functions are hoisted; everything else goes after what its initializer reads right away.
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (key: string, path: string[]) => {
    if (state.get(key) === "done") return;
    if (state.get(key) === "visiting")
      throw new AssembleError(`initializers depend on each other in a cycle: ${[...path, key].join(" → ")}`);
    state.set(key, "visiting");
    const d = byKey.get(key)!;
    for (const dep of eagerDependencies(d, byKey)) visit(dep, [...path, key]);
    state.set(key, "done");
    order.push(key);
  };
  const functions = closure.definitions.filter((d) => d.kind === "function").map(definitionKey);
  for (const d of closure.definitions) if (d.kind !== "function") visit(definitionKey(d), []);
  return { statements: [...functions, ...order].map((k) => emitted.get(k)!), names };
}

/** A deep copy of the definition as a declaration statement, with its module-level references renamed. */
function toStatement(d: ClosureEntry, names: Map<string, string>): Node {
  const node = structuredClone<Node>(d.node);
  const own = names.get(definitionKey(d))!;
  let stmt: Node;
  switch (node.type) {
    case "FunctionDeclaration":
    case "ClassDeclaration":
      stmt = node;
      break;
    case "VariableDeclarator":
      stmt = declaration(node.id, node.init, node);
      break;
    case "AssignmentExpression":
      if (d.kind === "member") {
        // `F.prototype.x = …` stays an assignment; only its references are renamed.
        stmt = { type: "ExpressionStatement", expression: node, start: node.start, end: node.end, range: [node.start, node.end] };
        renameStatement(stmt, "", "", (name) => {
          const key = d.references.get(name);
          return key ? (names.get(key) ?? null) : null;
        });
        return stmt;
      }
      stmt = declaration(node.left, node.right, node);
      break;
    case "Property":
    case "MethodDefinition":
      // A method (the tool's call()) becomes a function of the same shape.
      stmt = {
        ...node.value,
        type: "FunctionDeclaration",
        id: { type: "Identifier", name: own, start: node.start, end: node.start, range: [node.start, node.start] },
      } as Node;
      break;
    default:
      throw new AssembleError(`cannot emit a ${node.type} as a definition`);
  }
  renameStatement(stmt, d.name, own, (name) => {
    const key = d.references.get(name);
    return key ? (names.get(key) ?? null) : null;
  });
  return stmt;
}

function declaration(id: Node, init: Node | null | undefined, at: Node): Node {
  const range: [number, number] = [at.start, at.end];
  return {
    type: "VariableDeclaration",
    kind: "let",
    start: at.start,
    end: at.end,
    range,
    declarations: [{ type: "VariableDeclarator", id, init, start: at.start, end: at.end, range }],
  } as Node;
}

/**
 * Rename a statement that stands alone as a program: the binding it declares (`from` → `to`, with
 * every use of it, recursion included) and its free references (`free` returns null to keep one).
 */
export function renameStatement(stmt: Node, from: string, to: string, free: (name: string) => string | null): void {
  const program = { type: "Program", sourceType: "module", body: [stmt], range: [stmt.start, stmt.end], start: stmt.start, end: stmt.end };
  const sm = analyze(program as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
  const renames: Array<[Identifier, string]> = [];
  for (const ref of sm.globalScope!.through) {
    const id = acornIdentifier(ref.identifier);
    const name = free(id.name);
    if (name && name !== id.name) renames.push([id, name]);
  }
  const moduleScope = sm.scopes.find((sc) => sc.type === "module");
  const own = moduleScope?.set.get(from);
  if (own && from !== to) {
    for (const id of own.identifiers) renames.push([acornIdentifier(id), to]);
    for (const ref of own.references) renames.push([acornIdentifier(ref.identifier), to]);
  }
  applyRenames(stmt, renames);
}

/** Set new names on identifier nodes, turning `{ x }` into `{ x: y }` where needed. */
export function applyRenames(root: Node, renames: Array<[Identifier, string]>, shorthands?: Map<Node, NodeOf<"Property">[]>): void {
  if (!renames.length) return;
  shorthands ??= shorthandProperties(root);
  for (const [id] of renames) {
    for (const p of shorthands.get(id) ?? []) {
      if (!p.shorthand) continue;
      p.shorthand = false;
      // The key may be the value itself: it keeps the property's name.
      p.key = { ...p.key };
    }
  }
  for (const [id, name] of renames) id.name = name;
}

/**
 * One spelling for a property whose key and value name agree: `{ score }`, never `{ score: score }`, so two
 * builds that differ only in which of them was minified print alike. `__proto__` keeps its spelling: there the
 * shorthand means something else.
 */
export function canonicalShorthands(root: Node): void {
  walk(root, (n) => {
    if (n.type !== "Property" || n.computed || n.kind !== "init" || n.method || n.key.type !== "Identifier") return;
    if (n.key.name === "__proto__") return;
    const value = n.value.type === "AssignmentPattern" ? n.value.left : n.value;
    n.shorthand = value.type === "Identifier" && value.name === n.key.name;
  });
}

/**
 * The shorthand properties (`{ x }`) under root, by their value node: found once for a statement
 * whose bindings are renamed one at a time, instead of one walk of the statement per binding.
 */
export function shorthandProperties(root: Node): Map<Node, NodeOf<"Property">[]> {
  const out = new Map<Node, NodeOf<"Property">[]>();
  walk(root, (n) => {
    if (n.type === "Property" && n.shorthand) {
      const list = out.get(n.value);
      if (list) list.push(n);
      else out.set(n.value, [n]);
    }
  });
  return out;
}

/**
 * Non-function definitions that must exist before `d` is defined: what its initializer reads at
 * once, and — since a function it calls at once may read anything it references — everything
 * reachable through the functions among those.
 */
function eagerDependencies(d: ClosureEntry, byKey: Map<string, ClosureEntry>): string[] {
  const out = new Set<string>();
  const throughFunctions = new Set<string>();
  const follow = (key: string) => {
    const dep = byKey.get(key);
    if (!dep || key === definitionKey(d)) return;
    if (dep.kind !== "function") {
      out.add(key);
      return;
    }
    if (throughFunctions.has(key)) return;
    throughFunctions.add(key);
    for (const k of dep.references.values()) if (k) follow(k);
    for (const k of dep.members) follow(k);
  };
  for (const key of eagerReferences(d)) follow(key);
  return [...out];
}

/** Keys of the definitions a definition reads while it is being defined (outside any function body). */
function eagerReferences(d: ClosureEntry): string[] {
  if (d.kind === "function") return [];
  const names = new Set<string>();
  const visit = (n: Node, inFunction: boolean) => {
    if (!n || typeof n.type !== "string") return;
    const isFn = n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression" || n.type === "FunctionDeclaration";
    const isMethodBody = n.type === "MethodDefinition" && !n.static;
    if (!inFunction && n.type === "Identifier") names.add(n.name);
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      if (k === "type" || k === "start" || k === "end" || k === "range" || k === "loc") continue;
      const v = fields[k];
      const inner = inFunction || isFn || isMethodBody;
      if (isNodeList(v)) v.forEach((c) => c && typeof c === "object" && visit(c, inner));
      else if (v && typeof v === "object") visit(v as Node, inner);
    }
  };
  visit(d.node, false);
  return [...names].map((n) => d.references.get(n)).filter((k): k is string => !!k && k !== definitionKey(d));
}
