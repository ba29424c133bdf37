/**
 * Library `track`: lift every release given, group them by routine and write the timeline folder.
 */
import { defaultTrackInputs } from "../inputs/default-inputs.js";
import { track as trackReleases, type TrackOptions, type TrackResult } from "../track/track.js";

export type { TrackOptions, TrackResult };

/** `inputs`: release files or package folders (a folder of releases is listed with `listReleases`). */
export function track(inputs: string[], options: TrackOptions): Promise<TrackResult> {
  return trackReleases(inputs, options);
}

/** What track takes when given nothing: the versions folder, other installs, or the bundled samples (and a note). */
export const defaultInputs = defaultTrackInputs;
