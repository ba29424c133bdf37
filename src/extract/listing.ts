import { terminalSafe as safe } from "../safe-text.js";
import type { Container, ModuleEntry } from "./types.js";

/** The `extract --list --json` document: one object, stable field order. */
export interface Listing {
  input: string;
  file: string;
  format: string;
  runtime: string | null;
  entry: string | null;
  notes: string[];
  modules: Array<Omit<ModuleEntry, "extra"> & Record<string, unknown>>;
}

export function listing(c: Container): Listing {
  return {
    input: c.input,
    file: c.file,
    format: c.format,
    runtime: c.runtime,
    entry: c.entry,
    notes: c.notes,
    modules: c.modules.map((m) => ({
      path: m.path,
      kind: m.kind,
      loader: m.loader,
      moduleFormat: m.moduleFormat,
      encoding: m.encoding,
      size: m.size,
      bytecode: m.bytecode,
      start: m.start,
      end: m.end,
      ...(m.extra ?? {}),
    })),
  };
}

/** A human-readable table of the listing. */
/** The human listing; every name read from the input (paths, entry, runtime, notes) is made terminal-safe. */
export function formatListing(l: Listing): string {
  const head = [
    `input:   ${safe(l.input)}`,
    `format:  ${l.format}`,
    `runtime: ${l.runtime ? safe(l.runtime) : "(not found)"}`,
    `entry:   ${l.entry ? safe(l.entry) : "(none)"}`,
    `modules: ${l.modules.length}`,
    ...l.notes.map((n) => `note:    ${safe(n)}`),
    "",
  ];
  const cols = ["path", "kind", "loader", "format", "encoding", "size", "bytecode", "start", "end"];
  const rows = l.modules.map((m) => [
    safe(m.path),
    m.kind,
    m.loader,
    m.moduleFormat,
    m.encoding,
    String(m.size),
    m.bytecode ? "yes" : "no",
    String(m.start),
    String(m.end),
  ]);
  // A loop, not Math.max(...rows): spreading 130k modules as arguments overflows the stack.
  const widths = cols.map((c) => c.length);
  for (const r of rows) r.forEach((v, i) => (widths[i] = Math.max(widths[i]!, v.length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => (i >= 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [...head, line(cols), ...rows.map(line)].join("\n") + "\n";
}
