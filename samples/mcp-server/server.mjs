#!/usr/bin/env node
// A small MCP server of our own, written with the official SDK, for `searchlift check --server` tests: four
// weather tools over stdio, one with a search hint, one always loaded, one whose name holds a character the
// client replaces ("geocode.lookup"). Its name, "weather demo", has a space the client replaces too.
// `--no-tools` starts a server that lists none.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "weather demo", version: "1.0.0" });
const reply = (text) => async () => ({ content: [{ type: "text", text }] });

if (!process.argv.includes("--no-tools")) {
  server.registerTool("get_forecast", { description: "Get the weather forecast for a city for the next days" }, reply("sunny"));
  server.registerTool(
    "list_alerts",
    { description: "List active severe weather alerts for a region", _meta: { "anthropic/searchHint": "storm warning" } },
    reply("none"),
  );
  server.registerTool("convert_units", { description: "Convert temperatures between Celsius and Fahrenheit", _meta: { "anthropic/alwaysLoad": true } }, reply("0"));
  server.registerTool("geocode.lookup", { description: "Find the coordinates of a place name" }, reply("0,0"));
} else {
  // A server with the tools capability but no tools: the SDK only answers tools/list once a tool was registered.
  server.registerTool("placeholder", { description: "removed" }, reply("")).remove();
}

await server.connect(new StdioServerTransport());
