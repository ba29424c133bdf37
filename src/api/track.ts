/**
 * Library `track`: lift every release given, group them by routine and write the timeline folder.
 */
import { defaultTrackInputs } from "../inputs/default-inputs.js";
import { checkOutput } from "../output-folder.js";
import { track as trackReleases, type TrackOptions as StageTrackOptions, type TrackResult } from "../track/track.js";
import { resolveApiInputs, type InputOptions } from "./inputs.js";

export type { TrackResult };

export interface TrackOptions extends StageTrackOptions, InputOptions {}

/**
 * `inputs`: release files or package folders, versions (`2.1.112`), ranges (`2.1.110-2.1.112`) and folders of
 * releases (a versions folder, fetch's cache) — what the CLI's `track` takes, resolved the same way.
 */
export async function track(inputs: string[], options: TrackOptions): Promise<TrackResult> {
  const { platform: _p, releaseCache: _c, ...rest } = options;
  // The output first: nothing is fetched or lifted for an output that would be refused.
  checkOutput(options.out, "track");
  return trackReleases(await resolveApiInputs(inputs, "track", options, { ranges: true, folders: true }), rest);
}

/** What track takes when given nothing: the versions folder, other installs, or the bundled samples (and a note). */
export const defaultInputs = defaultTrackInputs;
