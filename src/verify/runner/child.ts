/**
 * The program the sandbox child runs (sandbox.ts starts it): real TypeScript, compiled with the rest, and
 * sent as text. The child is started as `node --input-type=module -e <this file compiled>` with no
 * `--allow-fs-read` whatsoever, so it needs no file, and this module imports only node: built-ins.
 *
 * Protocol. stdin: a JSON header line `{ script, calls: [{ fn, a }], callTimeoutMs, scriptTimeoutMs,
 * virtualTimers, carefulCalls, maxTimeouts, maxErrorChars, maxResultChars, bodyBytes }`, then one line per
 * argument list, each a JSON array ending in a newline, bodyBytes in all; all of it is ASCII (characters past it
 * are escaped). A call's `a` is the index of its line (calls with the same argument list share it; each call
 * still gets its own copy). Each line goes into the context as it is, a primitive string, never parsed here.
 * stdout: newline-delimited JSON, written synchronously as each step ends (so a crash is attributed to the call
 * that caused it):
 *   {"script":"ok"} | {"script":"error","error":"…"}     once, after evaluating the script
 *   {"ok":true,"value":…} | {"ok":false,"error":"…"}    once per call, in order
 *   {"ok":false,"error":"…","limit":"…"}               a call the sandbox stopped (instead of the above)
 *   {"done":true}                                        last
 * `limit` is the status channel: "timeout" (the call's CPU time), "stack" (a stack overflow), "result" (its
 * JSON over maxResultChars), "gave-up" (not run: maxTimeouts calls before it timed out or overflowed the stack).
 * Only this program's own code writes it (the driver's envelopes are built around the code's JSON, see
 * callQueue), never from an error's text; `error` is words for people, cut at maxErrorChars characters.
 *
 * Inside the child, the untrusted code runs in a fresh vm context whose global object is created from a
 * null-prototype object, so it holds only the JavaScript built-ins: no `process`, `require`, `fetch`,
 * timers, `console`, `Buffer`. Data crosses the boundary only as JSON text: arguments go in as primitive
 * strings, one per argument list, passed to the driver's own `args`, and results are serialised by `JSON.stringify` inside the
 * context and read back as a primitive string. Promise jobs run in the context's own microtask queue
 * (`microtaskMode: "afterEvaluate"`), which is drained at the end of each evaluation and counted in its
 * CPU timeout, so async functions settle inside the vm and a promise-job loop is stopped like a sync one.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as util from "node:util";
import * as vm from "node:vm";

// ---- In the context: the driver --------------------------------------------------------------------------
//
// Evaluated first in the context, before the untrusted script: it captures the built-ins it relies on before
// that script can replace them, and defines the driver the host steps through under a random, non-writable,
// non-configurable global. These functions never run in this module: their source text
// (Function.prototype.toString) is sent into the context (driverSource), so each may use only its parameters
// and the context's own built-ins, nothing of this module's scope. Inside them, calls go through the captured
// `apply` and methods, and nothing iterates (no spread, for-of or array destructuring), because the untrusted
// script may replace Array.prototype[Symbol.iterator], push, then, JSON and the rest after the driver ran.

/** The built-ins the driver captures before the untrusted script runs. */
interface Intrinsics {
  apply: typeof Reflect.apply;
  then: typeof Promise.prototype.then;
  resolve: typeof Promise.resolve;
  PromiseC: PromiseConstructor;
  stringify: typeof JSON.stringify;
  parse: typeof JSON.parse;
  StringC: StringConstructor;
  defineProperty: typeof Object.defineProperty;
  freeze: typeof Object.freeze;
  push: typeof Array.prototype.push;
  splice: typeof Array.prototype.splice;
  dateNow: typeof Date.now;
  slice: typeof String.prototype.slice;
  getPrototypeOf: typeof Object.getPrototypeOf;
  getOwnPropertyDescriptor: typeof Object.getOwnPropertyDescriptor;
  rangeErrorProto: RangeError;
}

/** What the driver cuts at (the host states the numbers: sandbox.ts, in the request's header). */
interface Caps {
  /** Characters of an error's description kept; the rest is cut, saying how much. */
  errorChars: number;
  /** Characters of a result's JSON at most; a larger result is not sent (limit "result"). */
  resultChars: number;
}

// The realm's globals and thrown values as untrusted code left them: any shape, read defensively.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Global = Record<string, any>;

/** A value thrown by untrusted code as one line of text, with its getters run inside the context, cut at
 *  caps.errorChars characters. */
function errorDescriber(I: Intrinsics, caps: Caps): (e: unknown) => string {
  function cut(s: string): string {
    if (s.length <= caps.errorChars) return s;
    return I.apply(I.slice, s, [0, caps.errorChars]) + "... (" + (s.length - caps.errorChars) + " more characters cut by the sandbox)";
  }
  return function describe(e: unknown): string {
    return cut(describeWhole(e));
  };
  function describeWhole(e: unknown): string {
    try {
      if (e !== null && (typeof e === "object" || typeof e === "function")) {
        let name: unknown = "";
        let msg: unknown;
        try {
          name = (e as Global).name;
        } catch {
          // a throwing getter: described without its name
        }
        try {
          msg = (e as Global).message;
        } catch {
          // a throwing getter: described as a thrown value below
        }
        if (typeof msg === "string") return (typeof name === "string" && name ? name + ": " : "") + msg;
      }
      return "thrown: " + I.StringC(e);
    } catch {
      return "thrown: (a value that cannot be printed)";
    }
  }
}

interface Timer {
  id: number;
  due: number;
  every: number;
  fn: (...args: unknown[]) => unknown;
  args: unknown[];
}

/** Virtual timers (opt-in): a deterministic queue inside the context, run by the host between evaluations. */
function virtualClock(I: Intrinsics, G: Global) {
  const timers: Timer[] = [];
  let seq = 0;
  let now = 0;
  function addTimer(fn: unknown, ms: unknown, args: unknown[], repeat: boolean): number {
    if (typeof fn !== "function") throw new TypeError("callback must be a function");
    let d = +(ms as number);
    if (!(d >= 1)) d = repeat ? 1 : 0;
    const t: Timer = { id: ++seq, due: now + d, every: repeat ? d : -1, fn: fn as Timer["fn"], args: args };
    I.apply(I.push, timers, [t]);
    return t.id;
  }
  function clearTimer(id: unknown): void {
    for (let i = 0; i < timers.length; i++)
      if (timers[i]!.id === id) {
        I.apply(I.splice, timers, [i, 1]);
        return;
      }
  }
  // Rest parameters build their array without the iterator protocol, so a replaced one cannot intervene.
  function install(): void {
    G.setTimeout = (fn: unknown, ms: unknown, ...args: unknown[]) => addTimer(fn, ms, args, false);
    G.setInterval = (fn: unknown, ms: unknown, ...args: unknown[]) => addTimer(fn, ms, args, true);
    G.setImmediate = (fn: unknown, ...args: unknown[]) => addTimer(fn, 0, args, false);
    G.clearTimeout = G.clearInterval = G.clearImmediate = clearTimer;
    G.queueMicrotask = (fn: () => void) => {
      // A job queued as the context's own promises queue theirs; it reports nothing back, so nothing awaits it.
      void I.apply(I.then, I.apply(I.resolve, I.PromiseC, []), [() => fn()]);
    };
  }
  /** Run the timer due first, moving the clock to its time; false when none is left. */
  function tick(): boolean {
    if (timers.length === 0) return false;
    let k = 0;
    for (let i = 1; i < timers.length; i++) {
      const a = timers[i]!;
      const b = timers[k]!;
      if (a.due < b.due || (a.due === b.due && a.id < b.id)) k = i;
    }
    const t = timers[k]!;
    if (t.due > now) now = t.due;
    if (t.every < 0) I.apply(I.splice, timers, [k, 1]);
    else t.due += t.every;
    try {
      I.apply(t.fn, undefined, t.args);
    } catch {
      // a timer callback's exception is the code's business, as in a host event loop
    }
    return true;
  }
  return { install, tick, pending: (): boolean => timers.length > 0 };
}

/** A call as the driver gets it: the function, and which of the chunk's argument texts it is called with. */
interface ChunkCall {
  fn: string;
  a: number;
}

interface Slot {
  done: boolean;
  out: string | null;
  /** The call overflowed the stack (see finish): a limit of the sandbox, not the code's answer. */
  stack: boolean;
}

/**
 * The calls of one chunk, run one after another, each starting when the previous one settled, within one
 * evaluation until a time slice is used up; results are collected as JSON lines and taken by the host
 * between evaluations.
 */
function callQueue(I: Intrinsics, G: Global, describe: (e: unknown) => string, caps: Caps) {
  let queue: ChunkCall[] = [];
  // The chunk's argument lists as JSON texts, by index: a null-prototype object that never leaves the driver, so
  // storing into it runs no setter the script could define.
  let argTexts: Record<number, string> = { __proto__: null } as unknown as Record<number, string>;
  let pos = 0;
  let active: Slot | null = null;
  // Results finished and not yet taken, as lines of one string (not an array: see take).
  let outs = "";
  let deadline = 0;
  let budget = 0;
  // Calls that overflowed the stack so far (read by the host: stackHits).
  let overflows = 0;
  /**
   * A result line: its envelope is written here, by concatenation, around JSON the code's values went into, so
   * that nothing the code defines (a toJSON on Object.prototype, a getter) can shape it: only `value` or `error`
   * comes from the code, and `limit` only from here. JSON.stringify's text is always one whole JSON value.
   */
  function errorLine(message: string, limit: string | null): string {
    let json = I.stringify(typeof message === "string" ? message : "error");
    // Escapes can make a message's JSON up to six times its length: such a message is cut further.
    if (json.length > 2 * caps.errorChars + 256)
      json = I.stringify(I.apply(I.slice, message, [0, caps.errorChars >> 3]) + "... (cut by the sandbox)");
    return '{"ok":false,"error":' + json + (limit === null ? "" : ',"limit":"' + limit + '"') + "}";
  }
  /** A RangeError of this realm for a stack overflow (as V8 makes it: an own `message`). Code that throws one
   *  itself is taken at its word: the call is its own, and a limit hit only ever counts against the code. */
  function overflowed(e: unknown): boolean {
    try {
      if (e === null || typeof e !== "object" || I.getPrototypeOf(e) !== I.rangeErrorProto) return false;
      const d = I.getOwnPropertyDescriptor(e, "message");
      return d !== undefined && d.value === "Maximum call stack size exceeded";
    } catch {
      return false;
    }
  }
  function finish(slot: Slot, ok: boolean, v: unknown): void {
    if (slot.done) return;
    slot.done = true;
    if (!ok) {
      // A stack overflow depends on the sandbox's stack, not only on the code: a limit, and unwinding a deep
      // recursion (async frames most of all) is slow, so the host stops after a few (see the child's maxTimeouts).
      slot.stack = overflowed(v);
      slot.out = errorLine(describe(v), slot.stack ? "stack" : null);
      return;
    }
    let json: unknown;
    try {
      json = I.stringify(v);
    } catch (e) {
      slot.out = errorLine("the result is not serialisable as JSON: " + describe(e), null);
      return;
    }
    if (json === undefined) slot.out = '{"ok":true}';
    else if (typeof json !== "string") slot.out = errorLine("the result is not serialisable as JSON", null);
    else if (json.length > caps.resultChars)
      slot.out = errorLine(
        "the result is " + json.length + " characters of JSON, over the sandbox's limit of " + caps.resultChars,
        "result",
      );
    else slot.out = '{"ok":true,"value":' + json + "}";
  }
  function settle(slot: Slot): void {
    if (slot !== active) return; // a call already given up on (timed out, never settled)
    outs = outs === "" ? (slot.out as string) : outs + "\n" + slot.out;
    active = null;
    pos++;
    // After a stack overflow the step ends, so that the host counts it before the next call starts.
    if (slot.stack) {
      overflows++;
      budget = 0;
    }
    pump();
  }
  function begin(call: ChunkCall): void {
    const slot: Slot = (active = { done: false, out: null, stack: false });
    try {
      const api: unknown = G.__searchlift;
      if (api === null || (typeof api !== "object" && typeof api !== "function"))
        throw new TypeError("the script did not define globalThis.__searchlift");
      // Each call parses its own arguments, so a function that changes its input cannot affect another call.
      const args = I.parse(argTexts[call.a]!) as unknown[];
      const f: unknown = (api as Record<string, unknown>)[call.fn];
      if (typeof f !== "function") {
        if (f !== undefined && args.length === 0) {
          finish(slot, true, f);
          settle(slot);
          return;
        }
        throw new TypeError("globalThis.__searchlift." + call.fn + " is not a function");
      }
      const r: unknown = I.apply(f, undefined, args);
      const settled = (ok: boolean) => (v: unknown) => {
        finish(slot, ok, v);
        settle(slot);
      };
      // Both outcomes are handled by settled(), so the promise then() returns is left alone.
      void I.apply(I.then, I.apply(I.resolve, I.PromiseC, [r]), [settled(true), settled(false)]);
    } catch (e) {
      finish(slot, false, e);
      settle(slot);
    }
  }
  function pump(): void {
    while (active === null && pos < queue.length && budget > 0 && I.dateNow() <= deadline) {
      budget--;
      begin(queue[pos]!);
    }
  }
  function run(sliceMs: number, maxCalls: number): void {
    deadline = I.dateNow() + sliceMs;
    budget = maxCalls;
    pump();
  }
  // take and status are called directly by the host, with no timeout: they only read the driver's own
  // variables and join primitive strings, so nothing the script defined (array setters, getters) can run.
  function take(): string {
    const s = outs;
    outs = "";
    return s;
  }
  const status = (): string => (pos >= queue.length ? "idle" : active === null ? "paused" : "waiting");
  return {
    /** Calls that overflowed the stack so far, in every chunk. */
    stackHits: (): number => overflows,
    /** A chunk: calls { fn, a }, whose arguments are the chunk's argument text a (see args). */
    load(callsJson: string): void {
      argTexts = { __proto__: null } as unknown as Record<number, string>;
      queue = I.parse(callsJson) as typeof queue;
      pos = 0;
      active = null;
      outs = "";
    },
    /** The chunk's argument text a: one argument list as JSON. */
    args(a: number, text: string): void {
      argTexts[a] = text;
    },
    /** Results finished since the last take, one JSON text per line. */
    take,
    /** Start calls until sliceMs have passed or maxCalls were started (waiting for each to settle). */
    run,
    status,
    /** Give up on the call in progress with this result (JSON text). */
    skip(outJson: string): void {
      if (active === null) return;
      const slot = active;
      slot.out = outJson;
      settle(slot);
    },
  };
}

/** Builds the driver from its parts (passed in as source text, see driverSource) and defines it as `name`. */
function contextDriver(
  name: string,
  caps: Caps,
  describer: typeof errorDescriber,
  clock: typeof virtualClock,
  calls: typeof callQueue,
): void {
  const G = globalThis as Global;
  // V8 puts these in every context: console reports to the inspector, Atomics.wait can block the thread,
  // WebAssembly memory is outside the heap limit. Search code needs none of them.
  delete G.console;
  delete G.SharedArrayBuffer;
  delete G.Atomics;
  delete G.WebAssembly;
  // The intrinsics are taken unbound on purpose, before the sandboxed code can replace them, and called through
  // Reflect.apply with their receiver; the driver's members are closures.
  /* eslint-disable @typescript-eslint/unbound-method */
  const I: Intrinsics = {
    apply: Reflect.apply,
    then: Promise.prototype.then,
    resolve: Promise.resolve,
    PromiseC: Promise,
    stringify: JSON.stringify,
    parse: JSON.parse,
    StringC: String,
    defineProperty: Object.defineProperty,
    freeze: Object.freeze,
    push: Array.prototype.push,
    splice: Array.prototype.splice,
    dateNow: Date.now,
    slice: String.prototype.slice,
    getPrototypeOf: Object.getPrototypeOf,
    getOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
    rangeErrorProto: RangeError.prototype,
  };
  const describe = describer(I, caps);
  const timers = clock(I, G);
  const queue = calls(I, G, describe, caps);
  const driver = I.freeze({
    installTimers: timers.install,
    describe,
    load: queue.load,
    args: queue.args,
    take: queue.take,
    pending: timers.pending,
    status: queue.status,
    run: queue.run,
    skip: queue.skip,
    stackHits: queue.stackHits,
    tick: timers.tick,
  });
  /* eslint-enable @typescript-eslint/unbound-method */
  I.defineProperty(G, name, { value: driver, writable: false, enumerable: false, configurable: false });
}

/** The script that defines the driver as `name` in a fresh context (strict, like the rest of the driver). */
function driverSource(name: string, caps: Caps): string {
  const parts = [errorDescriber, virtualClock, callQueue].map((f) => f.toString()).join(", ");
  return `"use strict";\n(${contextDriver.toString()})(${JSON.stringify(name)}, ${JSON.stringify(caps)}, ${parts});\n`;
}

// ---- In the child: the host side -------------------------------------------------------------------------

interface Request {
  script: string;
  calls: { fn: string; a: number }[];
  callTimeoutMs: number;
  scriptTimeoutMs: number;
  virtualTimers: boolean;
  carefulCalls: number;
  maxTimeouts: number;
  /** What the driver cuts at (errors) and refuses (results over it): see Caps. */
  maxErrorChars: number;
  maxResultChars: number;
  /** The size of what follows the header line: the argument lines, in bytes. */
  bodyBytes: number;
}

function write(obj: unknown): void {
  const b = Buffer.from((typeof obj === "string" ? obj : JSON.stringify(obj)) + "\n", "utf8");
  let o = 0;
  while (o < b.length) {
    try {
      o += fs.writeSync(1, b, o);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
    }
  }
}

/** One read from stdin into `buf` at `at`: the bytes read, 0 at the end of the input; retried while the pipe
 *  has nothing yet. */
function readSome(buf: Buffer, at: number): number {
  for (;;) {
    try {
      return fs.readSync(0, buf, at, buf.length - at, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
    }
  }
}

/** The request: its header, and the argument lines, in which argument list k is the bytes between
 *  `argBounds[2k]` and `argBounds[2k + 1]`. The header line is read first; the lines, whose size it gives, go
 *  straight into one buffer of that size (not a list of reads joined after). */
function readRequest(): { req: Request; body: Buffer; argBounds: number[] } {
  let head = Buffer.allocUnsafe(256 * 1024);
  let len = 0;
  let nl = -1;
  while (nl < 0) {
    if (len === head.length) head = Buffer.concat([head], 2 * head.length);
    const n = readSome(head, len);
    if (n === 0) throw new Error("protocol: the request ended before its header did");
    nl = head.subarray(0, len + n).indexOf(10, len);
    len += n;
  }
  // ASCII by the protocol (sandbox.ts escapes the rest), so decoded as one byte per character.
  const req = JSON.parse(head.toString("latin1", 0, nl)) as Request;
  const body = Buffer.allocUnsafe(req.bodyBytes);
  let filled = head.copy(body, 0, nl + 1, len);
  while (filled < body.length) {
    const n = readSome(body, filled);
    if (n === 0) throw new Error("protocol: the request ended before its argument lines did");
    filled += n;
  }
  const argBounds: number[] = [];
  for (let start = 0; start < body.length;) {
    let end = body.indexOf(10, start);
    if (end < 0) end = body.length;
    argBounds.push(start, end);
    start = end + 1;
  }
  return { req, body, argBounds };
}

const { req, body, argBounds } = readRequest();
// The host may die without killing us (kill -9): we are then re-parented. Checked after every evaluation,
// each of which is bounded by its CPU timeout, so an orphan runs at most one more call.
const PARENT = process.ppid;
function exitIfOrphaned(): void {
  if (process.ppid !== PARENT) process.exit(0);
}
const callMs = req.callTimeoutMs;
const D = "__searchlift_driver_" + crypto.randomBytes(8).toString("hex");
const E = "__searchlift_error_" + crypto.randomBytes(8).toString("hex");
const ctx = vm.createContext(Object.create(null) as object, {
  name: "searchlift sandbox",
  codeGeneration: { strings: true, wasm: false },
  microtaskMode: "afterEvaluate",
});
vm.runInContext(driverSource(D, { errorChars: req.maxErrorChars, resultChars: req.maxResultChars }), ctx, { timeout: 10000 });
// Taken before the untrusted script runs, and called directly (no evaluation, so no watchdog thread each): the
// driver's own code, which runs nothing the script can reach. load only parses the chunk's JSON, args stores
// an argument list's text, a primitive string, in the driver's own null-prototype object; take and status
// read the driver's variables.
const loadChunk = vm.runInContext(D + ".load", ctx) as (callsJson: string) => void;
const putArgs = vm.runInContext(D + ".args", ctx) as (a: number, text: string) => void;
const takeResults = vm.runInContext(D + ".take", ctx) as () => string;
const chunkStatus = vm.runInContext(D + ".status", ctx) as () => string;
const stackHits = vm.runInContext(D + ".stackHits", ctx) as () => number;
if (req.virtualTimers) vm.runInContext(D + ".installTimers()", ctx, { timeout: callMs });

// displayErrors: false, so that Node does not read properties of a thrown value (a proxy's traps) outside the timeout.
function run(code: string | vm.Script, timeout: number): unknown {
  const script = typeof code === "string" ? new vm.Script(code, { filename: "searchlift-driver" }) : code;
  return script.runInContext(ctx, { timeout, displayErrors: false });
}

/** Why an evaluation ended early: `limit` is set here only, from what the host itself threw (a timeout), never
 *  from a thrown value's text; `error` says it in words. */
interface Stop {
  error: string;
  limit?: "timeout";
}

/**
 * Whether an exception is vm's own timeout. Node makes that error in the context's realm, where the code could
 * make one like it (an Error whose `code` is the same), so the evaluation's own duration decides too: one that
 * ended before its timeout was not stopped by it, whatever it threw. (An imitation thrown after running as long
 * is a call that did use up its time; 5 ms spare the watchdog clock's whole milliseconds.)
 */
function isTimeout(e: unknown, ranMs: number, timeout: number): boolean {
  if (ranMs + 5 < timeout || util.types.isProxy(e) || !util.types.isNativeError(e)) return false;
  const d = Object.getOwnPropertyDescriptor(e, "code");
  return d !== undefined && d.value === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}

/** An exception that left the context after `ranMs`: a timeout (a host error) or a value thrown by untrusted code. */
function stopOf(e: unknown, ranMs: number, timeout: number, what: string): Stop {
  if (isTimeout(e, ranMs, timeout))
    return { error: "timed out: " + what + " ran for more than " + timeout + " ms (sync code and promise jobs)", limit: "timeout" };
  return { error: describe(e) };
}

/** A value thrown by untrusted code, described inside the context, under the timeout, so that getters or
 *  proxies cannot run unbounded here; cut at req.maxErrorChars (the driver cuts it too). */
function describe(e: unknown): string {
  try {
    ctx[E] = e;
    const s = run(D + ".describe(globalThis." + E + ")", callMs);
    return typeof s === "string" ? s.slice(0, req.maxErrorChars + 100) : "error (cannot be described)";
  } catch {
    return "error (cannot be described)";
  } finally {
    try {
      delete ctx[E];
    } catch {
      // the script made the slot undeletable: it is overwritten by the next description
    }
  }
}

const scriptStart = performance.now();
try {
  vm.runInContext(req.script, ctx, { timeout: req.scriptTimeoutMs, filename: "untrusted-script.js", displayErrors: false });
  write({ script: "ok" });
} catch (e) {
  write({ script: "error", error: stopOf(e, performance.now() - scriptStart, req.scriptTimeoutMs, "the script").error });
}
exitIfOrphaned();

const MAX_TICKS = 100000;
// A step's time slice: long enough that the evaluations (each with its watchdog thread, ~0.2 ms) are few (65
// instead of 642 for 6000 calls of 2.1.332); a step's results are written when it ends.
const SLICE = 100;
const CHUNK_CALLS = 256;
/** A failed call's line, written by this code: the only place a `limit` comes from besides the driver's. */
const err = (error: string, limit?: string) => JSON.stringify(limit === undefined ? { ok: false, error } : { ok: false, error, limit });
let done = 0;
// Calls that timed out or overflowed the stack: past req.maxTimeouts, the rest are not run (code that loops or
// recurses without end whenever it reaches some helper would otherwise hold the caller for calls × callTimeoutMs,
// or for calls × the seconds a deep async recursion takes to unwind).
let timeouts = 0;
let overflows = 0;
function giveUp(): void {
  const why =
    overflows === 0
      ? timeouts + " calls timed out (over " + callMs + " ms each)"
      : timeouts === 0
        ? overflows + " calls overflowed the stack"
        : timeouts + overflows + " calls timed out (over " + callMs + " ms each) or overflowed the stack";
  const e = err("not run: " + why, "gave-up");
  for (let i = done; i < req.calls.length; i++) write(e);
  write({ done: true });
  process.exit(0);
}
function overLimit(): boolean {
  return req.maxTimeouts > 0 && timeouts + overflows >= req.maxTimeouts;
}
function flush(): void {
  const s = takeResults();
  if (typeof s === "string" && s !== "") {
    write(s);
    done += s.split("\n").length;
  }
  // The driver's count, a number it keeps: the calls whose results were just written include these.
  const n = stackHits();
  if (typeof n === "number" && n > overflows) overflows = n;
}
// The host steps between evaluations; a thrown exception (a timeout) is blamed on the call in progress, which
// started before the slice ended and so ran for at least callMs.
function step(code: string | vm.Script): Stop | null {
  const t0 = performance.now();
  try {
    run(code, callMs + SLICE);
    return null;
  } catch (e) {
    // The watchdog fires after callMs + SLICE; a timeout is blamed on a call that ran for at least callMs.
    const ran = performance.now() - t0;
    const stop = stopOf(e, ran, callMs + SLICE, "the call");
    return stop.limit === "timeout"
      ? { ...stop, error: "timed out: the call ran for more than " + callMs + " ms (sync code and promise jobs)" }
      : stop;
  }
}
// Compiled once: a step of a chunk, batched or one call per evaluation (careful).
const STEP = new vm.Script(D + ".run(" + SLICE + "," + CHUNK_CALLS + ")", { filename: "searchlift-driver" });
const STEP_ONE = new vm.Script(D + ".run(" + SLICE + ",1)", { filename: "searchlift-driver" });
function hasTimers(): boolean {
  return run(D + ".pending()", callMs) === true;
}
function skipCall(out: string): void {
  run(D + ".skip(" + JSON.stringify(out) + ")", callMs);
  flush();
}

/** A call in progress awaits something that is not a promise job: run a virtual timer, or give up on it
 *  (the result to give, or null to keep waiting). */
function awaitTimers(waitingSince: number, ticks: number): { out: string | null; settled: boolean } {
  if (!req.virtualTimers)
    return {
      out: err("the call's promise never settled (it waits for something the sandbox does not provide, e.g. a timer)"),
      settled: false,
    };
  if (Date.now() - waitingSince > callMs || ticks >= MAX_TICKS) {
    timeouts++;
    return { out: err("timed out: the call did not settle within " + callMs + " ms", "timeout"), settled: false };
  }
  const failed = step(D + ".tick()");
  flush();
  if (failed !== null) {
    if (failed.limit === "timeout") timeouts++;
    return { out: err(failed.error, failed.limit), settled: false };
  }
  if (chunkStatus() !== "waiting") return { out: null, settled: true };
  if (!hasTimers()) return { out: err("the call's promise never settled (no timers left to run)"), settled: false };
  return { out: null, settled: false };
}

/**
 * Load a chunk of calls into the driver, with the texts of the argument lists it names, and step it until
 * every call has a result. Each list is decoded on its own: a string of a few KB is made in the young
 * generation, in memory already in use, where one of the whole 20 MB took ~200 ms of fresh pages here.
 */
function runChunk(calls: Request["calls"]): void {
  const index = new Map<number, number>();
  const chunk = calls.map((call): ChunkCall => {
    let a = index.get(call.a);
    if (a === undefined) index.set(call.a, (a = index.size));
    return { fn: String(call.fn), a };
  });
  loadChunk(JSON.stringify(chunk));
  for (const [line, a] of index) putArgs(a, body.toString("latin1", argBounds[2 * line], argBounds[2 * line + 1]));
  let waitingSince = 0;
  let ticks = 0;
  for (;;) {
    // Careful calls run one per evaluation, so that a crash is attributed to the right call.
    const failed = step(done < req.carefulCalls ? STEP_ONE : STEP);
    flush();
    exitIfOrphaned();
    if (failed !== null) {
      // Whether the call timed out is what step() says (a host error), never read from the text.
      if (failed.limit === "timeout") timeouts++;
      skipCall(err(failed.error, failed.limit));
      waitingSince = 0;
      ticks = 0;
      if (overLimit()) giveUp();
      continue;
    }
    if (overLimit()) giveUp();
    const st = chunkStatus();
    if (st === "idle") return;
    if (st === "paused") {
      waitingSince = 0;
      ticks = 0;
      continue;
    }
    // waiting: the call in progress awaits something that is not a promise job.
    if (waitingSince === 0) waitingSince = Date.now();
    const waited = awaitTimers(waitingSince, ticks);
    ticks++;
    if (waited.out === null && !waited.settled) continue;
    if (waited.out !== null) skipCall(waited.out);
    if (overLimit()) giveUp();
    waitingSince = 0;
    ticks = 0;
  }
}

/** Send the calls to the driver CHUNK_CALLS at a time; verify passes one argument list to the three functions. */
function runCalls(): void {
  const calls = req.calls;
  for (const call of calls)
    if (!Number.isInteger(call.a) || argBounds[2 * call.a] === undefined)
      throw new Error(`protocol: a call names argument list ${call.a}, which was not sent`);
  for (let i = 0; i < calls.length; i += CHUNK_CALLS) runChunk(calls.slice(i, i + CHUNK_CALLS));
}

runCalls();
write({ done: true });
