/**
 * The closure of a routine: every module-level definition it reaches, across lazy-init wrappers,
 * CJS wrapper bodies and code-split chunks, and every free name that is not an ECMAScript
 * built-in — the environment the routine touches (process, timers, I/O) or names that cannot be
 * resolved. The lift stage cuts the environment at ports and refuses what it cannot classify.
 */
import { analyze } from "eslint-scope";
import type { Container, ModuleEntry } from "../container/types.js";
import { lineColumn } from "../locate/parse-module.js";
import type { Node } from "../locate/pattern.js";
import { BUILTINS, ENVIRONMENT } from "./globals.js";
import { ModuleScope, type Definition } from "./module-scope.js";

export interface Place {
  module: string;
  line: number;
  column: number;
}

export interface ClosureEntry extends Definition {
  /** Free names of this definition, as resolved. */
  references: string[];
}

export interface Closure {
  /** Definitions reached, roots first, in discovery order. */
  definitions: ClosureEntry[];
  /** ECMAScript built-ins used. */
  builtins: string[];
  /** Host or environment names used (process, require, timers, …) and where. */
  environment: Array<{ name: string; at: Place; in: string }>;
  /** Free names with no definition anywhere. */
  unresolved: Array<{ name: string; at: Place; in: string }>;
}

export interface Root {
  module: ModuleEntry;
  /** A FunctionDeclaration, a method Property, a VariableDeclarator, … */
  node: Node;
  name: string;
}

/** Module-level identity of a definition: module path and name. */
export const definitionKey = (d: { module: ModuleEntry; name: string }) => `${d.module.path}#${d.name}`;

export function collectClosure(container: Container, roots: Root[]): Closure {
  const scopes = new Map<ModuleEntry, ModuleScope>();
  const scopeOf = (m: ModuleEntry) => {
    let s = scopes.get(m);
    if (!s) scopes.set(m, (s = ModuleScope.of(container, m)));
    return s;
  };
  const byPath = new Map(container.modules.map((m) => [m.path, m]));
  const out: Closure = { definitions: [], builtins: [], environment: [], unresolved: [] };
  const builtins = new Set<string>();
  const seen = new Set<string>();
  const queue: ClosureEntry[] = [];

  for (const r of roots) {
    const entry: ClosureEntry = { name: r.name, module: r.module, kind: "function", node: r.node, references: [] };
    seen.add(definitionKey(entry));
    queue.push(entry);
  }

  /** Follow `name` from `module` to its definition, through imports into other chunks. */
  const resolve = (module: ModuleEntry, name: string, hops = 0): Definition | null => {
    if (hops > 32) return null;
    const scope = scopeOf(module);
    const imp = scope.importOf(name);
    if (imp) {
      const target = byPath.get(imp.from);
      if (!target) return null;
      const local = scopeOf(target).exportedLocal(imp.imported) ?? imp.imported;
      return resolve(target, local, hops + 1);
    }
    return scope.definition(name);
  };

  while (queue.length) {
    const def = queue.shift()!;
    out.definitions.push(def);
    const text = scopeOf(def.module).text;
    for (const ref of freeReferences(def.node)) {
      const name = ref.name;
      if (!def.references.includes(name)) def.references.push(name);
      const at = () => ({ module: def.module.path, ...lineColumn(text, ref.start) });
      if (name === def.name) continue;
      if (ENVIRONMENT.has(name)) {
        out.environment.push({ name, at: at(), in: definitionKey(def) });
        continue;
      }
      const found = resolve(def.module, name);
      if (found) {
        const key = definitionKey(found);
        if (!seen.has(key)) {
          seen.add(key);
          queue.push({ ...found, references: [] });
        }
        continue;
      }
      if (BUILTINS.has(name)) builtins.add(name);
      else out.unresolved.push({ name, at: at(), in: definitionKey(def) });
    }
  }
  out.builtins = [...builtins].sort();
  return out;
}

/** Identifiers a definition uses without declaring them (first reference of each name). */
export function freeReferences(node: Node): Array<{ name: string; start: number }> {
  const program = {
    type: "Program",
    sourceType: "module",
    body: [asStatement(node)],
    range: [node.start, node.end],
    start: node.start,
    end: node.end,
  };
  const sm = analyze(program as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
  const out: Array<{ name: string; start: number }> = [];
  const names = new Set<string>();
  for (const ref of sm.globalScope!.through) {
    const id = ref.identifier as unknown as Node;
    if (names.has(id.name)) continue;
    names.add(id.name);
    out.push({ name: id.name, start: id.start });
  }
  // import.meta and import() are the environment too, though they are not identifiers.
  return out;
}

/** Wrap a definition node so that it can stand alone as a program statement. */
function asStatement(node: Node): Node {
  switch (node.type) {
    case "VariableDeclarator":
      return { type: "VariableDeclaration", kind: "let", declarations: [node], start: node.start, end: node.end, range: [node.start, node.end] } as Node;
    case "Property":
    case "MethodDefinition":
      return asStatement(node.value);
    default:
      if (node.type.endsWith("Expression")) return { type: "ExpressionStatement", expression: node, start: node.start, end: node.end, range: [node.start, node.end] } as Node;
      return node;
  }
}
