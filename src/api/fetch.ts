/**
 * Library `fetch`: Claude Code releases from the npm registry (through the user's npm), integrity-checked and cached.
 */
import { fetchReleases, type FetchOptions as StageFetchOptions, type FetchResult } from "../fetch/fetch.js";
import type { ProgressOptions } from "../progress.js";

export type { FetchResult };

export interface FetchOptions extends ProgressOptions, Omit<StageFetchOptions, "progress"> {}

/** `spec`: `latest` or another dist-tag, a version, `2.1.100-2.1.112`, or a semver range. */
export function fetch(spec: string, options: FetchOptions = {}): Promise<FetchResult> {
  const { onProgress, ...rest } = options;
  return fetchReleases(spec, {
    ...rest,
    ...(onProgress ? { progress: (message: string) => onProgress({ stage: "fetch", message }) } : {}),
  });
}
