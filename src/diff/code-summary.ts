/**
 * The code view in words: which named definitions of two lifted modules are new, gone or changed. The lift
 * gives a definition the same readable name in every release where it exists, so matching by name says
 * what a reader of the unified diff would otherwise have to piece together. A module's definitions are its
 * top-level declarations and, for a top-level function that declares functions of its own (the factory the
 * routine lives in), its declarations instead.
 */
import { parse } from "acorn";
import type { Node } from "../ast/pattern.js";
import { liftedCode } from "../lift/lift.js";

export interface CodeSummary {
  added: string[];
  removed: string[];
  changed: string[];
}

/** How many names a sentence lists before "and N more". */
const LISTED = 8;

export function codeSummary(a: string, b: string): CodeSummary {
  const [da, db] = [definitions(liftedCode(a)), definitions(liftedCode(b))];
  return {
    added: [...db.keys()].filter((n) => !da.has(n)),
    removed: [...da.keys()].filter((n) => !db.has(n)),
    changed: [...db.keys()].filter((n) => da.has(n) && da.get(n) !== db.get(n)),
  };
}

/** "New: x. Changed: y and z. Gone: w." — or null when no definition differs. */
export function summarySentence(s: CodeSummary): string | null {
  const parts = (
    [
      ["New", s.added],
      ["Changed", s.changed],
      ["Gone", s.removed],
    ] as const
  ).flatMap(([what, names]) => (names.length ? [`${what}: ${list(names)}.`] : []));
  return parts.length ? parts.join(" ") : null;
}

function list(names: readonly string[]): string {
  const shown = names.slice(0, LISTED);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(", ")} and ${more} more`;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
}

/**
 * The 1-based lines of `code` inside definitions that `other` has under the same name with the same text, moved
 * or not: a definition only moved (the line diff calls it removed here and added there) changed nothing.
 */
export function movedDefinitionLines(code: string, other: string): Set<number> {
  const theirs = definitions(liftedCode(other));
  const lifted = liftedCode(code);
  const lines = new Set<number>();
  const lineAt = (offset: number) => lifted.slice(0, offset).split("\n").length;
  for (const [name, { text, start, end }] of definitionSpans(lifted)) {
    if (theirs.get(name) !== text) continue;
    for (let l = lineAt(start), last = lineAt(end); l <= last; l++) lines.add(l);
  }
  return lines;
}

/** Name → source text of each definition; a module that does not parse has none. */
function definitions(code: string): Map<string, string> {
  return new Map([...definitionSpans(code)].map(([name, d]) => [name, d.text]));
}

/** Name → source text and place of each definition. */
function definitionSpans(code: string): Map<string, { text: string; start: number; end: number }> {
  const out = new Map<string, { text: string; start: number; end: number }>();
  let program;
  try {
    program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
  } catch {
    return out;
  }
  const add = (s: Node) => {
    for (const [name, node] of declared(s))
      out.set(out.has(name) ? `${name} (again)` : name, { text: code.slice(node.start, node.end), start: node.start, end: node.end });
  };
  for (const s of program.body) {
    const inner = s.type === "FunctionDeclaration" ? s.body.body.filter((x: Node) => declared(x).length > 0) : [];
    // The factory declares the routine's functions; any other function's locals (the adapter's `result`) are
    // part of that function, not definitions of the module.
    if (inner.some((x: Node) => x.type === "FunctionDeclaration" || x.type === "ClassDeclaration")) inner.forEach(add);
    else add(s);
  }
  return out;
}

/** The names a statement declares, each with the node whose text is its definition. */
function declared(s: Node): Array<[string, Node]> {
  if ((s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") && s.id) return [[s.id.name, s]];
  if (s.type === "VariableDeclaration")
    return s.declarations.flatMap((d) => (d.id.type === "Identifier" ? [[d.id.name, d as Node] as [string, Node]] : []));
  return [];
}
