/**
 * The program the sandbox child runs, kept as source text so that it is found the same way from `dist/`
 * and from `src/` under vitest: it is passed to `node -e`, so the child needs no file at all and is started
 * with no `--allow-fs-read` whatsoever.
 *
 * Protocol. stdin: one JSON request `{ script, args: [argument lists], calls: [{ fn, a }], callTimeoutMs,
 * scriptTimeoutMs, virtualTimers, carefulCalls }`, where `a` indexes `args` (calls with the same argument list
 * share it in the request; each call still gets its own copy). stdout: newline-delimited JSON, written synchronously as each step ends (so a crash is
 * attributed to the call that caused it):
 *   {"script":"ok"} | {"script":"error","error":"…"}     once, after evaluating the script
 *   {"ok":true,"value":…} | {"ok":false,"error":"…"}    once per call, in order
 *   {"done":true}                                        last
 *
 * Inside the child, the untrusted code runs in a fresh vm context whose global object is created from a
 * null-prototype object, so it holds only the JavaScript built-ins: no `process`, `require`, `fetch`,
 * timers, `console`, `Buffer`. Data crosses the boundary only as JSON text: arguments are embedded as string
 * literals in the code that starts a call, and results are serialised by `JSON.stringify` inside the
 * context and read back as a primitive string. Promise jobs run in the context's own microtask queue
 * (`microtaskMode: "afterEvaluate"`), which is drained at the end of each evaluation and counted in its
 * CPU timeout, so async functions settle inside the vm and a promise-job loop is stopped like a sync one.
 */

/** Code evaluated first in the context: captures the built-ins it relies on before the untrusted script can
 *  replace them, and defines the driver under a non-writable, non-configurable global (`%NAME%`). */
const DRIVER = String.raw`(function () {
  "use strict";
  var G = globalThis;
  // V8 puts these in every context: console reports to the inspector, Atomics.wait can block the thread,
  // WebAssembly memory is outside the heap limit. Search code needs none of them.
  delete G.console; delete G.SharedArrayBuffer; delete G.Atomics; delete G.WebAssembly;
  var apply = Reflect.apply, then = Promise.prototype.then, resolve = Promise.resolve, PromiseC = Promise;
  var stringify = JSON.stringify, parse = JSON.parse, StringC = String, defineProperty = Object.defineProperty;
  var freeze = Object.freeze, push = Array.prototype.push, splice = Array.prototype.splice, join = Array.prototype.join;
  var slice = Array.prototype.slice;
  function describe(e) {
    try {
      if (e !== null && (typeof e === "object" || typeof e === "function")) {
        var name = "", msg;
        try { name = e.name; } catch (x) {}
        try { msg = e.message; } catch (x) {}
        if (typeof msg === "string") return (typeof name === "string" && name ? name + ": " : "") + msg;
      }
      return "thrown: " + StringC(e);
    } catch (x) { return "thrown: (a value that cannot be printed)"; }
  }
  function finish(slot, ok, v) {
    if (slot.done) return;
    slot.done = true;
    try {
      slot.out = ok ? stringify({ ok: true, value: v }) : stringify({ ok: false, error: describe(v) });
    } catch (e) {
      slot.out = stringify({ ok: false, error: "the result is not serialisable as JSON: " + describe(e) });
    }
    if (typeof slot.out !== "string") slot.out = stringify({ ok: false, error: "the result is not serialisable as JSON" });
  }
  // Virtual timers (opt-in): a deterministic queue inside the context, run by the host between evaluations.
  var timers = [], seq = 0, now = 0;
  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== "function") throw new TypeError("callback must be a function");
    var d = +ms; if (!(d >= 1)) d = repeat ? 1 : 0;
    var t = { id: ++seq, due: now + d, every: repeat ? d : -1, fn: fn, args: args };
    apply(push, timers, [t]);
    return t.id;
  }
  function clearTimer(id) {
    for (var i = 0; i < timers.length; i++) if (timers[i].id === id) { apply(splice, timers, [i, 1]); return; }
  }
  function installTimers() {
    G.setTimeout = function (fn, ms) { return addTimer(fn, ms, apply(slice, arguments, [2]), false); };
    G.setInterval = function (fn, ms) { return addTimer(fn, ms, apply(slice, arguments, [2]), true); };
    G.setImmediate = function (fn) { return addTimer(fn, 0, apply(slice, arguments, [1]), false); };
    G.clearTimeout = G.clearInterval = G.clearImmediate = clearTimer;
    G.queueMicrotask = function (fn) { apply(then, apply(resolve, PromiseC, []), [function () { fn(); }]); };
  }
  // Calls run one after another, each starting when the previous one settled, within one evaluation until a
  // time slice is used up; results are collected as JSON lines and taken by the host between evaluations.
  var queue = [], argTexts = [], pos = 0, active = null, outs = [], deadline = 0, budget = 0, dateNow = Date.now;
  function settle(slot) {
    if (slot !== active) return;           // a call already given up on (timed out, never settled)
    apply(push, outs, [slot.out]);
    active = null;
    pos++;
    pump();
  }
  function begin(call) {
    var slot = active = { done: false, out: null };
    try {
      var api = G.__searchlift;
      if (api === null || (typeof api !== "object" && typeof api !== "function"))
        throw new TypeError("the script did not define globalThis.__searchlift");
      // Each call parses its own arguments, so a function that changes its input cannot affect another call.
      var args = parse(argTexts[call.a]);
      var f = api[call.fn];
      if (typeof f !== "function") {
        if (f !== undefined && args.length === 0) { finish(slot, true, f); settle(slot); return; }
        throw new TypeError("globalThis.__searchlift." + call.fn + " is not a function");
      }
      var r = apply(f, undefined, args);
      apply(then, apply(resolve, PromiseC, [r]), [
        function (v) { finish(slot, true, v); settle(slot); },
        function (e) { finish(slot, false, e); settle(slot); }]);
    } catch (e) { finish(slot, false, e); settle(slot); }
  }
  function pump() {
    while (active === null && pos < queue.length && budget > 0 && dateNow() <= deadline) { budget--; begin(queue[pos]); }
  }
  var driver = freeze({
    installTimers: installTimers,
    describe: describe,
    /** A chunk: argument lists as JSON texts, and calls { fn, a } naming one of them. */
    load: function (texts, callsJson) { argTexts = texts; queue = parse(callsJson); pos = 0; active = null; outs = []; },
    /** Start calls until sliceMs have passed or maxCalls were started (waiting for each to settle). */
    run: function (sliceMs, maxCalls) { deadline = dateNow() + sliceMs; budget = maxCalls; pump(); },
    /** Results finished since the last take, one JSON text per line. */
    take: function () { var s = apply(join, outs, ["\n"]); outs = []; return s; },
    pending: function () { return timers.length > 0; },
    status: function () { return pos >= queue.length ? "idle" : active === null ? "paused" : "waiting"; },
    /** Give up on the call in progress with this result (JSON text). */
    skip: function (outJson) { if (active === null) return; var slot = active; slot.out = outJson; settle(slot); },
    tick: function () {
      if (timers.length === 0) return false;
      var k = 0;
      for (var i = 1; i < timers.length; i++) {
        var a = timers[i], b = timers[k];
        if (a.due < b.due || (a.due === b.due && a.id < b.id)) k = i;
      }
      var t = timers[k];
      if (t.due > now) now = t.due;
      if (t.every < 0) apply(splice, timers, [k, 1]); else t.due += t.every;
      try { apply(t.fn, undefined, t.args); } catch (e) {}
      return true;
    }
  });
  defineProperty(G, "%NAME%", { value: driver, writable: false, enumerable: false, configurable: false });
})();`;

const RUNNER_BODY = String.raw`
const vm = require("node:vm");
const fs = require("node:fs");
const util = require("node:util");
const crypto = require("node:crypto");

function write(obj) {
  const b = Buffer.from((typeof obj === "string" ? obj : JSON.stringify(obj)) + "\n", "utf8");
  let o = 0;
  while (o < b.length) {
    try { o += fs.writeSync(1, b, o); } catch (e) { if (e.code !== "EAGAIN") throw e; }
  }
}

const req = JSON.parse(fs.readFileSync(0, "utf8"));
// The host may die without killing us (kill -9): we are then re-parented. Checked after every evaluation,
// each of which is bounded by its CPU timeout, so an orphan runs at most one more call.
const PARENT = process.ppid;
function exitIfOrphaned() { if (process.ppid !== PARENT) process.exit(0); }
const T = req.callTimeoutMs;
const D = "__searchlift_driver_" + crypto.randomBytes(8).toString("hex");
const E = "__searchlift_error_" + crypto.randomBytes(8).toString("hex");
const ctx = vm.createContext(Object.create(null), {
  name: "searchlift sandbox",
  codeGeneration: { strings: true, wasm: false },
  microtaskMode: "afterEvaluate",
});
vm.runInContext(DRIVER.split("%NAME%").join(D), ctx, { timeout: 10000 });
if (req.virtualTimers) vm.runInContext(D + ".installTimers()", ctx, { timeout: T });

// displayErrors: false, so that Node does not read properties of a thrown value (a proxy's traps) outside the timeout.
function run(code, timeout) { return vm.runInContext(code, ctx, { timeout, filename: "searchlift-driver", displayErrors: false }); }

/** An exception that left the context: a timeout (a host error) or a value thrown by untrusted code, which
 *  is described inside the context, under the timeout, so that getters or proxies cannot run unbounded here. */
function describe(e, timeout, what) {
  if (util.types.isNativeError(e) && !util.types.isProxy(e)) {
    const d = Object.getOwnPropertyDescriptor(e, "code");
    if (d && d.value === "ERR_SCRIPT_EXECUTION_TIMEOUT")
      return "timed out: " + what + " ran for more than " + timeout + " ms (sync code and promise jobs)";
  }
  try {
    ctx[E] = e;
    const s = run(D + ".describe(globalThis." + E + ")", T);
    return typeof s === "string" ? s : "error (cannot be described)";
  } catch { return "error (cannot be described)"; }
  finally { try { delete ctx[E]; } catch {} }
}

try {
  vm.runInContext(req.script, ctx, { timeout: req.scriptTimeoutMs, filename: "untrusted-script.js", displayErrors: false });
  write({ script: "ok" });
} catch (e) {
  write({ script: "error", error: describe(e, req.scriptTimeoutMs, "the script") });
}
exitIfOrphaned();

const MAX_TICKS = 100000;
const SLICE = 20;
const CHUNK_CALLS = 256, CHUNK_CHARS = 4 << 20;
const err = (error) => JSON.stringify({ ok: false, error });
let done = 0;
// Calls that timed out: past req.maxTimeouts, the rest are not run (code that loops whenever it reaches some
// helper would otherwise hold the caller for calls × callTimeoutMs).
let timeouts = 0;
function giveUpAfterTimeouts() {
  const e = err("not run: " + timeouts + " calls timed out (over " + T + " ms each)");
  for (let i = done; i < req.calls.length; i++) write(e);
  write({ done: true });
  process.exit(0);
}
function flush() {
  const s = run(D + ".take()", T);
  if (typeof s === "string" && s !== "") {
    write(s);
    done += s.split("\n").length;
  }
}
// The host steps between evaluations; a thrown exception (a timeout) is blamed on the call in progress, which
// started before the slice ended and so ran for at least T ms.
function step(code) {
  try { run(code, T + SLICE); return null; }
  catch (e) { return describe(e, T, "the call"); }
}
// Calls name their argument list by index into req.args; verify passes one list to the three functions.
const argText = new Array(req.args.length);
const textOf = (k) => argText[k] ?? (argText[k] = JSON.stringify(req.args[k] ?? []));
let chunk = [], chunkTexts = [], chunkIndex = new Map(), chunkChars = 0;
function runChunk() {
  if (chunk.length === 0) return;
  run(D + ".load([" + chunkTexts.map((t) => JSON.stringify(t)).join(",") + "]," + JSON.stringify(JSON.stringify(chunk)) + ")", T);
  chunk = []; chunkTexts = []; chunkIndex = new Map(); chunkChars = 0;
  let waitingSince = 0, ticks = 0;
  for (;;) {
    // Careful calls run one per evaluation, so that a crash is attributed to the right call.
    const failed = step(D + ".run(" + SLICE + "," + (done < req.carefulCalls ? 1 : CHUNK_CALLS) + ")");
    flush();
    exitIfOrphaned();
    if (failed !== null) {
      run(D + ".skip(" + JSON.stringify(err(failed)) + ")", T); flush(); waitingSince = 0; ticks = 0;
      if (failed.startsWith("timed out:") && req.maxTimeouts > 0 && ++timeouts >= req.maxTimeouts) giveUpAfterTimeouts();
      continue;
    }
    const st = run(D + ".status()", T);
    if (st === "idle") return;
    if (st === "paused") { waitingSince = 0; ticks = 0; continue; }
    // waiting: the call in progress awaits something that is not a promise job.
    if (waitingSince === 0) waitingSince = Date.now();
    let out = null;
    if (req.virtualTimers) {
      if (Date.now() - waitingSince > T || ticks >= MAX_TICKS) out = err("timed out: the call did not settle within " + T + " ms");
      else {
        const tf = step(D + ".tick()");
        ticks++;
        flush();
        if (tf !== null) out = err(tf);
        else if (run(D + ".status()", T) !== "waiting") { waitingSince = 0; ticks = 0; continue; }
        else if (!hasTimers()) out = err("the call's promise never settled (no timers left to run)");
        else continue;
      }
    } else {
      out = err("the call's promise never settled (it waits for something the sandbox does not provide, e.g. a timer)");
    }
    run(D + ".skip(" + JSON.stringify(out) + ")", T);
    flush();
    waitingSince = 0; ticks = 0;
  }
}
function hasTimers() { return run(D + ".pending()", T) === true; }
for (const call of req.calls) {
  const k = call.a;
  const size = chunkIndex.has(k) ? 0 : textOf(k).length;
  if (chunk.length > 0 && (chunk.length >= CHUNK_CALLS || chunkChars + size > CHUNK_CHARS)) runChunk();
  let local = chunkIndex.get(k);
  if (local === undefined) {
    local = chunkTexts.length;
    chunkTexts.push(textOf(k));
    chunkIndex.set(k, local);
    chunkChars += textOf(k).length;
  }
  chunk.push({ fn: String(call.fn), a: local });
}
runChunk();
write({ done: true });
`;

export const RUNNER_SOURCE = `"use strict";
const DRIVER = ${JSON.stringify(DRIVER)};
${RUNNER_BODY}`;
