#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm install` (prepare) and `npm test`.
import("../dist/cli.js").then((m) => m.main(process.argv));
