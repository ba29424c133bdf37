// The sample server's tools, shared by the stdio server (server.mjs) and the HTTP one (http-server.mjs): four
// weather tools, one with a search hint, one always loaded, one whose name holds a character the client
// replaces ("geocode.lookup"). The server's name, "weather demo", has a space the client replaces too.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

const reply = (text) => async () => ({ content: [{ type: "text", text }] });

/** A new server; with `noTools`, one with the tools capability but no tools. */
export function weatherServer({ noTools = false } = {}) {
  const server = new McpServer({ name: "weather demo", version: "1.0.0" });
  if (noTools) {
    // The SDK only answers tools/list once a tool was registered.
    server.registerTool("placeholder", { description: "removed" }, reply("")).remove();
    return server;
  }
  server.registerTool("get_forecast", { description: "Get the weather forecast for a city for the next days" }, reply("sunny"));
  server.registerTool(
    "list_alerts",
    { description: "List active severe weather alerts for a region", _meta: { "anthropic/searchHint": "storm warning" } },
    reply("none"),
  );
  server.registerTool("convert_units", { description: "Convert temperatures between Celsius and Fahrenheit", _meta: { "anthropic/alwaysLoad": true } }, reply("0"));
  server.registerTool("geocode.lookup", { description: "Find the coordinates of a place name" }, reply("0,0"));
  return server;
}
