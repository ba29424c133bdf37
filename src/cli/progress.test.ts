import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cliProgress, HEARTBEAT_MS, type ProgressSink } from "./progress.js";

/** A stream that keeps what is written, as a log file or a terminal would receive it. */
function sink(tty: boolean): ProgressSink & { text: string } {
  const s = { text: "", isTTY: tty, columns: 60, write: (t: string) => (s.text += t) };
  return s;
}

describe("cliProgress", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubEnv("SEARCHLIFT_QUIET", "");
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it("without a terminal: a line per event, and the stage again with its seconds while nothing comes", () => {
    const out = sink(false);
    const p = cliProgress({ stream: out, now: Date.now });
    p.onProgress({ stage: "verify", message: "verifying on 2000 cases" });
    expect(out.text).toBe("searchlift: verify: verifying on 2000 cases\n");
    vi.advanceTimersByTime(HEARTBEAT_MS - 1000);
    expect(out.text.split("\n")).toHaveLength(2);
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(out.text).toBe(
      "searchlift: verify: verifying on 2000 cases\n" +
        "searchlift: verify, 10 s: verifying on 2000 cases\n" +
        "searchlift: verify, 20 s: verifying on 2000 cases\n",
    );
    // An event resets the wait; a new count starts the stage's clock again.
    p.onProgress({ stage: "track", message: "lifted 0.3.0 (npm)", done: 1, total: 4 });
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(out.text.split("\n").slice(-3, -1)).toEqual([
      "searchlift: track 1/4: lifted 0.3.0 (npm)",
      "searchlift: track 1/4, 10 s: lifted 0.3.0 (npm)",
    ]);
    // Once the run is over, nothing more is written, however long the process lives.
    p.end();
    const before = out.text;
    vi.advanceTimersByTime(5 * HEARTBEAT_MS);
    expect(out.text).toBe(before);
  });

  it("a count advancing within a step: redrawn on a terminal; elsewhere carried by the 10 s line, its clock kept", () => {
    const cases = (done: number, message = "0.7.0: verifying on 2000 cases") => ({ stage: "verify" as const, message, done, total: 2000 });
    const log = sink(false);
    const p = cliProgress({ stream: log, now: Date.now });
    p.onProgress(cases(0));
    vi.advanceTimersByTime(4000);
    p.onProgress(cases(100));
    vi.advanceTimersByTime(4000);
    p.onProgress(cases(200));
    // Two releases verified at once (check): each one's advances are advances, not new steps.
    p.onProgress(cases(0, "0.5.0: verifying on 2000 cases"));
    p.onProgress(cases(300));
    p.onProgress(cases(100, "0.5.0: verifying on 2000 cases"));
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(log.text).toBe(
      "searchlift: verify 0/2000: 0.7.0: verifying on 2000 cases\n" +
        "searchlift: verify 0/2000: 0.5.0: verifying on 2000 cases\n" +
        "searchlift: verify 100/2000, 10 s: 0.5.0: verifying on 2000 cases\n",
    );
    // The end of a count is a line of its own.
    p.onProgress(cases(2000, "0.7.0: 2000/2000 cases agree"));
    expect(log.text.endsWith("searchlift: verify 2000/2000: 0.7.0: 2000/2000 cases agree\n")).toBe(true);
    p.end();

    const term = sink(true);
    const t = cliProgress({ stream: term, now: Date.now });
    t.onProgress(cases(0));
    vi.advanceTimersByTime(5000);
    t.onProgress(cases(100));
    expect(term.text.endsWith("\r\x1b[Kverify 100/2000, 5 s: 0.7.0: verifying on 2000 cases")).toBe(true);
    t.end();
  });

  it("on a terminal: one line rewritten in place, cut to the terminal's width, cleared at the end", () => {
    const out = sink(true);
    const p = cliProgress({ stream: out, now: Date.now });
    p.onProgress({ stage: "lift", message: "reading" });
    expect(out.text).toBe("\r\x1b[Klift: reading");
    vi.advanceTimersByTime(3000);
    expect(out.text.endsWith("\r\x1b[Klift, 3 s: reading")).toBe(true);
    p.onProgress({ stage: "verify", message: "x".repeat(200) });
    const last = out.text.slice(out.text.lastIndexOf("\r\x1b[K") + 4);
    expect(last.length).toBeLessThan(60);
    expect(last.endsWith("…")).toBe(true);
    // A note stays: the live line is cleared, the note written, the live line drawn again below it.
    p.note("note: tracking 4 releases");
    expect(out.text).toContain("\r\x1b[Knote: tracking 4 releases\n\r\x1b[Kverify: ");
    p.end();
    expect(out.text.endsWith("\r\x1b[K")).toBe(true);
    expect(out.text).not.toContain("\n\n");
    // A terminal that gives no width (script(1), some CI terminals) is taken as 80 columns.
    const narrow = sink(true);
    narrow.columns = 0;
    cliProgress({ stream: narrow, now: Date.now }).onProgress({ stage: "lift", message: "reading" });
    expect(narrow.text).toBe("\r\x1b[Klift: reading");
  });

  it("--quiet, or SEARCHLIFT_QUIET=1: no progress at all; notes still", () => {
    const quiet = (make: (out: ProgressSink) => ReturnType<typeof cliProgress>) => {
      const out = sink(false);
      const q = make(out);
      q.onProgress({ stage: "lift", message: "reading" });
      vi.advanceTimersByTime(3 * HEARTBEAT_MS);
      q.note("note: chose X");
      q.end();
      return out.text;
    };
    expect(quiet((stream) => cliProgress({ stream, quiet: true }))).toBe("note: chose X\n");
    vi.stubEnv("SEARCHLIFT_QUIET", "1");
    expect(quiet((stream) => cliProgress({ stream }))).toBe("note: chose X\n");
  });
});
