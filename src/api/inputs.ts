/**
 * The library's inputs are the CLI's: a path that exists, a version (`2.1.112`, `claude-code@latest`), a range
 * (`2.1.110-2.1.112`) for `lift` (as an array) and `track`, and for `track` a folder of releases — resolved by the
 * same resolver (src/inputs/resolve-input.ts) through fetch's release cache; which file each became is said
 * through `onProgress` (stage "fetch").
 */
import { existsSync } from "node:fs";
import type { OnProgress } from "../progress.js";

/** How a library call resolves inputs given as versions or ranges (the CLI's --platform and --cache). */
export interface InputOptions {
  /** For an input given as a version: `npm` (cli.js, up to 2.1.112) or a native platform (`linux-x64`, …);
   *  default as `fetch`: npm up to 2.1.112, the host's platform after. */
  platform?: string;
  /** The release cache versions are fetched into (default ~/.cache/searchlift/releases, as `fetch`). */
  releaseCache?: string;
}

interface Resolving extends InputOptions {
  onProgress?: OnProgress | undefined;
}

/** The files `args` stand for; `ranges`: a range stands for each release; `folders`: a folder for each release in it. */
export async function resolveApiInputs(
  args: string[],
  command: string,
  options: Resolving,
  { ranges, folders }: { ranges: boolean; folders: boolean },
): Promise<string[]> {
  // The common case, without loading fetch: paths that exist (and, for track, are not folders of releases).
  if (!folders && args.every((a) => existsSync(a))) return args;
  const { resolveInputs } = await import("../inputs/resolve-input.js");
  return resolveInputs(args, {
    command,
    ranges,
    folders,
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.releaseCache ? { cache: options.releaseCache } : {}),
    log: (message) => options.onProgress?.({ stage: "fetch", message }),
  });
}

/** The one file `arg` stands for (a range is refused, as by the CLI's single-input commands). */
export async function resolveApiInput(arg: string, command: string, options: Resolving): Promise<string> {
  const [file] = await resolveApiInputs([arg], command, options, { ranges: false, folders: false });
  return file!;
}
