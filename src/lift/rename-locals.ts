/**
 * Readable names for the local bindings of assembled statements (parameters, let/const/var,
 * functions and classes declared inside functions, catch parameters).
 *
 * Names come from the signature's roles first (by the position of the binding in the original
 * source), then from deterministic rules — a callback over `tools.map(…)` or a `for … of terms`
 * loop gets the singular, `tool` or `term` — and otherwise a numbered `vN`. Every name is unique
 * in the whole program, so no renaming can capture another binding; the same code always gets the
 * same names, whatever the minifier called them.
 */
import { analyze, type Scope } from "eslint-scope";
import type { Node } from "../ast/pattern.js";
import { walk } from "../ast/pattern.js";
import { applyRenames, shorthandProperties } from "./assemble.js";
import { BUILTINS, REFUSED_BUILTINS } from "./globals.js";

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval async of get set").split(" "),
);

export interface LocalNaming {
  /** Original source offset of an identifier (a binding or a use of it) → the role name it plays. */
  roles: Map<number, string>;
  /** Names already taken at module level (definitions, exports, built-ins). */
  taken: Set<string>;
}

export function renameLocals(statements: Node[], naming: LocalNaming): void {
  // Every local name is unique in the whole program: besides capture, readers of the lifted code
  // (the semantic view of diff) rely on one name meaning one binding.
  const used = new Set([...naming.taken, ...BUILTINS, ...REFUSED_BUILTINS, ...RESERVED]);
  let counter = 0;
  const take = (want: string): string => {
    let name = want;
    for (let i = 2; used.has(name); i++) name = `${want}${i}`;
    used.add(name);
    return name;
  };

  for (const stmt of statements) {
    const program = { type: "Program", sourceType: "module", body: [stmt], range: [stmt.start, stmt.end], start: stmt.start, end: stmt.end };
    const sm = analyze(program as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
    const receivers = iterationReceivers(stmt);
    const keys = destructuredKeys(stmt);
    const shorthands = shorthandProperties(stmt);
    // Scopes in source order, so that names are handed out in reading order; names are applied as
    // they are chosen, so a callback over an already renamed `tools` can become `tool`.
    const scopes = [...sm.scopes].filter((s) => s.type !== "global" && s.type !== "module").sort((a, b) => start(a) - start(b));
    for (const scope of scopes) {
      // A top-level class's own name inside its body is the module-level name, renamed by assembly.
      if (scope.type === "class" && (scope.block as unknown as Node) === stmt) continue;
      for (const v of scope.variables) {
        if (v.identifiers.length === 0) continue; // implicit `arguments`
        const first = v.identifiers[0] as unknown as Node;
        // A role may be bound at the declaration or at any use of the binding.
        const role = [first, ...v.references.map((r) => r.identifier as unknown as Node)].map((id) => naming.roles.get(id.start)).find(Boolean);
        // Bindings we wrote ourselves (at no place of the source) are already named.
        const own = first.start < 0 ? first.name : undefined;
        // A class declaration binds its name twice, outside and inside its body: the outer one is named first.
        const classOwnName = scope.type === "class" && (scope.block as unknown as Node).type === "ClassDeclaration" && (scope.block as unknown as Node).id === first;
        const name = classOwnName ? first.name : take(own ?? role ?? singular(receivers.get(first)) ?? keys.get(first) ?? `v${++counter}`);
        const renames: Array<[Node, string]> = [];
        for (const id of v.identifiers) renames.push([id as unknown as Node, name]);
        for (const ref of v.references) renames.push([ref.identifier as unknown as Node, name]);
        applyRenames(stmt, renames, shorthands);
      }
    }
  }
}

function start(s: Scope): number {
  return (s.block as unknown as Node).start;
}

const ITERATING = new Set(["map", "filter", "some", "every", "find", "findIndex", "findLast", "flatMap", "forEach", "reduce"]);

/** Binding identifier → the collection it iterates over (`xs.map((x) => …)`, `for (const x of xs)`). */
function iterationReceivers(stmt: Node): Map<Node, Node> {
  const out = new Map<Node, Node>();
  walk(stmt, (n) => {
    if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.callee.computed && ITERATING.has(n.callee.property.name)) {
      const fn = n.arguments[0];
      const param = fn && (fn.type === "ArrowFunctionExpression" || fn.type === "FunctionExpression") ? fn.params[n.callee.property.name === "reduce" ? 1 : 0] : null;
      if (param?.type === "Identifier") out.set(param, n.callee.object);
    }
    if (n.type === "ForOfStatement" && n.left.type === "VariableDeclaration") {
      const id = n.left.declarations[0]?.id;
      if (id?.type === "Identifier") out.set(id, n.right);
    }
  });
  return out;
}

/** Binding identifier → the property it is destructured from (`{ tools: t }` → tools), where that is a word. */
function destructuredKeys(stmt: Node): Map<Node, string> {
  const out = new Map<Node, string>();
  walk(stmt, (n) => {
    if (n.type !== "ObjectPattern") return;
    for (const p of n.properties) {
      if (p.type !== "Property" || p.computed || p.key.type !== "Identifier" || !/^[a-z][A-Za-z]{2,}$/.test(p.key.name)) continue;
      const target = p.value.type === "AssignmentPattern" ? p.value.left : p.value;
      if (target.type === "Identifier") out.set(target, p.key.name);
    }
  });
  return out;
}

/** `tools` → `tool`, `entries` → `entry`, `deferredTools` → `deferredTool`; null for anything else. */
function singular(n: Node | undefined): string | null {
  const name = n?.type === "Identifier" ? n.name : n?.type === "MemberExpression" && !n.computed ? n.property.name : null;
  if (!name || name.length < 4 || !/^[a-z][A-Za-z]*s$/.test(name) || name.endsWith("ss")) return null;
  return name.endsWith("ies") ? `${name.slice(0, -3)}y` : name.slice(0, -1);
}
