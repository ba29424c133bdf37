/**
 * Progress of a library call: every stage takes `onProgress` in its options and calls it as it goes (the CLI
 * prints these events on stderr). Events are for people: `message` is one line of text; `done`/`total` count
 * the stage's items (releases, inputs) where it has several.
 */
export type Stage = "locate" | "lift" | "verify" | "diff" | "track" | "history" | "fetch" | "check";

export interface ProgressEvent {
  stage: Stage;
  message: string;
  done?: number;
  total?: number;
}

export type OnProgress = (event: ProgressEvent) => void;

export interface ProgressOptions {
  /** Called as the stage goes; an exception thrown here is not caught. */
  onProgress?: OnProgress;
}

/**
 * Set to "1" in a child searchlift's environment (track's lifts): its progress events go to stderr as JSON
 * lines, `{"progress": event}`, and nothing else does, so the parent can tell them on as its own.
 */
export const PROGRESS_JSON = "SEARCHLIFT_PROGRESS_JSON";
