/**
 * What is known of the readable copy's helpers, for the one-line comments reader-order.ts writes above them:
 * what the curated names file says a helper does (`about`), and, for a definition a port replaced, that port
 * and what it stands in for (its summary in the signature). Nothing is guessed: a helper neither knows has no
 * comment.
 */
import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import { definitionKey, type ClosureEntry } from "./closure.js";
import { curatedAbout } from "./names/curated.js";
import { isAbsolute, join } from "node:path";
import { defaultSignatureDir, type Signature } from "../locate/signature.js";
import { parseJsonOrNull } from "../schemas/json.js";

/** What a signature file says of its ports, as far as the notes read it (signature.ts checks the whole file). */
const portSummariesSchema = z.object({
  ports: z.optional(z.array(z.object({ name: z.string(), summary: z.optional(z.string()) }))),
});

/** Readable name → what is known of it. */
export function helperNotes(
  code: { closure: { definitions: ReadonlyArray<Pick<ClosureEntry, "module" | "name" | "port">> }; names: ReadonlyMap<string, string> },
  signatures: ReadonlyArray<Signature | undefined>,
  signaturesDir = defaultSignatureDir(),
): Map<string, string> {
  const notes = curatedAbout();
  const summaries = new Map<string, string>();
  for (const s of signatures) {
    if (!s?.file) continue;
    let text: string;
    try {
      text = readFileSync(isAbsolute(s.file) ? s.file : join(signaturesDir, s.file), "utf8");
    } catch {
      continue; // A signature read from elsewhere without its file: no port notes from it.
    }
    // A file that no longer fits (changed since the signature was read) gives none either.
    const spec = parseJsonOrNull(portSummariesSchema, text);
    for (const p of spec?.ports ?? []) if (p.summary) summaries.set(p.name, p.summary);
  }
  for (const d of code.closure.definitions) {
    const name = code.names.get(definitionKey(d));
    if (!d.port || !name) continue;
    const summary = summaries.get(d.port);
    // The port's first sentence says what the release's code was, without its parenthesis.
    const what = summary?.split(/(?<=\.)\s/)[0]?.replace(/\s*\([^)]*\)/g, "");
    notes.set(name, what ? `The ${d.port} port, in place of ${what[0]!.toLowerCase()}${what.slice(1)}` : `The ${d.port} port.`);
  }
  return notes;
}
