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
import { checkOutput } from "../output-folder.js";
import { join, resolve } from "node:path";
import { ExitCode, SearchliftError } from "../errors.js";
import { behaviourView, noDifferenceFound, sandboxScript, type Behaviour } from "./behaviour.js";
import { codeDiff, type CodeDiff } from "./code-diff.js";
import { summarySentence } from "./code-summary.js";
import { assertSandboxable } from "../verify/sandbox-node.js";
import type { RoutinePack, SemanticRow } from "../routines/pack.js";
import type { Budget } from "./witness-search.js";
import type { OnProgress } from "../progress.js";

export interface DiffOptions {
  /** Keep the lifted modules under DIR/a and DIR/b (default: a temporary folder, removed). */
  out?: string;
  /** The witness search's budget (default 3000 calls; work, never time). */
  budget?: Budget;
  /** Progress events (library API: src/progress.ts). */
  onProgress?: OnProgress;
  /** The routine compared (the wiring chooses it: src/clients/claude-code.ts). */
  pack: RoutinePack;
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
  /** Feature and weight rows, each measured by a probe on both modules. */
  semantics: SemanticRow[];
  behaviour: Behaviour;
}

export async function diffInputs(a: string, b: string, opts: DiffOptions): Promise<DiffResult> {
  if (opts.out) checkOutput(opts.out, "diff");
  const base = opts.out ? resolve(opts.out) : mkdtempSync(join(tmpdir(), "searchlift-diff-"));
  // The sandbox's one-time check of the permission model runs while this process lifts, reads and checks the
  // modules; the runs below await the same check, and report its failure.
  assertSandboxable().catch(() => {});
  const pack = opts.pack;
  try {
    const say = (message: string, done: number) => opts.onProgress?.({ stage: "diff", message, done, total: 3 });
    say(`lifting ${a}`, 0);
    const pa = await liftedModulePath(a, join(base, "a"), pack);
    say(`lifting ${b}`, 1);
    const pb = await liftedModulePath(b, join(base, "b"), pack);
    const ta = readFileSync(pa, "utf8");
    const tb = readFileSync(pb, "utf8");
    // Both checked before either runs: a module refused statically never reaches the sandbox.
    const [xa, xb] = [sandboxScript(ta, pa), sandboxScript(tb, pb)];
    say("comparing behaviour", 2);
    const view = await behaviourView({ text: ta, script: xa, label: pa }, { text: tb, script: xb, label: pb }, opts.budget, pack);
    const sideA = side(a, ta);
    const sideB = side(b, tb);
    const { semantics, behaviour } = withInputChanges(view, pack.inputChanges?.(ta, tb));
    return {
      a: sideA,
      b: sideB,
      code: codeDiff({ label: label(sideA), text: ta }, { label: label(sideB), text: tb }),
      semantics,
      behaviour,
    };
  } finally {
    if (!opts.out) rmSync(base, { recursive: true, force: true });
  }
}

/**
 * The behaviour view with the inputs one module reads and the other does not (a tool field beyond the
 * contract's): their row first among the semantics, their sentences after what says the view stopped early.
 */
export function withInputChanges<V extends { semantics: SemanticRow[]; behaviour: Behaviour }>(
  view: V,
  inputs: { rows: SemanticRow[]; sentences: string[] } | undefined,
): V {
  if (!inputs || (inputs.rows.length === 0 && inputs.sentences.length === 0)) return view;
  const sentences = view.behaviour.sentences;
  const lead = sentences.findIndex((s) => !s.startsWith("stopped: ") && !/call\(s\) were stopped by a sandbox limit/.test(s));
  const at = lead < 0 ? sentences.length : lead;
  return {
    ...view,
    semantics: [...inputs.rows, ...view.semantics],
    behaviour: { ...view.behaviour, sentences: [...sentences.slice(0, at), ...inputs.sentences, ...sentences.slice(at)] },
  };
}

/** Version and platform from the module's provenance header (read as text: the module is never run here). */
function side(input: string, text: string): DiffSide {
  const m = /^\/\/ \S+ (\S+) \(([^)\s]+)\) \u2014 [^,\n]+, lifted by/m.exec(text);
  return { input, version: m?.[1] ?? "unknown", platform: m?.[2] ?? "unknown" };
}

function label(s: DiffSide): string {
  return `${s.version} (${s.platform})`;
}

/** A lifted module as is (a `<pack id>.mjs`, or a folder holding one), else the input lifted into `out`. */
export async function liftedModulePath(input: string, out: string, pack: RoutinePack): Promise<string> {
  const file = `${pack.id}.mjs`;
  if (!existsSync(input)) throw new SearchliftError("no such file or folder", ExitCode.unreadable, input);
  const st = statSync(input);
  if (st.isDirectory() && existsSync(join(input, file))) return join(input, file);
  if (st.isFile() && input.endsWith(".mjs") && isLiftedModule(input)) return input;
  const { liftInput } = await import("../lift/lift.js");
  const r = await liftInput(input, { out, verify: false, pack });
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
  const summary = summarySentence(r.code.summary);
  if (summary) out.push(safe(summary), "");
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
  out.push(
    `== behaviour: ${n ? `${n} witness${n === 1 ? "" : "es"}` : "none found"} in ${r.behaviour.searched} cases (${r.behaviour.seconds} s) ==`,
  );
  // Without a witness the verdict comes first, whatever else is said (a field newly read is no difference).
  if (n === 0) out.push(noDifferenceFound(r.behaviour));
  for (const line of r.behaviour.sentences) out.push(`- ${safe(line)}`);
  return out.join("\n") + "\n";
}
