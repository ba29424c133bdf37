#!/usr/bin/env node
/**
 * The command line as one script, dist/bundle/main.cjs, built after tsc, and the V8 code cache that
 * bin/searchlift.js compiles it with, dist/bundle/main.code-cache.
 *
 * Node then reads two files at start-up instead of some 140 modules, and takes the bytecode of the functions a
 * command runs from the cache instead of parsing and compiling them: about a tenth of a lift. The cache is
 * made by running the command line on the sample releases (SEARCHLIFT_TRAIN_CODE_CACHE, below); V8 refuses a
 * cache made by another Node version, and the bundle is then compiled as usual. Each module keeps its own
 * `import.meta.url` (the URL of its file under dist/), so the paths it finds beside itself (signatures,
 * samples, the sandbox's runner, the verifier's program) are the same bundled or not. What a command loads
 * only when it runs (check's MCP client, diff, track) is still initialised only then.
 */
import { parse } from "acorn";
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const out = join(dist, "bundle");

/** Rewrite `import.meta.url` in a module of dist/ to that module's own URL, reckoned from the bundle's file. */
const ownUrls = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      // The dependencies esbuild loads itself: only our modules are rewritten.
      if (!args.path.startsWith(dist + sep)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return { contents: text, loader: "js" };
      const own = JSON.stringify(relative(out, args.path).split(sep).join("/"));
      const url = `new URL(${own}, require("node:url").pathToFileURL(__filename)).href`;
      return { contents: text.replaceAll("import.meta.url", url), loader: "js" };
    });
  },
};

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: [join(dist, "cli", "main.js")],
  outfile: join(out, "main.cjs"),
  bundle: true,
  // A script, not a module: V8 keeps a code cache only for scripts (vm.Script) on Node 20.
  format: "cjs",
  platform: "node",
  target: "node20",
  // typescript is loaded only to compile the sandbox's runner from source in a checkout without dist/.
  // prettier lays out a lifted module (src/lift/layout.ts): loaded from node_modules when a lift runs.
  external: ["typescript", "prettier"],
  plugins: [ownUrls],
  logLevel: "warning",
});
await writeFile(join(out, "main.cjs"), asciiOnly(await readFile(join(out, "main.cjs"), "utf8")));

/**
 * The bundle with the non-ASCII characters of its comments written as \uXXXX. Node reads an ASCII script
 * as one-byte text, and V8 compiles and checks the code cache against it faster; a few dashes in comments
 * (ours and our dependencies', which esbuild keeps) made all 2 MB two-byte. esbuild already escapes strings,
 * so a non-ASCII character anywhere else (a regular expression) fails the build: write it escaped in the source.
 */
function asciiOnly(text) {
  const comments = [];
  parse(text, {
    ecmaVersion: "latest",
    sourceType: "script",
    allowHashBang: true,
    onComment: (_block, _text, start, end) => comments.push([start, end]),
  });
  let out = "";
  let at = 0;
  for (const [start, end] of comments) {
    out +=
      text.slice(at, start) + text.slice(start, end).replace(/[^\0-\x7f]/gu, (c) => `\\u${c.codePointAt(0).toString(16).padStart(4, "0")}`);
    at = end;
  }
  out += text.slice(at);
  const bad = /[^\0-\x7f]/.exec(out);
  if (bad) {
    const line = out.slice(0, bad.index).split("\n").length;
    throw new Error(`dist/bundle/main.cjs:${line}: ${JSON.stringify(bad[0])} outside a comment; write it as an escape in the source`);
  }
  return out;
}

// The code cache: each run below starts from the cache the one before wrote, and adds the functions it
// compiled. The sample releases take the common path of the commands whose start-up is a large part of
// their time (reading an input, locating, lifting); diff, track and check spend seconds in the sandbox.
const bin = join(root, "bin", "searchlift.js");
const samples = join(root, "samples", "releases");
const work = mkdtempSync(join(tmpdir(), "searchlift-code-cache-"));
const train = (...args) =>
  execFileSync(process.execPath, [bin, ...args], {
    // Every lift lifted (never copied from the lift cache, which would leave the lift's path untrained), quietly.
    env: { ...process.env, SEARCHLIFT_TRAIN_CODE_CACHE: "1", SEARCHLIFT_LIFT_CACHE: "off", SEARCHLIFT_QUIET: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
try {
  const releases = readdirSync(samples).map((f) => join(samples, f));
  train("extract", releases.at(-1), "--list", "--json");
  train("locate", releases.at(-1), "--json");
  for (const release of [releases[0], releases.at(-1)]) train("lift", release, "--out", work, "--no-verify", "--json");
} finally {
  rmSync(work, { recursive: true, force: true });
}
