#!/usr/bin/env node
// Builds sample releases whose scorer holds `0 <!--htmlCounter`: an HTML-like comment where Node runs the
// code as a script (CommonJS: a .cjs file, or a .js in a package whose "type" is "commonjs" or absent), and
// code — `0 < !--htmlCounter`, true — where it is parsed as a module. The scorer is samples/tool-search/name-parts.js
// (the code of samples/releases/0.3.0) with one line added to each tool's score: a point for every tool when
// the query holds the word `injected` and that expression is true. Run as Node runs it, the release answers
// `injected` with no tools; code that parsed it as a module answers with every tool.
// A second form, `this` in a plain call, tells strict code from sloppy code the same way.
//   node samples/parse-mode/build-release.mjs <cjs|commonjs-package|esm-package|cjs-this|esm-this> <out-dir>
// and runs a release or a lifted module with Node on a query: searchWithNode(file, query, "release" | "lifted").
import { buildSync } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const SCORER = join(here, "..", "tool-search", "name-parts.js");
const CALL_SITE = "let score = 0;";
const PLACEHOLDER = "__SEARCHLIFT_HTML_COMMENT__";
/**
 * The forms. html-comment: after `<!--` the rest of the line is a comment in a script; in a module it is
 * `< !--htmlCounter`, true. this: a plain call's `this` is undefined in strict code only (a module, or
 * "use strict"), the global object in sloppy code (CommonJS without "use strict"); where it is undefined,
 * every tool gets its point whatever the query, so strict and sloppy code differ on most of the corpus.
 */
const FORMS = {
  "html-comment": "0 <!--htmlCounter\n",
  this: "(function () { return this === undefined; })()",
};

/** The tools the review's query ran on. */
export const TOOLS = [
  { name: "Bash", description: "Run a shell command" },
  { name: "ReadFile", description: "Read a file from disk" },
];

/** The bundled scorer as CommonJS (`esm: false`) or as an ES module, with the form in it. */
function bundle(version, esm, form = "html-comment") {
  const source = readFileSync(SCORER, "utf8");
  if (!source.includes(CALL_SITE)) throw new Error(`${SCORER} no longer holds ${CALL_SITE}`);
  const injected = source
    .replace(/from "\.\/([^"]+)"/g, (_, f) => `from ${JSON.stringify(join(dirname(SCORER), f))}`)
    .replace(
      CALL_SITE,
      `${CALL_SITE}\n      let htmlCounter = 1;\n      let injected = ${PLACEHOLDER};\n      if (${form === "this" ? "injected" : 'terms.includes("injected") && injected'}) score += 1;`,
    );
  const r = buildSync({
    stdin: { contents: injected, resolveDir: dirname(SCORER), sourcefile: "scorer.js" },
    bundle: true,
    format: esm ? "esm" : "cjs",
    platform: "node",
    write: false,
    logLevel: "silent",
    banner: {
      js: `// searchlift parse-mode sample ${version}\n${esm ? "export const " : "exports."}BUILD = {PACKAGE_URL:"searchlift-sample",VERSION:"${version}"};`,
    },
  });
  const text = r.outputFiles[0].text;
  if (text.split(PLACEHOLDER).length !== 2) throw new Error("the bundle does not hold the form's placeholder once");
  return text.replace(PLACEHOLDER, FORMS[form]);
}

/**
 * Write one release into `out` and return its path:
 * - `cjs`: a file `<out>/sample.cjs` (0.9.1);
 * - `commonjs-package`: a package folder `<out>/package` whose package.json says "type": "commonjs", program cli.js (0.9.2);
 * - `esm-package`: the same code bundled as an ES module, in a package whose "type" is "module" (0.9.3): Node
 *   refuses to load it ("HTML comments are not allowed in modules");
 * - `cjs-this`: `<out>/sample-this.cjs` with the `this` form (0.9.4): sloppy, it answers `injected` with no
 *   tools, and a strict copy of its code with every tool, on any query;
 * - `esm-this`: `<out>/sample-this.mjs`, the same as an ES module (0.9.5): strict, every tool on any query.
 */
export function buildParseModeRelease(kind, out) {
  mkdirSync(out, { recursive: true });
  if (kind === "cjs") {
    const file = join(out, "sample.cjs");
    writeFileSync(file, bundle("0.9.1", false));
    return file;
  }
  if (kind === "cjs-this" || kind === "esm-this") {
    const esm = kind === "esm-this";
    const file = join(out, esm ? "sample-this.mjs" : "sample-this.cjs");
    writeFileSync(file, bundle(esm ? "0.9.5" : "0.9.4", esm, "this"));
    return file;
  }
  const esm = kind === "esm-package";
  if (!esm && kind !== "commonjs-package") throw new Error(`unknown kind ${kind}`);
  const version = esm ? "0.9.3" : "0.9.2";
  const dir = join(out, "package");
  mkdirSync(dir, { recursive: true });
  const manifest = { name: "searchlift-parse-mode-sample", version, type: esm ? "module" : "commonjs", bin: { sample: "cli.js" } };
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  writeFileSync(join(dir, "cli.js"), bundle(version, esm));
  return dir;
}

/**
 * Run `file` with Node in a child process and return what it answers to `query` on TOOLS: a release (its
 * program) through searchDeferredTools, or a
 * lifted module through the contract's searchTools. Node loads either as it would run it: by its extension and
 * its package's "type". Returns { ok: true, value } or { ok: false, error } (the release may not even load).
 */
export function searchWithNode(file, query, side) {
  const program = resolve(file);
  const script = `
const load = () => import(${JSON.stringify(pathToFileURL(program).href)});
const tools = ${JSON.stringify(TOOLS)};
load()
  .then((m) => (${JSON.stringify(side)} === "release" ? m.searchDeferredTools(${JSON.stringify(query)}, tools, tools, 5) : m.searchTools(${JSON.stringify(query)}, tools, {})))
  .then((value) => console.log(JSON.stringify({ ok: true, value })), (e) => console.log(JSON.stringify({ ok: false, error: String(e).split("\\n")[0] })));
`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30000 });
  if (r.status !== 0) throw new Error(`node failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [kind, out] = process.argv.slice(2);
  if (!kind || !out) {
    process.stderr.write("usage: node samples/parse-mode/build-release.mjs <cjs|commonjs-package|esm-package|cjs-this|esm-this> <out-dir>\n");
    process.exit(2);
  }
  const path = buildParseModeRelease(kind, out);
  const release = kind.endsWith("package") ? join(path, "cli.js") : path;
  process.stdout.write(`${path}\nnode on "injected": ${JSON.stringify(searchWithNode(release, "injected", "release"))}\n`);
}
