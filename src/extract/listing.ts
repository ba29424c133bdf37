import { escapeLineSeparators, terminalSafe as safe } from "../safe-text.js";
import type { Container, ModuleEntry } from "./types.js";

/** The `extract --list --json` document: one object, stable field order. */
export interface Listing {
  input: string;
  file: string;
  format: string;
  runtime: string | null;
  entry: string | null;
  notes: string[];
  modules: ListedModule[];
}

type ListedModule = Omit<ModuleEntry, "extra"> & Record<string, unknown>;

/** Characters of a listing handed out at a time (listingJson, listingText). */
const PIECE = 1 << 20;

/** One module as the listing shows it (the format's extra facts after the common fields). */
function listed(m: ModuleEntry): ListedModule {
  return {
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
  };
}

function head(c: Container): Omit<Listing, "modules"> {
  return { input: c.input, file: c.file, format: c.format, runtime: c.runtime, entry: c.entry, notes: c.notes };
}

export function listing(c: Container): Listing {
  return { ...head(c), modules: c.modules.map(listed) };
}

/**
 * The listing's JSON, `jsLiteral(listing(c), 2)` to the character (JSON, line separators escaped), in pieces of about PIECE
 * characters: a container of hundreds of thousands of modules is written without a string of its whole listing
 * (which can be longer than V8's longest string) or an object per module held at once.
 */
export function* listingJson(c: Container): Generator<string> {
  const top = JSON.stringify({ ...head(c), modules: [] }, null, 2);
  if (c.modules.length === 0) {
    yield escapeLineSeparators(top);
    return;
  }
  // `modules` is the last field: its "[]" opens the array the modules go into.
  let piece = top.slice(0, top.length - "[]\n}".length) + "[\n";
  for (let i = 0; i < c.modules.length; i++) {
    piece += (i > 0 ? ",\n" : "") + "    " + JSON.stringify(listed(c.modules[i]!), null, 2).replace(/\n/g, "\n    ");
    if (piece.length >= PIECE) {
      yield escapeLineSeparators(piece);
      piece = "";
    }
  }
  yield escapeLineSeparators(piece + "\n  ]\n}");
}

const COLUMNS = ["path", "kind", "loader", "format", "encoding", "size", "bytecode", "start", "end"];

/** A module's cells in the human listing; its path, read from the input, made terminal-safe. */
function cells(m: Omit<ModuleEntry, "extra">): string[] {
  return [
    safe(m.path),
    m.kind,
    m.loader,
    m.moduleFormat,
    m.encoding,
    String(m.size),
    m.bytecode ? "yes" : "no",
    String(m.start),
    String(m.end),
  ];
}

/**
 * The human listing, in pieces of about PIECE characters. Every name read from the input (paths, entry,
 * runtime, notes) is made terminal-safe. Two passes over the modules, the first for the columns' widths, so that
 * no row is kept: a listing of hundreds of thousands of modules holds one piece at a time.
 */
export function* listingText(l: Omit<Listing, "modules">, modules: ReadonlyArray<Omit<ModuleEntry, "extra">>): Generator<string> {
  const top = [
    `input:   ${safe(l.input)}`,
    `format:  ${l.format}`,
    `runtime: ${l.runtime ? safe(l.runtime) : "(not found)"}`,
    `entry:   ${l.entry ? safe(l.entry) : "(none)"}`,
    `modules: ${modules.length}`,
    ...l.notes.map((n) => `note:    ${safe(n)}`),
    "",
  ];
  // A loop, not Math.max(...rows): spreading 130k modules as arguments overflows the stack.
  const widths = COLUMNS.map((c) => c.length);
  for (const m of modules) cells(m).forEach((v, i) => (widths[i] = Math.max(widths[i]!, v.length)));
  const line = (r: string[]) =>
    r
      .map((v, i) => (i >= 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  let piece = [...top, line(COLUMNS)].join("\n") + "\n";
  for (const m of modules) {
    piece += line(cells(m)) + "\n";
    if (piece.length >= PIECE) {
      yield piece;
      piece = "";
    }
  }
  yield piece;
}

/** The human listing as one string (small listings; the CLI writes listingText's pieces). */
export function formatListing(l: Listing): string {
  return [...listingText(l, l.modules)].join("");
}

/** The human listing of a container, in pieces (see listingText). */
export function containerListingText(c: Container): Generator<string> {
  return listingText(head(c), c.modules);
}
