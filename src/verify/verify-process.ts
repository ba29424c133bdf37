/**
 * Verification in a process of its own: the corpus, the requests and the results live there, not in
 * the lift's process, which still holds what it read from a 400 MB release. Both stay small.
 *
 * As a program (stdin: { original, emitted, cases }; stdout: the VerifyResult as JSON) and as the
 * function that starts it.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { defaultCorpus } from "../routines/tool-search/corpus.js";
import { verifyAgreement, type VerifyResult } from "./verify.js";

interface Request {
  original: string;
  emitted: string;
  cases: number;
}

export function verifyInOwnProcess(original: string, emitted: string, cases: number): Promise<VerifyResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => {
      const text = Buffer.concat(out).toString("utf8");
      if (code !== 0) return reject(new Error(Buffer.concat(err).toString("utf8").trim().split("\n").pop() || `the verifier exited with ${code}`));
      try {
        resolve(JSON.parse(text) as VerifyResult);
      } catch {
        reject(new Error("the verifier answered something that is not JSON"));
      }
    });
    child.stdin.end(JSON.stringify({ original, emitted, cases } satisfies Request));
  });
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const req = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Request;
  const v = await verifyAgreement(req.original, req.emitted, defaultCorpus(1, req.cases));
  process.stdout.write(JSON.stringify(v));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: Error) => {
    process.stderr.write(`${e.message}\n`);
    process.exit(1);
  });
}
