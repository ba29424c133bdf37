#!/usr/bin/env node
// Thin launcher. The CLI is compiled to dist/ and bundled into one script with a V8 code cache beside it
// (scripts/bundle.mjs) by `npm run build`, `npm test` and `npm pack` (prepack).
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Script } from "node:vm";

// A run is short and does much once: V8 is told to wait longer before optimizing a function, since
// optimizing on the second core competes with the input's hash (measured by `npm run bench`).
setFlagsFromString("--interrupt-budget=800000");

const bundle = fileURLToPath(new URL("../dist/bundle/main.cjs", import.meta.url));
if (!existsSync(bundle)) {
  // A clone that has not been built yet: one line, not a stack trace.
  process.stderr.write("searchlift: not built yet: run `npm run build` in the searchlift folder first (dist/bundle/main.cjs is missing)\n");
  process.exit(1);
}
const cacheFile = bundle.replace(/\.cjs$/, ".code-cache");
const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
// The bytecode of the functions a command runs comes from the cache, which V8 checks against this source and
// this Node; a cache it refuses (another Node version) only means the bundle is compiled as usual.
// The bundle is ASCII (scripts/bundle.mjs makes sure), so reading it as latin1 gives the same text without
// the UTF-8 decoder's pass over 2 MB.
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, "latin1")}\n})`, {
  filename: bundle,
  cachedData,
  importModuleDynamically: (specifier) => import(specifier),
});
if (process.env.SEARCHLIFT_DEBUG)
  process.stderr.write(`code cache: ${!cachedData ? "none" : script.cachedDataRejected ? "refused" : "used"}\n`);
// scripts/bundle.mjs makes the cache by running commands with this set: each adds what it compiled.
if (process.env.SEARCHLIFT_TRAIN_CODE_CACHE === "1")
  process.on("exit", () => {
    writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
    renameSync(`${cacheFile}.tmp`, cacheFile);
  });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
module.exports.main(process.argv);
