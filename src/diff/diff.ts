/**
 * `searchlift diff <A> <B>`: what changed in the tool search between two inputs. Each input is
 * lifted (without verification) into a temporary folder — or used as is when it already is a
 * lifted module — and compared three ways: the code (a unified diff without provenance), the
 * semantics (weights and features read from the code), and the behaviour (a built-in catalog and
 * queries run through both modules, each in a sandbox child: behaviour.ts). No module is imported
 * into this process.
 */
import { terminalSafe as safe } from "../safe-text.js";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import { compareAnswers, moduleAnswers, sandboxScript, searchesMcpOnly, type Behaviour, type ModuleAnswers, type Searcher } from "./behaviour.js";
import { DEFAULT_QUERIES, defaultCatalog, type CatalogTool } from "../routines/tool-search/catalogs.js";
import { codeDiff, type CodeDiff } from "./code-diff.js";
import { assertSandboxable } from "../verify/sandbox.js";
import { moduleSemantics, semanticDiff, type SemanticRow } from "../routines/tool-search/semantics.js";

export interface DiffOptions {
  /** Keep the lifted modules under DIR/a and DIR/b (default: a temporary folder, removed). */
  out?: string;
  catalog?: CatalogTool[];
  queries?: readonly string[];
}

export interface DiffSide {
  input: string;
  version: string;
  platform: string;
}

export interface DiffResult {
  a: DiffSide;
  b: DiffSide;
  code: CodeDiff;
  semantics: SemanticRow[];
  behaviour: Behaviour;
}

export async function diffInputs(a: string, b: string, opts: DiffOptions = {}): Promise<DiffResult> {
  const base = opts.out ? resolve(opts.out) : mkdtempSync(join(tmpdir(), "searchlift-diff-"));
  // The sandbox's one-time check of the permission model runs while this process lifts, reads and checks the
  // modules; the runs below await the same check, and report its failure.
  assertSandboxable().catch(() => {});
  try {
    const pa = await liftedModulePath(a, join(base, "a"));
    const pb = await liftedModulePath(b, join(base, "b"));
    const ta = readFileSync(pa, "utf8");
    const tb = readFileSync(pb, "utf8");
    // Both checked before either runs: a module refused statically never reaches the sandbox.
    const [xa, xb] = [sandboxScript(ta, pa), sandboxScript(tb, pb)];
    const sa = semanticsOf(ta, pa);
    const sb = semanticsOf(tb, pb);
    const catalog = opts.catalog ?? defaultCatalog();
    const queries = opts.queries ?? DEFAULT_QUERIES;
    const searcher = (script: string, s: typeof sa, label: string): Searcher => ({ script, mcpOnly: searchesMcpOnly(s), label });
    // One sandbox child per module, both at once; the provenance comes back with the answers.
    const [ra, rb] = await Promise.all([moduleAnswers(searcher(xa, sa, pa), catalog, queries), moduleAnswers(searcher(xb, sb, pb), catalog, queries)]);
    const side = (input: string, r: ModuleAnswers): DiffSide => ({ input, version: r.provenance?.version ?? "unknown", platform: r.provenance?.platform ?? "unknown" });
    const sideA = side(a, ra);
    const sideB = side(b, rb);
    return {
      a: sideA,
      b: sideB,
      code: codeDiff({ label: label(sideA), text: ta }, { label: label(sideB), text: tb }),
      semantics: semanticDiff(sa, sb),
      behaviour: compareAnswers(queries, ra.answers, rb.answers),
    };
  } finally {
    if (!opts.out) rmSync(base, { recursive: true, force: true });
  }
}

function label(s: DiffSide): string {
  return `${s.version} (${s.platform})`;
}

function semanticsOf(text: string, path: string) {
  try {
    return moduleSemantics(text);
  } catch (e) {
    throw new SearchliftError(`cannot read the lifted module: ${(e as Error).message}`, ExitCode.brokenModule, path);
  }
}

/** A lifted module as is (a tool-search.mjs, or a folder holding one), else the input lifted into `out`. */
export async function liftedModulePath(input: string, out: string): Promise<string> {
  if (!existsSync(input)) throw new SearchliftError("no such file or folder", ExitCode.unreadable, input);
  const st = statSync(input);
  if (st.isDirectory() && existsSync(join(input, "tool-search.mjs"))) return join(input, "tool-search.mjs");
  if (st.isFile() && input.endsWith(".mjs") && isLiftedModule(input)) return input;
  const { liftInput } = await import("../lift/lift.js");
  const r = await liftInput(input, { out, verify: false });
  return r.module;
}

/** A module exporting the contract's functions (lifted modules are small; a bundle is not one). */
function isLiftedModule(path: string): boolean {
  if (statSync(path).size > 4 << 20) return false;
  const text = readFileSync(path, "utf8");
  return /\bexport\s*(?:\{[^}]*\bsearchTools\b|(?:async\s+)?function\s+searchTools\b|(?:const|let|var)\s+searchTools\b)/.test(text);
}

/** The human-readable report: code, semantics, behaviour. */
export function formatDiff(r: DiffResult): string {
  const out: string[] = [];
  out.push(`a: ${safe(r.a.input)} (${safe(label(r.a))})`, `b: ${safe(r.b.input)} (${safe(label(r.b))})`, "");
  out.push("== code ==");
  // The diff's lines are our own; what they quote (lifted code, module names) is escaped line by line.
  out.push(r.code.changed ? r.code.diff.trimEnd().split("\n").map(safe).join("\n") : "no code change", "");

  const changed = r.semantics.filter((s) => s.changed).length;
  out.push(`== semantics: ${changed === 0 ? "unchanged" : `${changed} changed`} ==`);
  const w = Math.max(...r.semantics.map((s) => s.feature.length), 7);
  const v = Math.max(...r.semantics.map((s) => safe(s.before).length), safe(r.a.version).length, 6);
  out.push(`  ${"".padEnd(w)}  ${safe(r.a.version).padEnd(v)}  ${safe(r.b.version)}`);
  for (const s of r.semantics) out.push(`${s.changed ? "* " : "  "}${s.feature.padEnd(w)}  ${safe(s.before).padEnd(v)}  ${safe(s.after)}`);
  out.push("");

  const n = r.behaviour.changed.length;
  const reordered = r.behaviour.changed.filter((c) => c.before.map((x) => x.name).join() !== c.after.map((x) => x.name).join()).length;
  out.push(`== behaviour: ${n} of ${r.behaviour.queries} queries changed${n ? ` (${reordered} in their results, ${n - reordered} in scores only)` : ""} ==`);
  const fmt = (xs: Array<{ name: string; score: number | null }>) => (xs.length ? xs.map((x) => (x.score === null ? safe(x.name) : `${safe(x.name)} ${x.score}`)).join(", ") : "(none)");
  for (const c of r.behaviour.changed) {
    out.push(safe(JSON.stringify(c.query)), `  before: ${fmt(c.before)}`, `  after:  ${fmt(c.after)}`);
  }
  if (n === 0) out.push("no behaviour change");
  return out.join("\n") + "\n";
}
