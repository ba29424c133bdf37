/**
 * Verification that cannot be stalled or fooled by the code it runs, and that leaves nothing behind.
 * Each input is a sample release whose helper (reached from the scorer) is made hostile: it loops,
 * always throws, throws 40 MB messages or ones that copy the sandbox's own, recurses without end, or
 * allocates 1.5 GB per call. The CLI runs as a process, as a user would run it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { REPO } from "./helpers/bun-fixtures.js";
import { BIN, runCli } from "./helpers/cli.js";

const work = mkdtempSync(join(tmpdir(), "searchlift-verify-bounds-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SAMPLE = readFileSync(join(REPO, "samples", "releases", "0.1.0"), "utf8");
/** The helper the sample's scorer awaits for each tool's description. */
const HELPER = "async function w(t,r){";

function hostile(name: string, body: string): string {
  expect(SAMPLE).toContain(HELPER);
  const file = join(work, `${name}.js`);
  writeFileSync(file, SAMPLE.replace(HELPER, HELPER + body));
  return file;
}

function lift(input: string, ...more: string[]) {
  return runCli(["lift", input, "--out", join(work, "out"), ...more], { timeout: 300_000 });
}

describe("verification ends, and says why, whatever the helper does", () => {
  it("a helper that always throws: inconclusive (exit 16), naming how many cases failed on the original", () => {
    const r = lift(hostile("throws", 'throw new Error("always");'), "--cases", "300");
    expect(r.code).toBe(ExitCode.inconclusive);
    expect(r.stderr).toMatch(/inconclusive: the original code failed on \d+\/300 cases \(first: Error: always\)/);
    // One line for the failure, after the note that 300 cases are below the contract's 2,000.
    expect(
      r.stderr
        .trim()
        .split("\n")
        .filter((l) => !l.startsWith("note: --cases")),
    ).toHaveLength(1);
  });

  it("a helper that loops: stopped after a few timed-out calls (exit 15), not after every case's timeout", () => {
    const r = lift(hostile("loops", "for(;;){}"));
    expect(r.code).toBe(ExitCode.verifyTimeout);
    expect(r.stderr).toMatch(/verification stopped after \d+ cases: on the original code, 3 calls timed out/);
  });

  it("--verify-timeout bounds the whole verification (exit 15)", () => {
    const r = lift(hostile("loops-budget", "for(;;){}"), "--verify-timeout", "2");
    expect(r.code).toBe(ExitCode.verifyTimeout);
    expect(r.stderr).toMatch(/did not finish within 2 s \(--verify-timeout\)/);
  });

  it("--verify-timeout must be a positive number of seconds", () => {
    for (const bad of ["0", "-3", "abc", "1e9"])
      expect(lift(join(REPO, "samples", "releases", "0.1.0"), "--verify-timeout", bad).code, bad).toBe(ExitCode.usage);
  });

  it("a helper that recurses without end: stopped after a few stack overflows (exit 15), not at the time budget", () => {
    const t0 = Date.now();
    const r = lift(hostile("recurses", "return w(t,r);"));
    expect(r.code).toBe(ExitCode.verifyTimeout);
    expect(r.stderr).toMatch(/verification stopped after \d+ cases: on the original code, 3 calls overflowed the stack/);
    // Each overflowing call unwinds thousands of async frames per tool (a second or two): three, not 6000 of them.
    expect(Date.now() - t0).toBeLessThan(150_000);
  });

  it("an error that copies the sandbox's own 'not run: … timed out' or 'timed out:' is the original's failure, not a stop or a limit", () => {
    for (const [name, text] of [
      ["imitates-gave-up", "not run: 3 calls timed out (over 5000 ms each)"],
      ["imitates-timeout", "timed out: the call ran for more than 5000 ms (sync code and promise jobs)"],
    ] as const) {
      const r = lift(hostile(name, `throw {name:"",message:${JSON.stringify(text)}};`), "--cases", "300");
      expect(r.code, r.stderr).toBe(ExitCode.inconclusive);
      expect(r.stderr).not.toMatch(/verification stopped|sandbox limit/);
      expect(r.stderr).toContain(`/300 cases (first: ${text})`);
      expect(r.stderr).toMatch(/verification inconclusive: the original code failed on \d+\/300 cases/);
    }
  });

  it.runIf(process.platform === "linux")(
    "a helper that throws 40 MB messages: the verifier stays small and the verdict is the original's failures (exit 16)",
    async ({ annotate }) => {
      const r = await watched([
        "lift",
        hostile("huge-errors", 'throw new Error("x".repeat(40e6));'),
        "--out",
        join(work, "out"),
        "--cases",
        "40",
      ]);
      expect(r.code, r.stderr).toBe(ExitCode.inconclusive);
      expect(r.stderr).toMatch(/the original code failed on \d+\/40 cases \(first: Error: x{100}/);
      expect(r.stderr.length).toBeLessThan(4_000);
      // Each error is cut to 256 KB in the sandbox, and a child's output is read a bounded line at a time: the
      // verifier holds megabytes of them, not gigabytes.
      await annotate(`peak resident memory, MB: ${JSON.stringify(r.peakMb)}`);
      expect(r.peakMb["verifier"]).toBeDefined();
      expect(r.peakMb["verifier"]!).toBeLessThan(400);
      expect(r.peakMb["main"]!).toBeLessThan(400);
    },
    300_000,
  );

  it("a helper allocating 1.5 GB per call: a sandbox limit on the original, never an agreement (exit 16)", () => {
    const r = lift(hostile("allocates", 'let big=new Uint8Array(1.5e9).fill(1);if(big.length<0)return"";'), "--cases", "40");
    expect(r.code).toBe(ExitCode.inconclusive);
    expect(r.stderr).toMatch(/the original code hit a sandbox limit on \d+ calls.*(resident memory|out of memory)/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Children die with their parent

interface Proc {
  pid: number;
  ppid: number;
  start: string;
  cmd: string;
  /** Resident memory, KiB. */
  rssKb: number;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "latin1");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (f[0] === "Z") continue;
      out.push({
        pid: Number(d),
        ppid: Number(f[1]),
        start: f[19]!,
        cmd: readFileSync(`/proc/${d}/cmdline`, "latin1").replace(/\0/g, " "),
        rssKb: Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${d}/status`, "latin1"))?.[1] ?? 0),
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function descendants(root: number): Proc[] {
  const all = processes();
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (found.has(p.pid) || !found.has(p.ppid)) continue;
      found.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => p.pid !== root && found.has(p.pid));
}

/** Run the CLI and sample, every 50 ms, the resident memory of it and of every process below it, by role. */
async function watched(args: string[]): Promise<{ code: number | null; stderr: string; peakMb: Record<string, number> }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const peakKb: Record<string, number> = {};
  const sample = () => {
    for (const p of [...processes().filter((q) => q.pid === child.pid), ...descendants(child.pid!)]) {
      const role =
        p.pid === child.pid ? "main" : isVerifier(p.cmd) ? "verifier" : /--(experimental-)?permission /.test(p.cmd) ? "sandbox" : "other";
      peakKb[role] = Math.max(peakKb[role] ?? 0, p.rssKb);
    }
  };
  const timer = setInterval(sample, 50);
  const code = await new Promise<number | null>((done) => child.on("close", done));
  clearInterval(timer);
  return { code, stderr, peakMb: Object.fromEntries(Object.entries(peakKb).map(([k, v]) => [k, Math.round(v / 1024)])) };
}

/** A routine pack's verifier program (dist/routines/<pack>/verifier.js), which the CLI starts for each verified lift. */
const isVerifier = (cmd: string) => /[\\/]routines[\\/][\w-]+[\\/]verifier\.js\b/.test(cmd);

const alive = (p: Proc) => processes().some((q) => q.pid === p.pid && q.start === p.start);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Start the CLI, wait until sandbox children run under it, SIGKILL it, and return what ran below it. */
async function killMidVerification(args: string[]): Promise<Proc[]> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: "ignore" });
  const root = child.pid!;
  let below: Proc[] = [];
  for (let i = 0; i < 600 && !below.some((p) => /--(experimental-)?permission /.test(p.cmd)); i++) {
    await sleep(100);
    below = descendants(root);
  }
  expect(
    below.some((p) => /--(experimental-)?permission /.test(p.cmd)),
    "a sandbox child started",
  ).toBe(true);
  child.kill("SIGKILL");
  return below;
}

async function expectAllGone(procs: Proc[]): Promise<void> {
  for (let i = 0; i < 80 && procs.some(alive); i++) await sleep(100);
  expect(procs.filter(alive).map((p) => `${p.pid} ${p.cmd.slice(0, 120)}`)).toEqual([]);
}

describe("nothing outlives a killed lift or track", () => {
  it("kill -9 of lift: the verifier and both sandbox children exit within seconds", async () => {
    const below = await killMidVerification(["lift", hostile("loops-kill", "for(;;){}"), "--out", join(work, "killed")]);
    expect(below.some((p) => isVerifier(p.cmd))).toBe(true);
    await expectAllGone(below);
  }, 120_000);

  it("kill -9 of track: its lift, the verifier and the sandbox children exit within seconds", async () => {
    const releases = join(work, "releases");
    mkdirSync(releases, { recursive: true });
    writeFileSync(join(releases, "9.9.9"), SAMPLE.replace(HELPER, HELPER + "for(;;){}"));
    const below = await killMidVerification([
      "track",
      releases,
      "--out",
      join(work, "timeline"),
      "--cache",
      join(work, "track-cache"),
      "--jobs",
      "1",
    ]);
    expect(below.some((p) => p.cmd.includes(" lift "))).toBe(true);
    await expectAllGone(below);
    expect(existsSync(join(work, "timeline", "timeline.json"))).toBe(false);
  }, 120_000);
});
