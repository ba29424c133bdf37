#!/usr/bin/env node
/**
 * The command line as one bundle (dist/bundle/), built after tsc: node then loads a few files at start-up
 * instead of some 140 modules, which cost more than a lift's reading of its input. Each module keeps its own
 * `import.meta.url` (the URL of its file under dist/), so the paths it finds beside itself (signatures,
 * samples, the sandbox's runner, the verifier's program) are the same bundled or not. Code that commands load
 * only when they run (check's MCP client, diff, track) stays in chunks of its own, loaded as before: on demand.
 */
import { build } from "esbuild";
import { readFile, rm } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const out = join(dist, "bundle");

/** Rewrite `import.meta.url` in a module of dist/ to that module's own URL, reckoned from the bundle's folder. */
const ownUrls = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      // The dependencies esbuild loads itself: only our modules are rewritten.
      if (!args.path.startsWith(dist + sep)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return { contents: text, loader: "js" };
      const own = relative(out, args.path).split(sep).join("/");
      return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: "js" };
    });
  },
};

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: { main: join(dist, "cli", "main.js") },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // typescript is loaded only to compile the sandbox's runner from source in a checkout without dist/.
  external: ["typescript"],
  // CommonJS dependencies (commander, estraverse) call require() for node's modules.
  banner: {
    js: 'import { createRequire as __searchliftRequire } from "node:module"; const require = __searchliftRequire(import.meta.url);',
  },
  plugins: [ownUrls],
  logLevel: "warning",
});
