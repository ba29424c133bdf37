/**
 * `searchlift locate`: where each routine's signature matches in an input, and its bindings.
 */
import type { Command } from "commander";
import { ExitCode } from "../errors.js";
import type { RoutineResult } from "../locate/locate.js";
import { messageLine, terminalSafe as safe } from "../safe-text.js";
import { resolveCliInput, type InputFlags } from "./input-options.js";
import { printJson } from "./output.js";

export function registerLocate(program: Command): void {
  program
    .command("locate")
    .description("find routines by structural signature (every input kind extract accepts)")
    .argument("<input>", "executable, npm package folder or .tgz, script, or a version (2.1.112, claude-code@latest)")
    .option("-r, --routine <id...>", "only these signature ids (e.g. tool-search/scorer)")
    .option("--signatures <dir>", "read signatures from DIR instead of the bundled ones")
    .option("--json", "print one JSON object")
    .action(async (arg: string, opts: InputFlags & { routine?: string[]; signatures?: string; json?: boolean }) => {
      const input = await resolveCliInput(arg, "locate", opts);
      const { locate } = await import("../api/locate.js");
      const results = await locate(input, {
        ...(opts.routine ? { routines: opts.routine } : {}),
        ...(opts.signatures ? { signaturesDir: opts.signatures } : {}),
      });
      if (opts.json) printJson({ input, routines: results });
      else process.stdout.write(formatLocate(input, results));
      process.exitCode = results.some((r) => r.status === "ambiguous")
        ? ExitCode.ambiguous
        : results.some((r) => r.status === "absent")
          ? ExitCode.absent
          : ExitCode.ok;
    });
}

/** A routine's parts that its closest known variant has and it lacks (pattern text from our signatures). */
function changedLines(c: { variant: string; missing: string[] }): string[] {
  return [
    `  new shape: differs from variant ${c.variant} in ${c.missing.length} part${c.missing.length === 1 ? "" : "s"}:`,
    ...c.missing.map((p) => `    ${p}`),
  ];
}

/** Module paths, role names and warnings come from the input: each is made terminal-safe. */
function formatLocate(input: string, results: RoutineResult[]): string {
  const lines = [`input: ${safe(input)}`];
  for (const r of results) {
    if (r.status === "found") {
      lines.push(`${r.id}: found, variant ${r.variant}`, `  ${safe(r.module ?? "")}:${r.line}:${r.column}  bytes ${r.start}-${r.end}`);
      if (r.method)
        lines.push(
          `  a ${r.method.static ? "static " : ""}method of ${r.method.holder === "class" ? "class" : "the object"} ${r.method.name === null ? "(unnamed)" : safe(r.method.name)}`,
        );
      for (const [role, name] of Object.entries(r.roles ?? {})) lines.push(`  ${role.padEnd(16)} ${safe(name)}`);
      if (r.changed) lines.push(...changedLines(r.changed));
    } else if (r.status === "ambiguous") {
      lines.push(`${r.id}: ambiguous, ${r.candidates!.length} candidates`);
      for (const c of r.candidates!) lines.push(`  ${safe(c.module)}:${c.line}:${c.column}  variant ${c.variant}`);
    } else {
      lines.push(`${r.id}: absent`);
      if (r.closest)
        lines.push(
          `  closest: ${safe(r.closest.module)}:${r.closest.line}:${r.closest.column}, ${r.closest.matched} of ${r.closest.of} parts of variant ${r.closest.variant}`,
          ...changedLines(r.closest),
        );
    }
    for (const w of r.warnings ?? []) lines.push(`  warning: ${messageLine(w)}`);
  }
  return lines.join("\n") + "\n";
}
