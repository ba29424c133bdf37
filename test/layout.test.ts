/**
 * The layout's two rules (docs/layout.md, issue 43), read from the sources' own imports (TypeScript's
 * preProcessFile: static, type-only, re-exports and dynamic imports alike):
 * - no import cycle between folders, a folder being a top-level folder of src/ (lift/fold/ and lift/names/
 *   are part of lift/), or one routine pack (src/routines/<pack>/), or a file directly in src/;
 * - no stage file (extract, locate, lift, verify, diff, track, report) imports a routine pack or the wiring that
 *   lists the packs (src/clients/): the stages take a pack as a parameter.
 * The imports that still break them are listed once, below, as known exceptions. The list can only shrink: a
 * listed import that is gone fails the test until it is taken off.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** A stage importing a pack (`from → to`, paths under src/). */
const KNOWN_PACK_IMPORTS: string[] = [];

/** Imports that close a cycle between folders, other than the pack imports above. */
const KNOWN_CYCLE_IMPORTS: string[] = [];

const STAGES = ["extract", "locate", "lift", "verify", "diff", "track", "report"];
const src = join(import.meta.dirname, "..", "src");

/** Every source file under src/ (tests aside), as a path under src/ with `/`. */
function sourceFiles(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [relative(src, p).split(sep).join("/")] : [];
  });
}

/** The files under src/ that `file` imports. */
function importsOf(file: string, files: ReadonlySet<string>): string[] {
  const text = readFileSync(join(src, file), "utf8");
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => posix.normalize(posix.join(posix.dirname(file), name)).replace(/\.js$/, ".ts"))
    .filter((target) => files.has(target));
}

function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts.length === 1) return file;
  if (parts[0] === "routines" && parts.length > 2) return `routines/${parts[1]}`;
  return parts[0]!;
}

/** A routine pack's file, or the wiring that lists the packs (src/clients/). */
const isPack = (file: string) => /^routines\/[^/]+\//.test(file) || file.startsWith("clients/");

/** Folders in a cycle, one group per strongly connected component of more than one folder (Tarjan). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    for (let w = ""; w !== v;) group.push((w = stack.pop()!));
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

describe("layout", () => {
  const files = new Set(sourceFiles());
  const imports = [...files].sort().flatMap((from) => importsOf(from, files).map((to) => `${from} → ${to}`));
  const [packImports, cycleImports] = [new Set(KNOWN_PACK_IMPORTS), new Set(KNOWN_CYCLE_IMPORTS)];

  it("reads the imports it judges", () => {
    // The parse must find what we know is there, or both rules below would pass on nothing.
    expect(imports).toContain("lift/lift.ts → errors.ts");
    expect(imports).toContain("index.ts → api/lift.ts");
    expect(imports.length).toBeGreaterThan(500);
  });

  it("no stage file imports a routine pack, but for the known exceptions", () => {
    const found = imports.filter((i) => {
      const [from, to] = i.split(" → ") as [string, string];
      return STAGES.includes(from.split("/")[0]!) && isPack(to);
    });
    expect(
      found.filter((i) => !packImports.has(i)),
      "new imports of a pack from a stage",
    ).toEqual([]);
    expect(
      KNOWN_PACK_IMPORTS.filter((i) => !found.includes(i)),
      "gone: take these off KNOWN_PACK_IMPORTS",
    ).toEqual([]);
  });

  it("no import cycle between folders, once the known exceptions are left out", () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      if (packImports.has(i) || cycleImports.has(i)) continue;
      const [from, to] = i.split(" → ").map(folderOf) as [string, string];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
    const found = cycles(edges);
    const why = found.map((group) =>
      imports.filter((i) => {
        const [from, to] = i.split(" → ").map(folderOf) as [string, string];
        return from !== to && group.includes(from) && group.includes(to) && !packImports.has(i) && !cycleImports.has(i);
      }),
    );
    expect(why, "imports between folders that form a cycle").toEqual([]);
    expect(
      KNOWN_CYCLE_IMPORTS.filter((i) => !imports.includes(i)),
      "gone: take these off KNOWN_CYCLE_IMPORTS",
    ).toEqual([]);
  });

  it("finds a cycle and a pack import when there is one", () => {
    // The checks above on a made-up graph: a → b → c → a is one group; d → a is no cycle.
    const edges = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cycles(edges)).toEqual([["a", "b", "c"]]);
    expect(isPack("routines/tool-search/corpus.ts") && isPack("clients/claude-code.ts") && !isPack("routines/pack.ts")).toBe(true);
    expect([folderOf("lift/fold/tree.ts"), folderOf("routines/tool-search/index.ts"), folderOf("errors.ts")]).toEqual([
      "lift",
      "routines/tool-search",
      "errors.ts",
    ]);
  });
});
