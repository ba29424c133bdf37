/**
 * Digests of a file, computed on another thread: hashing a 130 MB tarball or a 400 MB binary costs about as
 * much as reading it, while the main thread has other work (a lift, or another release's tarball).
 */
import { Worker } from "node:worker_threads";

// One buffer, reused: a stream would allocate (and fault in) a fresh megabyte for each of 400 reads.
const HASHER = `
const { parentPort, workerData } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { openSync, readSync, closeSync } = require("node:fs");
// On Linux a nice value belongs to the thread: the hash takes what CPU the work beside it leaves. Elsewhere
// it would slow the whole process.
if (process.platform === "linux") {
  try {
    require("node:os").setPriority(19);
  } catch {}
}
try {
  const hashes = workerData.algorithms.map((a) => createHash(a));
  const fd = openSync(workerData.path, "r");
  const buf = Buffer.allocUnsafe(1 << 22);
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) for (const h of hashes) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  parentPort.postMessage({ hex: hashes.map((h) => h.digest("hex")) });
} catch (e) {
  parentPort.postMessage({ error: String((e && e.message) || e) });
}
`;

export interface BackgroundDigests {
  /** One digest (hex) per algorithm, in the order asked. */
  result: Promise<string[]>;
  /** Stop hashing (the lift failed): the thread must not keep the process alive. */
  cancel(): void;
}

/** The file's digests in `algorithms` (node's names: sha256, sha512, …), read once, on a worker thread. */
export function digestsInBackground(path: string, algorithms: readonly string[]): BackgroundDigests {
  const worker = new Worker(HASHER, { eval: true, workerData: { path, algorithms } });
  worker.unref();
  const result = new Promise<string[]>((resolve, reject) => {
    worker.once("message", (m: { hex?: string[]; error?: string }) =>
      m.hex ? resolve(m.hex) : reject(new Error(`cannot hash ${path}: ${m.error}`)),
    );
    worker.once("error", reject);
  }).finally(() => void worker.terminate());
  // A failed lift never reads the result: its rejection must not surface as unhandled.
  result.catch(() => {});
  return { result, cancel: () => void worker.terminate() };
}

export interface BackgroundHash {
  result: Promise<string>;
  cancel(): void;
}

/** The file's sha256 (hex), on a worker thread. */
export function sha256InBackground(path: string): BackgroundHash {
  const d = digestsInBackground(path, ["sha256"]);
  return { result: d.result.then(([hex]) => hex!), cancel: () => d.cancel() };
}
