/**
 * `searchlift where`: the Claude Code installations on this machine (src/inputs/installs.ts), each an input
 * the other commands take. Finding none is an answer, not a failure: exit 0, and where it looked on stderr.
 */
import type { Command } from "commander";
import { messageLine, terminalSafe as safe } from "../safe-text.js";
import { printJson } from "./output.js";

export function registerWhere(program: Command): void {
  program
    .command("where")
    .description("find the installed Claude Code: the versions folder, claude on PATH, global npm and bun installs")
    .option("--json", "print one JSON object")
    .action(async (opts: { json?: boolean }) => {
      const { findInstalls } = await import("../inputs/installs.js");
      const { installs, searched, notes } = await findInstalls();
      const rows = installs.map((i) => ({ kind: i.kind, path: i.path, version: i.version, ...(i.link ? { link: i.link } : {}) }));
      if (opts.json) {
        printJson({ installs: rows, searched, ...(notes.length ? { notes } : {}) });
        return;
      }
      for (const n of notes) process.stderr.write(`note: ${messageLine(n)}\n`);
      if (!rows.length) process.stderr.write(`no Claude Code installation found (looked in ${messageLine(searched.join(", "))})\n`);
      // kind, version (? where unknown), path, and for the claude on PATH the link it was found as.
      for (const r of rows) {
        process.stdout.write(
          `${r.kind.padEnd(16)} ${safe(r.version ?? "?").padEnd(10)} ${safe(r.path)}${r.link ? ` ← ${safe(r.link)}` : ""}\n`,
        );
      }
    });
}
