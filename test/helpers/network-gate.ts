/**
 * Setup file (vitest.config.ts): remembers the running test, so that a helper that would download (cache.ts
 * `npmPack`) can skip it under SEARCHLIFT_SKIP_REAL=1 instead of reaching for the network.
 *
 * Under SEARCHLIFT_SKIP_REAL=1 no test may touch the network, and one that tries fails (issue 42):
 * - in the test's own process, a socket to anything but this machine (fetch, http, https, net, tls all connect
 *   through net.Socket) is refused and recorded;
 * - in the processes a test starts (the CLI, which runs npm), `npm` on PATH is a stand-in that refuses every
 *   command that would ask the registry (view, pack or install of a registry package, cache add, …) and records
 *   it, and npm's registry is an address that answers nothing. A test that sets SEARCHLIFT_NPM to its own
 *   stand-in (test/helpers/fake-npm.mjs) is offline already.
 * Whatever was recorded while a test ran fails that test after it, even where the code under test caught the
 * refusal (fetch turns it into exit 12).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, type TestContext } from "vitest";

let current: TestContext | null = null;

beforeEach((ctx) => {
  current = ctx;
  return () => {
    current = null;
  };
});

/** Under SEARCHLIFT_SKIP_REAL=1, skip the running test that needs `what` from the network (throw outside a test). */
export function skipWithoutNetwork(what: string): void {
  if (process.env.SEARCHLIFT_SKIP_REAL !== "1") return;
  const why = `${what} comes from the npm registry (SEARCHLIFT_SKIP_REAL=1)`;
  if (current) current.skip(why);
  throw new Error(why);
}

/** Whether `host` is this machine (a local MCP server, the sandbox's own channels). */
export function isLocalHost(host: string | undefined): boolean {
  if (!host) return true;
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || h.startsWith("127.") || h === "0.0.0.0" || h === "::" || h.startsWith("::ffff:127.");
}

/** The folder of the npm stand-in, and the file where attempts are recorded (one line each). */
const OFFLINE_DIR = join(tmpdir(), `searchlift-offline-${process.pid}`);
export const NETWORK_LOG = join(OFFLINE_DIR, "attempts.log");

/** npm commands that never ask the registry; anything else is refused under SEARCHLIFT_SKIP_REAL=1. */
const NPM_STAND_IN = `#!/usr/bin/env node
// SEARCHLIFT_SKIP_REAL=1: npm without the registry (test/helpers/network-gate.ts).
const { appendFileSync } = require("node:fs");
const { spawnSync } = require("node:child_process");
const args = process.argv.slice(2);
const words = args.filter((a) => !a.startsWith("-"));
const local =
  args.includes("--version") ||
  args.includes("--offline") || args.includes("-v") ||
  ["root", "config", "prefix", "bin", "help"].includes(words[0]) ||
  (words[0] === "pack" && words.slice(1).every((w) => /^[./]/.test(w)));
if (local) {
  const r = spawnSync(process.env.SEARCHLIFT_REAL_NPM, args, { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
appendFileSync(process.env.SEARCHLIFT_NETWORK_LOG, "npm " + args.join(" ") + "\\n");
process.stderr.write("npm error code ENETWORK\\nnpm error SEARCHLIFT_SKIP_REAL=1: npm " + words.join(" ") + " would ask the registry\\n");
process.exit(1);
`;

function realNpm(): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const p = join(dir, "npm");
    if (dir && existsSync(p)) return p;
  }
  return null;
}

const installed = Symbol.for("searchlift.offline");
const state = globalThis as { [installed]?: boolean };
if (process.env.SEARCHLIFT_SKIP_REAL === "1" && !state[installed]) {
  state[installed] = true;
  mkdirSync(OFFLINE_DIR, { recursive: true });
  writeFileSync(join(OFFLINE_DIR, "npm"), NPM_STAND_IN);
  chmodSync(join(OFFLINE_DIR, "npm"), 0o755);
  writeFileSync(NETWORK_LOG, "");
  Object.assign(process.env, {
    SEARCHLIFT_REAL_NPM: realNpm() ?? "npm",
    SEARCHLIFT_NETWORK_LOG: NETWORK_LOG,
    PATH: `${OFFLINE_DIR}${delimiter}${process.env.PATH ?? ""}`,
    // An npm reached some other way asks an address where nothing answers, and gives up at once.
    npm_config_registry: "http://127.0.0.1:9/",
    npm_config_fetch_retries: "0",
  });
  process.on("exit", () => rmSync(OFFLINE_DIR, { recursive: true, force: true }));

  // This process: sockets to other machines are refused.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called below with its socket
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const opts = (Array.isArray(first) ? first[0] : first) as { host?: string; path?: string } | number | string;
    const host =
      typeof opts === "object" && opts !== null ? (opts.path ? "localhost" : opts.host) : typeof args[1] === "string" ? args[1] : undefined;
    if (typeof opts !== "string" && !isLocalHost(host)) {
      writeFileSync(NETWORK_LOG, `connect ${host}\n`, { flag: "a" });
      throw new Error(`SEARCHLIFT_SKIP_REAL=1: a test tried to connect to ${host}`);
    }
    return connect.apply(this, args);
  };
}

// The check after each test, in every test file (a worker process may run several).
if (process.env.SEARCHLIFT_SKIP_REAL === "1") {
  let seen = 0;
  beforeEach(() => {
    seen = readFileSync(NETWORK_LOG, "utf8").length;
  });
  afterEach(() => {
    const attempts = readFileSync(NETWORK_LOG, "utf8").slice(seen).trim();
    if (attempts)
      throw new Error(`SEARCHLIFT_SKIP_REAL=1, yet this test reached for the network:\n${attempts}\n(skip it with skipWithoutNetwork)`);
  });
}
