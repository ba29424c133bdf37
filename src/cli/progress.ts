/**
 * How a command shows where its time goes, on stderr only (stdout stays the command's result, byte for byte
 * the same from run to run). On a terminal: one live line, rewritten in place, with the stage, its counts and
 * the seconds the stage has run. Elsewhere (CI, a pipe, a log file): a plain line at each event, and while a
 * stage runs with no event, the same line again with its seconds at least every 10 s, so a log shows which
 * stage a slow run was in. A count that only advances within a step (verification's cases done, told every 100
 * cases) redraws the terminal's line but prints no line of its own elsewhere: the 10 s line carries it. `--quiet`
 * (or SEARCHLIFT_QUIET=1) silences progress; notes (what the command chose, what an input resolved to), warnings
 * and errors still go to stderr.
 */
import { messageLine } from "../safe-text.js";
import { PROGRESS_JSON, type OnProgress, type ProgressEvent } from "../progress.js";

/** Without a terminal, a stage that has printed nothing for this long is printed again (with its seconds). */
export const HEARTBEAT_MS = 10_000;

export interface CliProgress {
  /** The library's progress events, shown as above. */
  onProgress: OnProgress;
  /** A line that stays (what the command chose for the user, what an input resolved to), written as given. */
  note(line: string): void;
  /** The run is over (or failed): the live line is cleared and the heartbeat stopped. Safe to call twice. */
  end(): void;
}

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliProgressOptions {
  /** --quiet; SEARCHLIFT_QUIET=1 in the environment is the same for every command. */
  quiet?: boolean;
  /** Where lines go (default process.stderr); its isTTY picks the live line or plain lines. */
  stream?: ProgressSink;
  /** The clock, for the seconds shown (tests pass their own with fake timers). */
  now?: () => number;
}

/** The reporter a command's long work reports through. */
export function cliProgress(options: CliProgressOptions = {}): CliProgress {
  const out = options.stream ?? process.stderr;
  // A parent searchlift (track's child lifts) reads the events themselves, one JSON line each, from this stream.
  if (process.env[PROGRESS_JSON] === "1")
    return { onProgress: (e) => out.write(`${JSON.stringify({ progress: e })}\n`), note: () => {}, end: () => {} };
  if (options.quiet || process.env.SEARCHLIFT_QUIET === "1")
    return { onProgress: () => {}, note: (line) => out.write(`${line}\n`), end: () => {} };
  const now = options.now ?? Date.now;
  const tty = out.isTTY === true;
  let current: { event: ProgressEvent; since: number } | null = null;
  // When each step now counting began (a step: its stage, words and total), so that an advance of its count keeps
  // the step's clock and is known as an advance even when two steps alternate (check lifts two releases at once).
  const steps = new Map<string, { since: number; done: number }>();
  let lastPrinted = 0;
  let live = false;
  let timer: ReturnType<typeof setInterval> | null = null;

  const text = (e: ProgressEvent, seconds: number | null) => {
    const count = e.total ? ` ${e.done ?? 0}/${e.total}` : "";
    // The seconds are the stage's so far (since its last count): "verify, 20 s: verifying on 2000 cases".
    return `${e.stage}${count}${seconds === null ? "" : `, ${seconds} s`}: ${messageLine(e.message)}`;
  };
  const elapsed = () => (current ? Math.floor((now() - current.since) / 1000) : 0);
  const draw = () => {
    if (!current) return;
    const s = elapsed();
    let line = text(current.event, s >= 2 ? s : null);
    // A line wider than the terminal wraps, and \r then rewrites only its last row.
    const width = (out.columns || 80) - 1;
    if (line.length > width) line = line.slice(0, Math.max(0, width - 1)) + "…";
    out.write(`\r\x1b[K${line}`);
    live = true;
  };
  const clear = () => {
    if (live) out.write("\r\x1b[K");
    live = false;
  };
  const tick = () => {
    if (!current) return;
    if (tty) draw();
    else if (now() - lastPrinted >= HEARTBEAT_MS) {
      out.write(`searchlift: ${text(current.event, elapsed())}\n`);
      lastPrinted = now();
    }
  };
  const start = () => {
    if (timer) return;
    // A terminal's line counts its seconds; a log gets a line when the stage has been silent for HEARTBEAT_MS.
    timer = setInterval(tick, tty ? 1000 : Math.min(1000, HEARTBEAT_MS));
    // Progress never keeps a finished command alive.
    timer.unref?.();
  };

  return {
    onProgress(e) {
      const key = e.total ? `${e.stage}\0${e.total}\0${e.message}` : null;
      const step = key === null ? undefined : steps.get(key);
      // An advance: a step seen before whose count moved on, short of its end.
      const advance = step !== undefined && e.done !== undefined && e.done > step.done && e.done < e.total!;
      // A new stage (or a new count) starts its clock; more words within the same step, or its count's advance, keep it.
      const same = current && current.event.stage === e.stage && current.event.done === e.done;
      const since = advance ? step.since : same ? current!.since : now();
      current = { event: e, since };
      if (key !== null) {
        if (steps.size >= 64 && !step) steps.clear();
        steps.set(key, { since, done: e.done ?? 0 });
      }
      if (tty) draw();
      else if (!advance) {
        out.write(`searchlift: ${text(e, null)}\n`);
        lastPrinted = now();
      }
      start();
    },
    note(line) {
      clear();
      out.write(`${line}\n`);
      lastPrinted = now();
      if (tty) draw();
    },
    end() {
      if (timer) clearInterval(timer);
      timer = null;
      current = null;
      clear();
    },
  };
}
