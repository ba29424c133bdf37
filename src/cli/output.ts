/**
 * What every command shares in its output: JSON on stdout, and for failures one line on stderr and a
 * documented exit code (src/errors.ts). Text from an input is made terminal-safe on the way out.
 */
import { CommanderError } from "commander";
import { ExitCode, SearchliftError } from "../errors.js";
import { jsLiteral, messageLine, terminalSafe as safe } from "../safe-text.js";

/** One JSON object on stdout, the form every `--json` prints: no raw line separator, whatever the input's text. */
export function printJson(value: unknown): void {
  process.stdout.write(jsLiteral(value, 2) + "\n");
}

/** The exit code for an error that reached the top, after its one line on stderr. */
export function report(e: unknown): number {
  if (e instanceof CommanderError) {
    // Commander has already printed its message; help and version exit 0.
    return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (e instanceof SearchliftError) {
    process.stderr.write(`searchlift: ${e.file ? safe(e.file) + ": " : ""}${messageLine(e.message)}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  process.stderr.write(`searchlift: internal error: ${messageLine(err?.message ?? String(e))}\n`);
  if (process.env.SEARCHLIFT_DEBUG) process.stderr.write(`${err?.stack}\n`);
  return ExitCode.internal;
}
