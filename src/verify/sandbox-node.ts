/**
 * The Node that runs the sandbox (sandbox.ts): its permission-model flag by version, the arguments a child is
 * started with, its version read once per executable, and the check, made once per executable, that it can run
 * the sandbox at all.
 */
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxOptions } from "./sandbox.js";

/** The permission-model flag for a Node version: `--permission` from 22.13 / 23.5 on, before that
 *  `--experimental-permission` (20.0 – 22.12). Node < 20 has no permission model. */
export function permissionFlag(version: string = process.versions.node): string {
  const [major = 0, minor = 0] = version
    .replace(/^v/, "")
    .split(".")
    .map((x) => parseInt(x, 10));
  if (major < 20) throw new Error(`the sandbox needs Node's permission model (Node >= 20); this is Node ${version}`);
  if (major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13)) return "--permission";
  return "--experimental-permission";
}

/** The flags the child node is started with (before `-e <runner>`). No `--allow-*` flag is given. Without
 *  `turbofan`, V8's tiers stop below it (`--max-opt=2`: the interpreter, Sparkplug and, where on, Maglev). */
export function sandboxNodeArgs(
  memoryMb: number,
  version: string = process.versions.node,
  { turbofan = true, semiSpaceMb }: Pick<SandboxOptions, "turbofan" | "semiSpaceMb"> = {},
): string[] {
  if (!Number.isInteger(memoryMb) || memoryMb < 16) throw new RangeError(`memoryMb must be an integer >= 16, got ${memoryMb}`);
  if (semiSpaceMb !== undefined && !(Number.isInteger(semiSpaceMb) && semiSpaceMb >= 1))
    throw new RangeError(`semiSpaceMb must be an integer >= 1, got ${semiSpaceMb}`);
  return [
    permissionFlag(version),
    "--no-warnings",
    `--max-old-space-size=${memoryMb}`,
    ...(turbofan ? [] : ["--max-opt=2"]),
    ...(semiSpaceMb === undefined ? [] : [`--max-semi-space-size=${semiSpaceMb}`]),
  ];
}

const versions = new Map<string, string>();

/** The version of a node executable (`node -v`), asked once per path. */
export function nodeVersion(nodePath: string = process.execPath): string {
  if (nodePath === process.execPath) return process.versions.node;
  let v = versions.get(nodePath);
  if (v === undefined) {
    const r = spawnSync(nodePath, ["-v"], { encoding: "utf8", env: {}, timeout: 30_000, windowsHide: true });
    const m = /^v?(\d+\.\d+\.\d+)/.exec(r.stdout ?? "");
    if (r.error || !m) throw new Error(`cannot run ${nodePath} -v: ${r.error?.message ?? (r.stderr || r.stdout || "no version")}`);
    v = m[1]!;
    versions.set(nodePath, v);
  }
  return v;
}

/** What the child tries, under the sandbox flags, to show that its permission model holds. */
const PROBE = `
const out = {};
const fs = require("node:fs");
try { fs.writeFileSync(process.argv[1], "x"); out.write = "allowed"; } catch (e) { out.write = e.code || String(e); }
try { fs.readFileSync(process.execPath, { length: 1 }); out.read = "allowed"; } catch (e) { out.read = e.code || String(e); }
try { require("node:child_process").spawnSync(process.execPath, ["-v"]); out.spawn = "allowed"; } catch (e) { out.spawn = e.code || String(e); }
try { new (require("node:worker_threads").Worker)("1", { eval: true }).terminate(); out.worker = "allowed"; } catch (e) { out.worker = e.code || String(e); }
process.stdout.write(JSON.stringify(out));`;

const checked = new Map<string, Promise<void>>();

/**
 * Check once per node executable that its permission model, with the sandbox's flags, denies file writes,
 * file reads, child processes and workers; rejects with what it allows otherwise. (Node 20.0 lets a child
 * spawn processes and start workers under --experimental-permission; 20.19+ and later majors deny them.)
 */
export function assertSandboxable(nodePath: string = process.execPath): Promise<void> {
  let p = checked.get(nodePath);
  if (p === undefined) {
    p = new Promise<void>((resolve, reject) => {
      let version: string;
      try {
        version = nodeVersion(nodePath);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      const target = join(tmpdir(), `searchlift-sandbox-probe-${process.pid}-${Date.now()}`);
      const child = spawn(nodePath, [...sandboxNodeArgs(32, version), "-e", PROBE, target], { env: {}, windowsHide: true });
      let out = "";
      let err = "";
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
      child.on("error", (e) => {
        clearTimeout(timer);
        reject(new Error(`cannot start ${nodePath}: ${e.message}`));
      });
      child.on("close", () => {
        clearTimeout(timer);
        rmSync(target, { force: true });
        let got: Record<string, string>;
        try {
          got = JSON.parse(out) as Record<string, string>;
        } catch {
          reject(new Error(`Node ${version} (${nodePath}) cannot run the sandbox's permission check: ${lastLines(err) || "no output"}`));
          return;
        }
        const allowed = ["write", "read", "spawn", "worker"].filter((k) => got[k] !== "ERR_ACCESS_DENIED");
        if (allowed.length > 0)
          reject(
            new Error(
              `Node ${version} (${nodePath}) is not a safe sandbox: its permission model does not deny ${allowed.map((k) => `${k} (${got[k]})`).join(", ")}`,
            ),
          );
        else resolve();
      });
    });
    checked.set(nodePath, p);
  }
  return p;
}

export function lastLines(s: string): string {
  return s.trim().split("\n").slice(-3).join(" | ").slice(0, 500);
}
