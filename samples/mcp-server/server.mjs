#!/usr/bin/env node
// A small MCP server of our own, written with the official SDK, for `searchlift check --server` tests: the
// weather tools of tools.mjs over stdio. `--no-tools` starts a server that lists none.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { weatherServer } from "./tools.mjs";

await weatherServer({ noTools: process.argv.includes("--no-tools") }).connect(new StdioServerTransport());
