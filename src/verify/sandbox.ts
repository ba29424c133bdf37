/**
 * Run untrusted JavaScript (code extracted from a client binary) with no way to reach the host.
 *
 * Two layers:
 * 1. A child `node` process under Node's permission model, started by `node -e <runner>` with no
 *    `--allow-fs-read` at all (the runner, runner/child.ts compiled, is passed as text, so the child needs
 *    no file), and none of the
 *    other grants: no file writes, no child processes, no workers, no addons (and no network where the
 *    Node version's permission model covers it, 25+). It gets an empty environment, a V8 heap limit
 *    (`--max-old-space-size`), a wall-clock limit after which it is killed with SIGKILL, and on Linux a
 *    resident-memory watchdog (memory outside the V8 heap, such as ArrayBuffers, is not bounded by the
 *    heap limit).
 * 2. Inside the child, the code runs in a fresh vm context holding only JavaScript built-ins (see
 *    runner/child.ts). Calls and results cross as JSON text only; each call has a CPU timeout that covers
 *    sync code and promise jobs, so one runaway call fails alone and the next calls still run.
 *
 * What comes back is bounded where it crosses: inside the child, an error's description is cut at
 * MAX_ERROR_CHARS characters and a result whose JSON is over MAX_RESULT_CHARS is not sent (limit "result"); here,
 * a child's output is read as bytes, a line over MAX_LINE_BYTES is never buffered whole (the child is killed,
 * kind "output"), and a child's output over maxOutputBytes (default 64 MiB) kills it too. So a caller holds at
 * most maxOutputBytes of one child's results, whatever the code does.
 *
 * Whether the sandbox stopped a call travels in its own field, CallResult's `limit`, written only by the
 * sandbox's code (this module and the child's own, never the untrusted code's), and never read from an error's
 * text: an error message that copies "timed out: …" or "not run: …" stays an error of the code.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { mallocEnv } from "./malloc-env.js";
import { sandboxNodeArgs, nodeVersion, assertSandboxable, lastLines } from "./sandbox-node.js";
import { argLine, asciiJsonLine } from "./sandbox-wire.js";

export interface SandboxCall {
  /** A property of `globalThis.__searchlift`: a function (called with `args`, awaited), or, with no args, any
   *  other value (returned as is, e.g. `defaults`). */
  fn: string;
  args: unknown[];
}

/**
 * Why the sandbox, not the code, ended a call: a failure kind of its child (see SandboxFailure; "timeout" also
 * for a call over its CPU time), "stack" (the call overflowed the stack: it depends on the sandbox's stack),
 * "result" (its result's JSON is over MAX_RESULT_CHARS), "not-run" (a child died before it ran, or the caller's
 * signal stopped the run) or "gave-up" (not run: maxTimeouts calls before it timed out or overflowed the stack).
 */
export type CallLimit = SandboxFailureKind | "stack" | "result" | "not-run" | "gave-up";

const CALL_LIMITS: ReadonlySet<string> = new Set<CallLimit>([
  "timeout",
  "memory",
  "output",
  "crash",
  "protocol",
  "stack",
  "result",
  "not-run",
  "gave-up",
]);

/** A call's outcome. `error` is words (cut at MAX_ERROR_CHARS); `limit`, when present, says the sandbox stopped it. */
export type CallResult = { ok: true; value: unknown } | { ok: false; error: string; limit?: CallLimit };

/**
 * Characters of an error's description the child keeps (the rest is cut, saying how many): a message that quotes
 * its input stays whole (an invalid regular expression made from a 64 KB probe query is 65 KB). Calls that all
 * throw the longest fill a child's 64 MiB of output after 256 of them: that child is stopped there (kind
 * "output", a limit), rather than holding more.
 */
export const MAX_ERROR_CHARS = 256 * 1024;
/** Characters of a call's result as JSON at most (a ranking of thousands of tools is a few hundred KB); a larger
 *  result is not sent and the call fails with limit "result". */
export const MAX_RESULT_CHARS = 1024 * 1024;
/** Bytes of one line a child may write: a result at its limit, each UTF-16 unit as up to 3 bytes of UTF-8, and
 *  its envelope. A longer line is not a line the runner writes: the child is killed (kind "output"). */
export const MAX_LINE_BYTES = 3 * MAX_RESULT_CHARS + 64 * 1024;

export interface SandboxOptions {
  /** Wall-clock limit for one child process (script evaluation and all calls), in ms. Default 60 000. */
  timeoutMs?: number;
  /** V8 heap limit of the child (`--max-old-space-size`), in MB. Default 256. On Linux the child is also
   *  killed when its resident memory exceeds 2 × memoryMb + 128 MB. */
  memoryMb?: number;
  /** CPU limit for one call inside the vm (sync code and promise jobs), in ms. Default 5 000. */
  callTimeoutMs?: number;
  /** CPU limit for evaluating the script, in ms. Default 30 000. */
  scriptTimeoutMs?: number;
  /** Give the context deterministic in-context `setTimeout`/`setImmediate`/`setInterval`/`queueMicrotask`
   *  (a virtual clock, run between evaluations) for code that yields through timers. Default false: no timers. */
  virtualTimers?: boolean;
  /** After the child dies (timeout, memory, crash), run the calls after the one in progress in a new child,
   *  at most this many times. Default 0: the remaining calls fail with the same error. */
  restarts?: number;
  /** Limit on the child's stdout, in bytes; the child is killed beyond it (kind "output"). Default 64 MiB: a
   *  verification batch of 6000 calls writes about 2 MB. What a caller holds of one child's results is under it. */
  maxOutputBytes?: number;
  /** The node executable. Default: the running one. */
  nodePath?: string;
  /** After this many calls time out or overflow the stack, the remaining calls are not run (they fail with
   *  "not run: …", limit "gave-up"). Default 0: every call runs. */
  maxTimeouts?: number;
  /** Stops the run when aborted: the child running is killed (its call fails with limit "timeout", the rest
   *  with "not-run"), and no other child starts. For a caller's overall time bound. */
  signal?: AbortSignal;
  /** Let V8 compile the child's hottest functions with TurboFan. Default true. A child that runs a few
   *  thousand short calls once spends more CPU compiling them than the compiled code saves. */
  turbofan?: boolean;
  /** The young generation's semi-space limit (`--max-semi-space-size`), in MB. Default: V8's (16 MB on 64-bit). */
  semiSpaceMb?: number;
  /** Told the number of calls answered so far (of those passed to runInSandbox) each time it reaches a multiple of
   *  `resultsEvery` (default 100): a count for progress, at a cost bounded by the calls, not paid per call. */
  onResults?: (answered: number) => void;
  resultsEvery?: number;
}

export type SandboxFailureKind = "timeout" | "memory" | "output" | "crash" | "protocol";

export interface SandboxFailure {
  kind: SandboxFailureKind;
  message: string;
  /** Index (into the calls passed to runInSandbox) of the call in progress; -1 while evaluating the script. */
  atCall: number;
}

export interface SandboxResult {
  /** One entry per call, in order. Calls that could not run carry the failure's message. */
  results: CallResult[];
  /** The script threw while being evaluated (each call then fails with "script failed: …"). */
  scriptError?: string;
  /** The first child that died or was killed, if any. */
  failure?: SandboxFailure;
  /** Number of child processes started (after a failure, one more runs the calls one per evaluation to find
   *  the call that caused it). */
  children: number;
  durationMs: number;
}

const DEFAULTS = {
  timeoutMs: 60_000,
  memoryMb: 256,
  callTimeoutMs: 5_000,
  scriptTimeoutMs: 30_000,
  maxOutputBytes: 64 * 1024 * 1024,
};

interface ChildOutcome {
  scriptError?: string;
  results: CallResult[];
  failure?: SandboxFailure;
}

/** Evaluate `script` in the sandbox, then make each call (awaited) in order. Never throws for anything the
 *  script does; a bad option, a node executable that is missing or whose permission model does not hold
 *  (see assertSandboxable) rejects. */
export async function runInSandbox(script: string, calls: SandboxCall[], options: SandboxOptions = {}): Promise<SandboxResult> {
  const t0 = performance.now();
  await assertSandboxable(options.nodePath ?? process.execPath);
  const results: CallResult[] = [];
  let scriptError: string | undefined;
  let failure: SandboxFailure | undefined;
  let children = 0;
  let restartsLeft = options.restarts ?? 0;
  let careful = 0;
  const signal = options.signal;
  while (true) {
    const offset = results.length;
    if (signal?.aborted) {
      failure ??= { kind: "timeout", message: STOPPED, atCall: offset };
      while (results.length < calls.length) results.push({ ok: false, error: `not run: ${STOPPED}`, limit: "not-run" });
      break;
    }
    children++;
    const out = await runChild(script, calls.slice(offset), careful, options, offset);
    if (out.scriptError !== undefined && scriptError === undefined) scriptError = out.scriptError;
    for (const r of out.results) results.push(r);
    if (out.failure === undefined) break;
    // Calls run in batches, several per evaluation; a crash loses the batch's unwritten results. To blame the
    // right call, the rest of the batch runs again one call per evaluation (a diagnosis, not a restart).
    // (After a wall-clock kill this takes up to timeoutMs again.) An output kill is not repeated: the first
    // missing call is blamed.
    const repeatable = out.failure.kind !== "output" && out.failure.kind !== "protocol" && !signal?.aborted;
    if (careful === 0 && repeatable && out.failure.atCall >= 0 && results.length < calls.length) {
      careful = CAREFUL_CALLS;
      continue;
    }
    careful = 0;
    const atCall = out.failure.atCall < 0 ? -1 : offset + out.failure.atCall;
    failure ??= { ...out.failure, atCall };
    // The call in progress fails with the failure's message.
    if (results.length < calls.length) results.push({ ok: false, error: out.failure.message, limit: out.failure.kind });
    if (results.length < calls.length && restartsLeft > 0 && out.failure.atCall >= 0 && !signal?.aborted) {
      restartsLeft--;
      continue;
    }
    while (results.length < calls.length) results.push({ ok: false, error: `not run: ${out.failure.message}`, limit: "not-run" });
    break;
  }
  return {
    results,
    ...(scriptError !== undefined ? { scriptError } : {}),
    ...(failure !== undefined ? { failure } : {}),
    children,
    durationMs: performance.now() - t0,
  };
}

/** The failure's message when the caller's signal stopped the run. */
const STOPPED = "sandbox stopped: the caller's time bound was reached";

/** Calls run one per evaluation after a crash, to find the call that caused it (the runner's batch size). */
const CAREFUL_CALLS = 256;

/** One child's limits, resolved from the options and checked. */
interface ChildLimits {
  timeoutMs: number;
  memoryMb: number;
  maxOutputBytes: number;
}

/**
 * The request a child reads from stdin (runner/child.ts): a JSON header line, then one line per argument list,
 * all in ASCII, as the buffers to write (the argument lines shared between children, not copied for each).
 * Serialised before anything starts, so arguments that are not JSON fail here, in the caller. Calls that pass
 * the same argument list (the same array) send it once.
 */
function childRequest(
  script: string,
  calls: SandboxCall[],
  careful: number,
  options: SandboxOptions,
): { request: Buffer[]; limits: ChildLimits } {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const memoryMb = options.memoryMb ?? DEFAULTS.memoryMb;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULTS.callTimeoutMs;
  const scriptTimeoutMs = options.scriptTimeoutMs ?? DEFAULTS.scriptTimeoutMs;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULTS.maxOutputBytes;
  for (const [k, v] of Object.entries({ timeoutMs, callTimeoutMs, scriptTimeoutMs, maxOutputBytes }))
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${k} must be a positive number, got ${v}`);
  const table: unknown[][] = [];
  const index = new Map<unknown[], number>();
  const lite = calls.map((c) => {
    let a = index.get(c.args);
    if (a === undefined) {
      a = table.length;
      table.push(c.args);
      index.set(c.args, a);
    }
    return { fn: c.fn, a };
  });
  const lines = table.map(argLine);
  const header = asciiJsonLine({
    script,
    calls: lite,
    callTimeoutMs: Math.ceil(callTimeoutMs),
    scriptTimeoutMs: Math.ceil(scriptTimeoutMs),
    virtualTimers: options.virtualTimers === true,
    carefulCalls: careful,
    maxTimeouts: options.maxTimeouts ?? 0,
    maxErrorChars: MAX_ERROR_CHARS,
    maxResultChars: MAX_RESULT_CHARS,
    bodyBytes: lines.reduce((n, line) => n + line.length, 0),
  });
  return { request: [header, ...lines], limits: { timeoutMs, memoryMb, maxOutputBytes } };
}

/** What a child has said so far, read line by line: the script's outcome, then one result per call, then done. */
class ChildMessages {
  readonly results: CallResult[] = [];
  scriptError: string | undefined;
  scriptDone = false;
  done = false;
  protocolError: string | undefined;

  constructor(
    private readonly calls: number,
    private readonly count?: { every: number; tell: (answered: number) => void },
  ) {}

  line(line: string): void {
    if (line === "") return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.protocolError ??= `protocol: unreadable line from the sandbox: ${line.slice(0, 200)}`;
      return;
    }
    if (!isRecord(msg)) {
      this.protocolError ??= "protocol: unexpected message from the sandbox";
      return;
    }
    if (!this.scriptDone) {
      this.scriptDone = true;
      if (msg["script"] === "error") this.scriptError = String(msg["error"]);
      else if (msg["script"] !== "ok") this.protocolError ??= "protocol: the sandbox did not report the script";
      return;
    }
    if (msg["done"] === true) {
      this.done = true;
      return;
    }
    if (this.results.length >= this.calls) {
      this.protocolError ??= "protocol: more results than calls";
      return;
    }
    if (this.scriptError !== undefined) this.results.push({ ok: false, error: `script failed: ${this.scriptError}` });
    else if (msg["ok"] === true) this.results.push({ ok: true, value: msg["value"] });
    else {
      // The runner's own field (the code's text cannot put one at the top level of a line: see runner/child.ts).
      const error = typeof msg["error"] === "string" ? msg["error"] : "error";
      const limit = msg["limit"];
      this.results.push(
        typeof limit === "string" && CALL_LIMITS.has(limit) ? { ok: false, error, limit: limit as CallLimit } : { ok: false, error },
      );
    }
    if (this.count && this.results.length % this.count.every === 0) this.count.tell(this.results.length);
  }

  /** The outcome once the child has closed: a kill, a protocol error or an early death is its failure. */
  outcome(
    killedFor: { kind: SandboxFailureKind; message: string } | undefined,
    code: number | null,
    signal: NodeJS.Signals | null,
    stderr: string,
    memoryMb: number,
  ): ChildOutcome {
    const { results, scriptError } = this;
    const atCall = this.scriptDone ? results.length : -1;
    let failure: SandboxFailure | undefined;
    if (killedFor !== undefined && !(this.done && results.length === this.calls)) {
      failure = { ...killedFor, atCall };
    } else if (this.protocolError !== undefined) {
      failure = { kind: "protocol", message: this.protocolError, atCall };
    } else if (!this.done || results.length !== this.calls) {
      const oom = /heap out of memory|Reached heap limit|Allocation failed/i.test(stderr);
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      failure = oom
        ? { kind: "memory", message: `sandbox died: out of memory (heap limit ${memoryMb} MB)`, atCall }
        : { kind: "crash", message: `sandbox died (${how})${stderr.trim() ? `: ${lastLines(stderr)}` : ""}`, atCall };
    }
    return { results, ...(scriptError !== undefined ? { scriptError } : {}), ...(failure ? { failure } : {}) };
  }
}

/** The wall-clock limit and, on Linux, the resident-memory watchdog of one child; returns their stopper. */
function watchChild(
  child: ChildProcess,
  { timeoutMs, memoryMb }: ChildLimits,
  kill: (kind: SandboxFailureKind, message: string) => void,
): () => void {
  const wall = setTimeout(() => kill("timeout", `sandbox killed: wall-clock limit of ${timeoutMs} ms exceeded`), timeoutMs);
  const rssLimitKb = (2 * memoryMb + 128) * 1024;
  const watch =
    process.platform === "linux"
      ? setInterval(() => {
          const kb = residentKb(child.pid);
          if (kb !== undefined && kb > rssLimitKb)
            kill(
              "memory",
              `sandbox killed: resident memory ${Math.round(kb / 1024)} MB exceeds ${rssLimitKb / 1024} MB (memoryMb ${memoryMb})`,
            );
        }, 25)
      : undefined;
  return () => {
    clearTimeout(wall);
    if (watch) clearInterval(watch);
  };
}

function runChild(script: string, calls: SandboxCall[], careful: number, options: SandboxOptions, offset: number): Promise<ChildOutcome> {
  const { request, limits } = childRequest(script, calls, careful, options);
  const nodePath = options.nodePath ?? process.execPath;
  const args = [...sandboxNodeArgs(limits.memoryMb, nodeVersion(nodePath), options), "--input-type=module", "-e", runnerSource()];
  // The release's code sees none of the user's environment: only how glibc's allocator is tuned (malloc-env.ts).
  const env: Record<string, string> = mallocEnv();
  if (process.platform === "win32" && process.env["SystemRoot"]) env["SystemRoot"] = process.env["SystemRoot"];

  return new Promise<ChildOutcome>((resolve, reject) => {
    const child = spawn(nodePath, args, { stdio: ["pipe", "pipe", "pipe"], env, windowsHide: true });
    if (!killingOnExit) process.on("exit", killSandboxChildren);
    killingOnExit = true;
    liveChildren.add(child);
    child.on("exit", () => liveChildren.delete(child));
    const { onResults } = options;
    const every = Math.max(1, Math.floor(options.resultsEvery ?? 100));
    const messages = new ChildMessages(calls.length, onResults ? { every, tell: (n) => onResults(offset + n) } : undefined);
    let killedFor: { kind: SandboxFailureKind; message: string } | undefined;
    // The line being read, as the chunks that hold it so far (bytes: a newline never occurs inside a UTF-8
    // sequence, so each line decodes on its own), never more than MAX_LINE_BYTES of them.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let outBytes = 0;
    let stderr = "";
    const kill = (kind: SandboxFailureKind, message: string) => {
      if (killedFor === undefined) killedFor = { kind, message };
      child.kill("SIGKILL");
    };
    const stopWatching = watchChild(child, limits, kill);
    const onAbort = () => kill("timeout", STOPPED);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    child.stdout.on("data", (chunk: Buffer) => {
      // Past an output kill nothing more is read (lines written before another kill still count).
      if (killedFor?.kind === "output") return;
      outBytes += chunk.length;
      if (outBytes > limits.maxOutputBytes) {
        kill("output", `sandbox killed: output over ${limits.maxOutputBytes} bytes`);
        return;
      }
      let from = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
        if (pendingBytes + nl - from > MAX_LINE_BYTES) break;
        const part = chunk.subarray(from, nl);
        messages.line((pending.length === 0 ? part : Buffer.concat([...pending, part])).toString("utf8"));
        pending = [];
        pendingBytes = 0;
        from = nl + 1;
      }
      if (pendingBytes + chunk.length - from > MAX_LINE_BYTES) {
        pending = [];
        kill("output", `sandbox killed: a line of its output is over ${MAX_LINE_BYTES} bytes`);
        return;
      }
      if (from < chunk.length) {
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk.slice(0, 64 * 1024 - stderr.length);
    });
    // The child may die before reading all of stdin (e.g. killed); that is reported from "close".
    child.stdin.on("error", () => {});
    child.on("error", (err) => {
      stopWatching();
      options.signal?.removeEventListener("abort", onAbort);
      reject(new Error(`cannot start the sandbox (${nodePath}): ${err.message}`));
    });
    child.on("close", (code, signal) => {
      stopWatching();
      options.signal?.removeEventListener("abort", onAbort);
      if (pending.length > 0 && killedFor?.kind !== "output") messages.line(Buffer.concat(pending).toString("utf8"));
      resolve(messages.outcome(killedFor, code, signal, stderr, limits.memoryMb));
    });
    // Corked, the lines go to the pipe in one writev, from the buffers as they are.
    child.stdin.cork();
    for (const b of request) child.stdin.write(b);
    child.stdin.end();
  });
}

let runnerText: string | undefined;

/** The child's program, runner/child.ts: compiled beside this module in dist/; run from the sources (the
 *  tests), transpiled here with TypeScript (a dev dependency) so that it is never a stale build. Read once. */
function runnerSource(): string {
  if (runnerText !== undefined) return runnerText;
  const compiled = new URL("./runner/child.js", import.meta.url);
  if (existsSync(compiled)) return (runnerText = readFileSync(compiled, "utf8"));
  const source = readFileSync(new URL("./runner/child.ts", import.meta.url), "utf8");
  const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
  const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext };
  return (runnerText = ts.transpileModule(source, { compilerOptions: options }).outputText);
}

/** Sandbox children still running, so that a host about to exit can take them along: one that exits while they
 *  run (a command that failed meanwhile) kills them as it goes. */
const liveChildren = new Set<ChildProcess>();
let killingOnExit = false;

/** SIGKILL every sandbox child this process started that is still running (its host is going away). */
export function killSandboxChildren(): void {
  for (const c of liveChildren) c.kill("SIGKILL");
}

function residentKb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
