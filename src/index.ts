/**
 * searchlift as a library: every stage the CLI runs, each an async function taking an options object with an
 * `onProgress` callback (src/progress.ts). Failures are SearchliftError, whose `exitCode` is the CLI's.
 */
export { openContainer } from "./extract/open-container.js";
export type { Container, ContainerFormat, ModuleEntry, ModuleKind, ModuleFormat, Encoding } from "./extract/types.js";
export { SearchliftError, ExitCode } from "./errors.js";
export type { ProgressEvent, OnProgress, ProgressOptions, Stage } from "./progress.js";
export { locate, type LocateOptions, type RoutineResult } from "./api/locate.js";
export { lift, type LiftOptions, type LiftResult } from "./api/lift.js";
export { diff, type DiffOptions, type DiffResult } from "./api/diff.js";
export { track, defaultInputs, type TrackOptions, type TrackResult } from "./api/track.js";
export { history, type HistoryOptions, type HistoryResult, type HistoryTimes } from "./api/history.js";
export { fetch, type FetchOptions, type FetchResult } from "./api/fetch.js";
export {
  check,
  clientTool,
  defaultQueries,
  type CheckInput,
  type CheckReleasesInput,
  type CheckOptions,
  type CheckResult,
  type ClientTool,
  type ListedTool,
  type Query,
  parseExpect,
  readExpectationsFile,
  resolveExpectations,
  readBaselineFile,
  type Expectation,
  type ExpectationSpec,
  type ExpectationResult,
  type ExpectationOutcome,
  type Baseline,
  type BaselineItem,
  type BaselineCell,
  type SavedCheck,
  type MissedItem,
  type MissedExplained,
  type MissedTerm,
  type Edit,
  type EditKind,
  type ExpectationSuggestions,
  type Suggestion,
} from "./api/check.js";
export { listReleases } from "./inputs/release-folder.js";
export type { Release, Timeline, Group, Change } from "./track/timeline.js";
