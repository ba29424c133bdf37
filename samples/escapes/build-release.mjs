#!/usr/bin/env node
// Builds a sample release whose scorer runs an escape form: samples/tool-search/name-parts.js (the
// code of samples/releases/0.3.0) with every tool name passed through the form's probe(), so the
// form lands in a helper the lift includes. And runs a release or a lifted module with host access,
// to see whether a form's payload wrote its marker.
//   node samples/escapes/build-release.mjs <form.js> <out-file>
import { buildSync } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const SCORER = join(here, "..", "tool-search", "name-parts.js");
const CALL_SITE = "let parsed = parseToolName(tool.name);";

/** Each form file's header: what the check reports for it, whether the lift refuses or contains it, and its control. */
export function formInfo(file) {
  const text = readFileSync(file, "utf8");
  const field = (name) => new RegExp(`^// ${name}: (.*)$`, "m").exec(text)?.[1] ?? null;
  return { name: basename(file, ".js"), check: field("check"), lift: field("lift"), control: field("control"), text };
}

export function buildEscapeRelease(form, outFile) {
  const source = readFileSync(SCORER, "utf8");
  if (!source.includes(CALL_SITE)) throw new Error(`${SCORER} no longer holds ${CALL_SITE}`);
  const dir = mkdtempSync(join(tmpdir(), "searchlift-escape-"));
  try {
    const entry = join(dir, "entry.js");
    const imports = source.replace(/from "\.\/([^"]+)"/g, (_, f) => `from ${JSON.stringify(join(dirname(SCORER), f))}`);
    writeFileSync(entry, `import { probe } from ${JSON.stringify(resolve(form))};\n` + imports.replace(CALL_SITE, "let parsed = parseToolName(probe(tool.name));"));
    const version = `0.9.0-${basename(form, ".js")}`;
    const r = buildSync({
      entryPoints: [entry],
      bundle: true,
      format: "esm",
      platform: "node",
      write: false,
      logLevel: "silent",
      banner: { js: `// searchlift escape sample ${version}\nexport const BUILD = {PACKAGE_URL:"searchlift-sample",VERSION:"${version}"};` },
    });
    writeFileSync(outFile, r.outputFiles[0].text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Import a module in a child process with host access and call its search, then run a few idioms
 * the importer's own code might run (some forms wait for the importer to call a hook they planted).
 * `calls` says which exports to call: the release's searchDeferredTools, or a lifted module's contract.
 */
export function runWithHostAccess(moduleFile, calls, marker) {
  const script = `
const m = await import(${JSON.stringify(pathToFileURL(moduleFile).href)});
const tools = [{ name: "Read", description: "reads a file" }, { name: "mcp__files__write", description: "writes" }];
const calls = ${JSON.stringify(calls)};
for (const c of calls) {
  try {
    if (c === "searchDeferredTools") await m.searchDeferredTools("read file", tools, tools, 5);
    else await m[c]("read file", tools, {});
  } catch {}
}
const idioms = [
  () => Object.prototype.hasOwnProperty.call(process, "env"),
  () => Object.prototype.toString.call(process),
  () => String.raw({ raw: ["pid ", ""] }, process),
  () => JSON.stringify({ version: process.version }),
  () => [process.title].includes(process.title),
  () => new Error("importer").stack,
];
for (const idiom of idioms) try { idiom(); } catch {}
await new Promise((r) => setTimeout(r, 50));
`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, SEARCHLIFT_ESCAPE_MARKER: marker }, encoding: "utf8", timeout: 30000 });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [form, out] = process.argv.slice(2);
  if (!form || !out) {
    process.stderr.write("usage: node samples/escapes/build-release.mjs <form.js> <out-file>\n");
    process.exit(2);
  }
  buildEscapeRelease(form, out);
  process.stdout.write(`${out} ← ${form}\n`);
}
