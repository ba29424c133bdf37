/**
 * The sha256 of an input file, computed on another thread while the lift runs: hashing a 400 MB
 * binary costs about as much as reading it, and the lift itself is busy on the main thread.
 */
import { Worker } from "node:worker_threads";

// One buffer, reused: a stream would allocate (and fault in) a fresh megabyte for each of 400 reads.
const HASHER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { openSync, readSync, closeSync } = require("node:fs");
try {
  const h = createHash("sha256");
  const fd = openSync(workerData, "r");
  const buf = Buffer.allocUnsafe(1 << 22);
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage({ hex: h.digest("hex") });
} catch (e) {
  parentPort.postMessage({ error: String((e && e.message) || e) });
}
`;

export interface BackgroundHash {
  result: Promise<string>;
  /** Stop hashing (the lift failed): the thread must not keep the process alive. */
  cancel(): void;
}

export function sha256InBackground(path: string): BackgroundHash {
  const worker = new Worker(HASHER, { eval: true, workerData: path });
  worker.unref();
  const result = new Promise<string>((resolve, reject) => {
    worker.once("message", (m: { hex?: string; error?: string }) =>
      m.hex ? resolve(m.hex) : reject(new Error(`cannot hash ${path}: ${m.error}`)),
    );
    worker.once("error", reject);
  }).finally(() => void worker.terminate());
  // A failed lift never reads the result: its rejection must not surface as unhandled.
  result.catch(() => {});
  return { result, cancel: () => void worker.terminate() };
}
