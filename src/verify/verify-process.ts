/**
 * Verification in a process of its own: the corpus, the requests and the results live there, not in
 * the lift's process, which still holds what it read from a 400 MB release. Both stay small.
 *
 * As a program (stdin: one line { routine, original, emitted, cases }, then kept open; stdout: the VerifyResult as
 * JSON) and as the function that starts it. The verifier and its sandbox children end with the lift: when
 * its stdin closes (the lift exited, was killed, or gave up at its time budget) or its parent changes.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { exitWithParent, ORPHANED_EXIT } from "../exit-with-parent.js";
import { routinePack } from "../routines/packs.js";
import { killSandboxChildren } from "./sandbox.js";
import { verifyAgreement, type VerifyResult } from "./verify.js";

interface Request {
  /** The routine pack (by id) whose corpus the cases come from. */
  routine: string;
  original: string;
  emitted: string;
  cases: number;
}

/** The whole verification took longer than its budget; the verifier and its children were stopped. */
export class VerifyBudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`verification did not finish within ${budgetMs / 1000} s`);
    this.name = "VerifyBudgetExceeded";
  }
}

/** Run verifyAgreement on `routine`'s corpus in a child process, stopped (with its sandboxes) after `budgetMs`. */
export function verifyInOwnProcess(
  routine: string,
  original: string,
  emitted: string,
  cases: number,
  budgetMs = Infinity,
): Promise<VerifyResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let overBudget = false;
    const budget = Number.isFinite(budgetMs)
      ? setTimeout(() => {
          overBudget = true;
          // Closing stdin makes the verifier kill its sandboxes and exit; SIGKILL if it does not.
          child.stdin.destroy();
          setTimeout(() => child.kill("SIGKILL"), 2000).unref();
        }, budgetMs)
      : undefined;
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.stdin.on("error", () => {}); // a verifier that already exited
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(budget);
      child.stdin.destroy();
      if (overBudget) return reject(new VerifyBudgetExceeded(budgetMs));
      const text = Buffer.concat(out).toString("utf8");
      if (code !== 0)
        return reject(new Error(Buffer.concat(err).toString("utf8").trim().split("\n").pop() || `the verifier exited with ${code}`));
      try {
        resolve(JSON.parse(text) as VerifyResult);
      } catch {
        reject(new Error("the verifier answered something that is not JSON"));
      }
    });
    // One line (JSON.stringify escapes newlines); stdin stays open as the sign that the lift is alive.
    child.stdin.write(JSON.stringify({ routine, original, emitted, cases } satisfies Request) + "\n");
  });
}

/** The first line of stdin; afterwards the end of stdin means the parent is gone. */
function readRequest(): Promise<Request> {
  return new Promise((resolve) => {
    let text = "";
    let answered = false;
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (d: string) => {
      if (answered) return;
      text += d;
      const nl = text.indexOf("\n");
      if (nl < 0) return;
      answered = true;
      resolve(JSON.parse(text.slice(0, nl)) as Request);
    });
    process.stdin.on("end", () => {
      killSandboxChildren();
      process.exit(ORPHANED_EXIT);
    });
  });
}

async function main(): Promise<void> {
  exitWithParent(killSandboxChildren);
  const req = await readRequest();
  const v = await verifyAgreement(req.original, req.emitted, routinePack(req.routine).corpus(req.cases));
  process.stdout.write(JSON.stringify(v), () => process.exit(0));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: Error) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
}
