/**
 * The closure of a routine: every module-level definition it reaches, across lazy-init wrappers,
 * CJS wrapper bodies and code-split chunks, and every free name that is not an ECMAScript
 * built-in — the environment the routine touches (process, timers, I/O) or names that cannot be
 * resolved. The lift stage cuts the environment at ports and refuses what it cannot classify.
 */
import { analyze } from "eslint-scope";
import type { Container, ModuleEntry } from "../extract/types.js";
import { lineColumn } from "../ast/parse-module.js";
import { fieldsOf, instantiate, matchNode, type Node } from "../ast/pattern.js";
import { METHOD_OF } from "../locate/match-signature.js";
import { LiftError } from "./lift-error.js";
import { sharedModuleText } from "../locate/partial-parse.js";
import type { Port } from "../locate/signature.js";
import { BUILTINS, ENVIRONMENT } from "./globals.js";
import { ModuleScope, type Definition } from "./module-scope.js";
import { acornIdentifier } from "../ast/estree-bridge.js";

export interface Place {
  module: string;
  line: number;
  column: number;
}

export interface ClosureEntry extends Definition {
  /** Each free name of this definition → the key of the definition it means (null: built-in or environment). */
  references: Map<string, string | null>;
  /** Keys of the property assignments that complete this definition (`F.prototype.x = …`). */
  members: string[];
  /** The port that replaced this definition's code, if one did. */
  port?: string;
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
  /** The walk stopped at `limit` definitions (or at the first host name, with `stopAtHost`). */
  truncated?: boolean;
}

export interface Root {
  module: ModuleEntry;
  /** A FunctionDeclaration, a method Property, a VariableDeclarator, … */
  node: Node;
  name: string;
}

/** Module-level identity of a definition: module path and name. */
export const definitionKey = (d: { module: ModuleEntry; name: string }) => `${d.module.path}#${d.name}`;

export interface ClosureOptions {
  /** Names the emitted code provides itself (the adapter's stand-ins); they resolve to nothing. */
  provided?: Iterable<string>;
  /** Stop as soon as a host name is reached (to classify, not to emit). */
  stopAtHost?: boolean;
  /** Stop after this many definitions, setting `truncated`. */
  limit?: number;
  /** Share parsed module scopes between walks over one container. */
  resolver?: Resolver;
  /** Rewrite each definition (a copy of it) before its references are followed — where ports cut effects. */
  transform?: (def: ClosureEntry) => void;
}

export function collectClosure(container: Container, roots: Root[], ports: Port[] = [], opts: ClosureOptions = {}): Closure {
  const provided = new Set(opts.provided ?? []);
  const out: Closure = { definitions: [], builtins: [], environment: [], unresolved: [] };
  const builtins = new Set<string>();
  const seen = new Set<string>();
  const queue: ClosureEntry[] = [];

  for (const r of roots) {
    const method = methodReceiverUse(r.node);
    if (method) {
      const { line, column } = lineColumn(resolverText(opts.resolver, container, r.module), r.node.start);
      throw new LiftError(
        `${r.name} is a method that uses ${method}; it is lifted only as a function of its arguments (a method without this or super)`,
        { module: r.module.path, line, column },
      );
    }
    const entry: ClosureEntry = {
      name: r.name,
      module: r.module,
      kind: "function",
      node: classStrictness(container, r),
      references: new Map(),
      members: [],
    };
    seen.add(definitionKey(entry));
    queue.push(entry);
  }

  const resolver = opts.resolver ?? new Resolver(container);
  const scopeOf = (m: ModuleEntry) => resolver.scope(m);
  const resolve = (module: ModuleEntry, name: string) => resolver.resolve(module, name);

  while (queue.length) {
    if ((opts.limit !== undefined && out.definitions.length >= opts.limit) || (opts.stopAtHost && out.environment.length)) {
      out.truncated = true;
      break;
    }
    const def = queue.shift()!;
    if (opts.transform) {
      def.node = structuredClone<Node>(def.node);
      opts.transform(def);
    }
    out.definitions.push(def);
    const text = scopeOf(def.module).text;
    for (const ref of freeReferences(def.node)) {
      const name = ref.name;
      def.references.set(name, null);
      const at = () => ({ module: def.module.path, ...lineColumn(text, ref.start) });
      if (name === def.name) {
        def.references.set(name, definitionKey(def));
        continue;
      }
      if (provided.has(name)) continue;
      if (ENVIRONMENT.has(name)) {
        out.environment.push({ name, at: at(), in: definitionKey(def) });
        continue;
      }
      const found = resolve(def.module, name);
      if (found) {
        const key = definitionKey(found);
        def.references.set(name, key);
        if (!seen.has(key)) {
          seen.add(key);
          const entry: ClosureEntry = { ...found, references: new Map(), members: [] };
          const port = portFor(found.node, ports);
          if (port) {
            entry.node = port.node;
            entry.port = port.name;
          }
          queue.push(entry);
          // Property assignments complete a function or class (lodash-style prototypes); a port replaces them too.
          if (found.kind !== "member" && !port) {
            for (const a of scopeOf(found.module).memberAssignments(found.name)) {
              const member: ClosureEntry = {
                name: `${found.name}.${a.path}`,
                module: found.module,
                kind: "member",
                node: a.node,
                references: new Map(),
                members: [],
              };
              const mkey = definitionKey(member);
              if (seen.has(mkey)) continue;
              seen.add(mkey);
              entry.members.push(mkey);
              queue.push(member);
            }
          }
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

/** Module-level names of a container, resolved through imports into other chunks; scopes are cached. */
export class Resolver {
  private scopes = new Map<ModuleEntry, ModuleScope>();
  private byPath: Map<string, ModuleEntry>;

  constructor(private readonly container: Container) {
    this.byPath = new Map(container.modules.map((m) => [m.path, m]));
  }

  scope(m: ModuleEntry): ModuleScope {
    let s = this.scopes.get(m);
    if (!s) this.scopes.set(m, (s = ModuleScope.of(this.container, m)));
    return s;
  }

  /**
   * Follow `name` from `module` through imports to the module that should define it. Without
   * `load`, stop at the first module not read yet. null: the chain leads nowhere (an unknown
   * chunk, or an import cycle).
   */
  private follow(
    module: ModuleEntry,
    name: string,
    load: boolean,
  ): { module: ModuleEntry; name: string; scope: ModuleScope | null } | null {
    for (let hops = 0; ; hops++) {
      const scope = load ? this.scope(module) : (this.scopes.get(module) ?? null);
      if (!scope) return { module, name, scope };
      if (hops > 32) return null;
      const imp = scope.importOf(name);
      if (!imp) return { module, name, scope };
      const target = this.byPath.get(imp.from);
      if (!target) return null;
      const targetScope = load ? this.scope(target) : this.scopes.get(target);
      module = target;
      name = targetScope?.exportedLocal(imp.imported) ?? imp.imported;
    }
  }

  /**
   * What following `name` from `module` would cost: 0 if every module on the way is read and the
   * answer is known, 1 if a statement may have to be parsed, 2 if a module must first be read.
   */
  cost(module: ModuleEntry, name: string): 0 | 1 | 2 {
    const end = this.follow(module, name, false);
    if (!end) return 0;
    if (!end.scope) return 2;
    return end.scope.knows(end.name) ? 0 : 1;
  }

  /** The size of the module that following `name` from `module` would have to read first (0: none). */
  targetSize(module: ModuleEntry, name: string): number {
    const end = this.follow(module, name, false);
    return end && !end.scope ? end.module.size : 0;
  }

  /** Follow `name` from `module` to its definition. */
  resolve(module: ModuleEntry, name: string): Definition | null {
    const end = this.follow(module, name, true);
    return end ? end.scope!.definition(end.name) : null;
  }
}

/**
 * For a routine written as a method (locate's methodAsFunction), the first of `this` and `super` its own code
 * uses (not inside a nested function that binds its own): such a copy cannot stand alone as a function.
 * null for a plain function, and for a method that uses neither.
 */
function methodReceiverUse(node: Node): string | null {
  if (!(METHOD_OF in node)) return null;
  let found: string | null = null;
  const visit = (n: Node, top: boolean) => {
    if (found || !n || typeof n.type !== "string") return;
    if (n.type === "ThisExpression") found = "this";
    else if (n.type === "Super") found = "super";
    // Arrows see the method's this; other functions and class bodies bind their own.
    if (!top && (n.type === "FunctionExpression" || n.type === "FunctionDeclaration" || n.type === "ClassBody")) return;
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (Array.isArray(v)) for (const c of v) visit(c as Node, false);
      else if (v && typeof v === "object") visit(v as Node, false);
    }
  };
  visit(node, true);
  return found;
}

/**
 * A class method taken out of its class keeps the strict mode that every class body has: in a script (whose
 * other code may be sloppy) the copy says "use strict" itself. A module is strict throughout; an object literal's
 * method runs as the code around it. Parameters other than plain names cannot stand under the directive.
 */
function classStrictness(container: Container, r: Root): Node {
  const method = (r.node as { [METHOD_OF]?: Node })[METHOD_OF];
  if (method?.type !== "MethodDefinition" || r.node.type !== "FunctionDeclaration") return r.node;
  if (sharedModuleText(container, r.module).parser.goal === "module" || hasUseStrict(r.node)) return r.node;
  if (!r.node.params.every((p: Node) => p.type === "Identifier"))
    throw new LiftError(
      `${r.name} is a class method (strict) in a script, with parameters other than plain names: it cannot be copied out strict`,
    );
  const at = { start: r.node.body.start, end: r.node.body.start };
  const directive = {
    type: "ExpressionStatement",
    expression: { type: "Literal", value: "use strict", raw: '"use strict"', ...at },
    directive: "use strict",
    ...at,
  } as Node;
  const copy = { ...r.node, body: { ...r.node.body, body: [directive, ...r.node.body.body] } } as Node;
  Object.defineProperty(copy, METHOD_OF, { value: method });
  return copy;
}

/** Whether a function's own directive prologue says "use strict" (so it runs strict wherever it is copied). */
export function hasUseStrict(fn: Node): boolean {
  if (fn.type !== "FunctionDeclaration" && fn.type !== "FunctionExpression") return false;
  for (const st of fn.body.body) {
    if (st.type !== "ExpressionStatement" || typeof st.directive !== "string") return false;
    if (st.directive === "use strict") return true;
  }
  return false;
}

function resolverText(resolver: Resolver | undefined, container: Container, m: ModuleEntry): string {
  return (resolver ?? new Resolver(container)).scope(m).text;
}

/** The neutral replacement for a definition that one of the ports recognises. */
export function portFor(node: Node, ports: Port[]): { name: string; node: Node } | null {
  for (const p of ports) {
    if (!p.anchor || !p.replace) continue;
    const b = matchNode(p.anchor.root, node, new Map());
    if (b) return { name: p.name, node: instantiate(p.replace, b) };
  }
  return null;
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
    const id = acornIdentifier(ref.identifier);
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
      return {
        type: "VariableDeclaration",
        kind: "let",
        declarations: [node],
        start: node.start,
        end: node.end,
        range: [node.start, node.end],
      };
    case "Property":
    case "MethodDefinition":
      return asStatement(node.value);
    default:
      if (node.type.endsWith("Expression"))
        return { type: "ExpressionStatement", expression: node, start: node.start, end: node.end, range: [node.start, node.end] } as Node;
      return node;
  }
}
