#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/, and bundled into dist/bundle/ (scripts/bundle.mjs), by
// `npm run build`, `npm test` and `npm pack` (prepack).
// A run is short and does much once: V8 is told to wait longer before optimizing a function, since
// optimizing on the second core competes with the input's hash (measured by `npm run bench`).
import { setFlagsFromString } from "node:v8";
setFlagsFromString("--interrupt-budget=800000");
import("../dist/bundle/main.js").then((m) => m.main(process.argv));
