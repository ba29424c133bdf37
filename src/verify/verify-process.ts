/**
 * Verification in a process of its own: the corpus, the requests and the results live there, not in
 * the lift's process, which still holds what it read from a 400 MB release. Both stay small.
 *
 * As a program (each routine pack has one: RoutinePack.verifier, a file that calls runVerifierProgram with the
 * pack, so that no module is loaded by a name handed over at run time; stdin: a line { cases }, whose corpus it
 * makes and encodes for the sandbox at once, while the lift works on; then a line { original, emitted }; then kept open. stdout: a line { casesDone } as the
 * count passes each multiple of CASES_EVERY (verify.ts), then the VerifyResult as JSON on a line of its own) and as the
 * functions that start it. The verifier and its sandbox children end with the lift: when its stdin closes (the lift exited, was
 * killed, or gave up at its time budget) or its parent changes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { exitWithParent, ORPHANED_EXIT } from "../exit-with-parent.js";
import type { RoutinePack } from "../routines/pack.js";
import { killSandboxChildren } from "./sandbox.js";
import { mallocEnv } from "./malloc-env.js";
import { prepareVerification, VERIFY_SEMI_SPACE_MB, verifyAgreement, type VerifyResult } from "./verify.js";

/** A count line of the verifier's stdout (never the result's: a VerifyResult has no casesDone). */
const CASES_LINE = /^\{"casesDone":(\d+),"cases":(\d+)\}$/;

/** The first line: which corpus to make, made while the lift is still at work. */
interface CorpusRequest {
  cases: number;
}

/** The second line: the two sides to compare. */
interface SidesRequest {
  original: string;
  emitted: string;
  /** Tool fields the routine reads beyond the contract's: the corpus gives them values (RoutinePack.corpus). */
  toolFields?: string[];
}

/** The whole verification took longer than its budget; the verifier and its children were stopped. */
export class VerifyBudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`verification did not finish within ${budgetMs / 1000} s`);
    this.name = "VerifyBudgetExceeded";
  }
}

/** A verifier process, started before the code to verify exists so that it makes its corpus meanwhile. */
export interface Verifier {
  /** Compare `original` and `emitted` on the corpus (with values for `toolFields`, when given); stopped (with its
   *  sandboxes) after `budgetMs`; `onCases` is told the cases run so far as they pass each multiple of CASES_EVERY.
   *  Once. */
  run(
    original: string,
    emitted: string,
    budgetMs?: number,
    toolFields?: readonly string[],
    onCases?: (done: number, total: number) => void,
  ): Promise<VerifyResult>;
  /** Stop it unused (the lift failed first), or let it end once run has answered. */
  cancel(): void;
}

/** Start a verifier for `cases` cases of a pack's corpus: `program` is the pack's (RoutinePack.verifier). */
export function startVerifier(program: string, cases: number): Verifier {
  // The sandbox sides' semi-spaces (verify.ts): making the corpus allocates 20 MB of text in
  // small pieces, and a young generation of V8's 16 MB semi-spaces faults in more fresh memory for it.
  const child = spawn(process.execPath, [`--max-semi-space-size=${VERIFY_SEMI_SPACE_MB}`, program], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...mallocEnv() },
  });
  const err: Buffer[] = [];
  // Lines of stdout: the counts, told as they come, and the result, the last line.
  let out = "";
  let tellCases: ((done: number, total: number) => void) | undefined;
  let lastLine = "";
  let exit: (code: number | null) => void = () => {};
  let startError: Error | undefined;
  let running = false;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d: string) => {
    out += d;
    for (let nl = out.indexOf("\n"); nl >= 0; nl = out.indexOf("\n")) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const count = CASES_LINE.exec(line);
      if (count) tellCases?.(Number(count[1]), Number(count[2]));
      else lastLine = line;
    }
  });
  child.stderr.on("data", (b: Buffer) => err.push(b));
  child.stdin.on("error", () => {}); // a verifier that already exited
  child.on("error", (e) => (startError = e));
  child.on("close", (code) => exit(code));
  // One line each (JSON.stringify escapes newlines); stdin stays open as the sign that the lift is alive.
  child.stdin.write(JSON.stringify({ cases } satisfies CorpusRequest) + "\n");
  // Until it runs, a verifier waiting for sides does not keep this process alive (a pool may keep one idle for
  // the next lift); when this process ends, its stdin closes and it ends too.
  hold(child, false);
  return {
    run(original, emitted, budgetMs = Infinity, toolFields = [], onCases) {
      running = true;
      hold(child, true);
      tellCases = onCases;
      return new Promise((resolve, reject) => {
        if (startError) return reject(startError);
        child.on("error", reject);
        let overBudget = false;
        const budget = Number.isFinite(budgetMs)
          ? setTimeout(() => {
              overBudget = true;
              // Closing stdin makes the verifier kill its sandboxes and exit; SIGKILL if it does not.
              child.stdin.destroy();
              setTimeout(() => child.kill("SIGKILL"), 2000).unref();
            }, budgetMs)
          : undefined;
        exit = (code) => {
          clearTimeout(budget);
          child.stdin.destroy();
          if (overBudget) return reject(new VerifyBudgetExceeded(budgetMs));
          if (code !== 0)
            return reject(new Error(Buffer.concat(err).toString("utf8").trim().split("\n").pop() || `the verifier exited with ${code}`));
          try {
            resolve(JSON.parse(out.trim() ? out : lastLine) as VerifyResult);
          } catch {
            reject(new Error("the verifier answered something that is not JSON"));
          }
        };
        if (child.exitCode !== null || child.signalCode !== null) return exit(child.exitCode);
        const sides: SidesRequest = { original, emitted, ...(toolFields.length > 0 ? { toolFields: [...toolFields] } : {}) };
        child.stdin.write(JSON.stringify(sides) + "\n");
      });
    },
    // Unused, it holds no sandbox yet and may be busy making its corpus, deaf to stdin: killed at once.
    cancel: () => (running ? child.stdin.destroy() : child.kill("SIGKILL")),
  };
}

/** Whether the child and its pipes keep this process's event loop alive. */
function hold(child: ChildProcessWithoutNullStreams, on: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as Array<{ ref(): void; unref(): void }>)
    if (on) handle.ref();
    else handle.unref();
}

/** Reads stdin's lines as they come; afterwards the end of stdin means the parent is gone. */
function stdinLines(): () => Promise<string> {
  let text = "";
  const waiting: Array<(line: string) => void> = [];
  const ready: string[] = [];
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (d: string) => {
    text += d;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n")) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      const take = waiting.shift();
      if (take) take(line);
      else ready.push(line);
    }
  });
  process.stdin.on("end", () => {
    killSandboxChildren();
    process.exit(ORPHANED_EXIT);
  });
  return () => new Promise((resolve) => (ready.length > 0 ? resolve(ready.shift()!) : waiting.push(resolve)));
}

/** The verifier's program for `pack`: what a pack's own verifier file runs (see the file's comment). */
export function runVerifierProgram(pack: RoutinePack): void {
  main(pack).catch((e: Error) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
}

async function main(pack: RoutinePack): Promise<void> {
  exitWithParent(killSandboxChildren);
  const nextLine = stdinLines();
  const request = JSON.parse(await nextLine()) as CorpusRequest;
  const cases = request.cases;
  let corpus = pack.corpus(cases);
  const prepared = prepareVerification(corpus);
  // A sandbox that cannot be used is reported when the sides arrive, as verifyAgreement would.
  prepared.catch(() => {});
  const { original, emitted, toolFields = [] } = JSON.parse(await nextLine()) as SidesRequest;
  await prepared;
  // Fields beyond the contract's: the same cases with values for them, known only once the lift is done.
  if (toolFields.length > 0) {
    corpus = pack.corpus(cases, toolFields);
    await prepareVerification(corpus);
  }
  const v = await verifyAgreement(original, emitted, corpus, {
    onCases: (done, total) => process.stdout.write(`{"casesDone":${done},"cases":${total}}\n`),
  });
  process.stdout.write(JSON.stringify(v) + "\n", () => process.exit(0));
}
