/**
 * An MCP server's tools as Claude Code's client presents them to the tool search: the name it gives them
 * (`mcp__<server>__<tool>`, each character outside [A-Za-z0-9_-] replaced by `_`), `mcpInfo` with the
 * names as the server and the user gave them, the `anthropic/searchHint` meta as `searchHint`, and the
 * `anthropic/alwaysLoad` meta deciding whether the tool is loaded up front instead of deferred.
 */

/** A tool as an MCP server lists it (`tools/list`). */
export interface ListedTool {
  name: string;
  description?: string;
  _meta?: Record<string, unknown>;
}

/** A tool as the search receives it (the scorer-module contract's Tool), and whether it is loaded. */
export interface ClientTool {
  name: string;
  description: string;
  searchHint?: string;
  isMcp: true;
  mcpInfo: { serverName: string; toolName: string };
  /** Loaded up front (`anthropic/alwaysLoad`): passed as `loaded`, not among the deferred tools. */
  alwaysLoad: boolean;
}

export const SEARCH_HINT_META = "anthropic/searchHint";
export const ALWAYS_LOAD_META = "anthropic/alwaysLoad";

/** A name part as the client normalises it for a tool name. */
export function normalizeNamePart(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function clientToolName(serverName: string, toolName: string): string {
  return `mcp__${normalizeNamePart(serverName)}__${normalizeNamePart(toolName)}`;
}

export function clientTool(serverName: string, tool: ListedTool): ClientTool {
  const hint = tool._meta?.[SEARCH_HINT_META];
  return {
    name: clientToolName(serverName, tool.name),
    description: tool.description ?? "",
    ...(typeof hint === "string" && hint.trim() ? { searchHint: hint } : {}),
    isMcp: true,
    mcpInfo: { serverName, toolName: tool.name },
    alwaysLoad: tool._meta?.[ALWAYS_LOAD_META] === true,
  };
}

/** What crosses into the sandbox: the contract's fields only (alwaysLoad decides the list, it is not a field). */
export function contractTool(t: ClientTool): Omit<ClientTool, "alwaysLoad"> {
  const { alwaysLoad: _alwaysLoad, ...rest } = t;
  return rest;
}

/**
 * `--loaded`: tools loaded up front, not deferred. A listed tool that is also one of the server's tools or a
 * competitor (the same client name) becomes loaded there; the rest join the catalog as loaded tools.
 */
export function markLoaded(
  tools: ClientTool[],
  competitors: ClientTool[],
  loaded: ClientTool[],
): { tools: ClientTool[]; competitors: ClientTool[] } {
  const names = new Set(loaded.map((t) => t.name));
  const mark = (t: ClientTool): ClientTool => (names.has(t.name) ? { ...t, alwaysLoad: true } : t);
  const known = new Set([...tools, ...competitors].map((t) => t.name));
  const extra = loaded.filter((t) => !known.has(t.name)).map((t) => ({ ...t, alwaysLoad: true }));
  return { tools: tools.map(mark), competitors: [...competitors.map(mark), ...extra] };
}
