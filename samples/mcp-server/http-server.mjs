#!/usr/bin/env node
// The same weather tools over streamable HTTP (the SDK's StreamableHTTPServerTransport), for
// `searchlift check --url` tests. Stateless: each POST gets a new server and transport, as the SDK's
// stateless example does. Listens on 127.0.0.1, on --port N or a free port, and prints its URL on stdout.
//   --no-tools   the server lists no tools
//   --silent     accepts connections but never answers (a server that hangs)
import { createServer } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { weatherServer } from "./tools.mjs";

const argv = process.argv.slice(2);
const port = argv.includes("--port") ? Number(argv[argv.indexOf("--port") + 1]) : 0;
const noTools = argv.includes("--no-tools");
const silent = argv.includes("--silent");

const http = createServer(async (req, res) => {
  if (silent) return; // hold the request open, never answer
  if (req.method !== "POST") {
    res.writeHead(405, { Allow: "POST" }).end();
    return;
  }
  const server = weatherServer({ noTools });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});

http.listen(port, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
});
