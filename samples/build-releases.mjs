#!/usr/bin/env node
// Builds samples/releases/: our tool-search samples bundled as if they were successive releases of
// one client, one file per version (a versions folder, like ~/.local/share/claude/versions).
// 0.3.0 and 0.3.1 are the same code, once unminified and once with mangled names: a timeline must
// not see a change there. samples/refused/0.8.0 is a release the lift must refuse: its scorer reads a
// weight from the environment (samples/lift/env-weight.js); tests add it to show how a timeline
// reports a refused release, and it stays out of the default set so that `track` on a fresh clone
// lifts everything it is given.
// Run after editing samples/tool-search/: node samples/build-releases.mjs
import { buildSync } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
for (const folder of ["releases", "refused"]) mkdirSync(join(here, folder), { recursive: true });
const releases = [
  ["0.1.0", "mcp-name-substring", true],
  ["0.2.0", "mcp-server-actions", true],
  ["0.3.0", "name-parts", false],
  ["0.3.1", "name-parts", true],
  ["0.4.0", "required-terms", true],
  ["0.5.0", "search-hint", true],
  ["0.6.0", "coarse-parts", true],
  ["0.7.0", "session-cache", true],
  ["0.8.0", "../lift/env-weight", true],
];
for (const [version, sample, mangle] of releases) {
  const r = buildSync({
    entryPoints: [join(here, "tool-search", `${sample}.js`)],
    bundle: true,
    format: "esm",
    minifyIdentifiers: mangle,
    minifyWhitespace: mangle,
    write: false,
    logLevel: "silent",
    // Build information the way a client embeds it, so the lift reads client and version from the file.
    banner: { js: `// searchlift sample release ${version}: ${join("samples", "tool-search", `${sample}.js`).replace(/samples\/tool-search\/\.\.\//, "samples/")}${mangle ? ", names mangled" : ""}\nexport const BUILD = {PACKAGE_URL:"searchlift-sample",VERSION:"${version}"};` },
  });
  const folder = sample.startsWith("../lift/") ? "refused" : "releases";
  writeFileSync(join(here, folder, version), r.outputFiles[0].text);
  console.log(`samples/${folder}/${version} ← ${sample}`);
}
