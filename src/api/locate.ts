/**
 * Library `locate`: where each routine's signature matches in an input (every kind `openContainer` reads).
 */
import { ExitCode, SearchliftError } from "../errors.js";
import { openContainer } from "../extract/open-container.js";
import { locate as locateIn, type RoutineResult } from "../locate/locate.js";
import { loadSignatures, SignatureError, type Signature } from "../locate/signature.js";
import type { ProgressOptions } from "../progress.js";

export type { RoutineResult };

export interface LocateOptions extends ProgressOptions {
  /** Only these signature ids (e.g. `tool-search/scorer`); default: every bundled signature. */
  routines?: string[];
  /** Read signatures from this folder instead of the bundled ones. */
  signaturesDir?: string;
}

// eslint-disable-next-line @typescript-eslint/require-await -- async so that a failure rejects, as the API says
export async function locate(input: string, options: LocateOptions = {}): Promise<RoutineResult[]> {
  const signatures = selectSignatures(options.signaturesDir, options.routines);
  options.onProgress?.({ stage: "locate", message: `matching ${signatures.length} signature${signatures.length === 1 ? "" : "s"}` });
  const c = openContainer(input);
  try {
    const results = locateIn(c, signatures);
    options.onProgress?.({
      stage: "locate",
      message: results.map((r) => `${r.id}: ${r.status}`).join(", "),
      done: results.length,
      total: results.length,
    });
    return results;
  } finally {
    c.close();
  }
}

/** The signatures asked for; a bad signature file or an unknown id is a usage error (exit 2). */
export function selectSignatures(dir: string | undefined, ids: string[] | undefined): Signature[] {
  let all;
  try {
    all = loadSignatures(dir);
  } catch (e) {
    if (e instanceof SignatureError) throw new SearchliftError(`bad signature: ${e.message}`, ExitCode.usage);
    throw new SearchliftError(`cannot read signatures: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.usage, dir);
  }
  if (!ids) return all;
  const unknown = ids.filter((id) => !all.some((s) => s.id === id));
  if (unknown.length)
    throw new SearchliftError(`unknown routine ${unknown.join(", ")} (known: ${all.map((s) => s.id).join(", ")})`, ExitCode.usage);
  return all.filter((s) => ids.includes(s.id));
}
