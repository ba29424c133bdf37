/**
 * Library `track`: lift every release given, group them by routine and write the timeline folder.
 */
import { defaultTrackInputs } from "../inputs/default-inputs.js";
import { checkOutput } from "../output-folder.js";
import { track as trackReleases, type TrackOptions as StageTrackOptions, type TrackResult } from "../track/track.js";
import { resolveApiInputs, type InputOptions } from "./inputs.js";
import { defaultPack } from "../clients/claude-code.js";
import type { RoutinePack } from "../routines/pack.js";

export type { TrackResult };

export interface TrackOptions extends Omit<StageTrackOptions, "pack">, InputOptions {
  /** The routine lifted and compared (default: the wiring's, src/clients/claude-code.ts: tool search). */
  pack?: RoutinePack;
}

/**
 * `inputs`: release files or package folders, versions (`2.1.112`), ranges (`2.1.110-2.1.112`) and folders of
 * releases (a versions folder, fetch's cache) — what the CLI's `track` takes, resolved the same way.
 */
export async function track(inputs: string[], options: TrackOptions): Promise<TrackResult> {
  const { platform: _p, releaseCache: _c, ...rest } = options;
  // The output first: nothing is fetched or lifted for an output that would be refused.
  checkOutput(options.out, "track");
  const files = await resolveApiInputs(inputs, "track", options, { ranges: true, folders: true });
  return trackReleases(files, { ...rest, pack: options.pack ?? (await defaultPack()) });
}

/** What track takes when given nothing: the versions folder, other installs, or the bundled samples (and a note). */
export const defaultInputs = defaultTrackInputs;
