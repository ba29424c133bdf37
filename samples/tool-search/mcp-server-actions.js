// Generation 2 (later MCPSearch): names parsed into a server and actions with separate weights,
// a full-name fallback when nothing else scored, descriptions matched at word boundaries.
import { MCP_SEARCH_NAME, isEnvTruthy, wordBoundary } from "./helpers.js";
export * from "./decoys.js";

export function getToolSearchMode() {
  if (isEnvTruthy(process.env.ENABLE_TOOL_SEARCH)) return "tst";
  if (isEnvTruthy(process.env.ENABLE_EXPERIMENTAL_MCP_CLI)) return "mcp-cli";
  return "standard";
}

export function parseMcpToolName(toolName) {
  let withoutPrefix = toolName.replace(/^mcp__/, "").toLowerCase();
  let [serverName = "", ...rest] = withoutPrefix.split("__");
  let actionWords = rest.join("_").split("_").filter(Boolean);
  return { server: serverName, actions: actionWords, full: withoutPrefix.replace(/__/g, " ").replace(/_/g, " ") };
}

async function mcpToolPrompt(name, allTools) {
  let tool = allTools.find((t) => t.name === name);
  if (!tool) return "";
  return typeof tool.prompt === "function" ? await tool.prompt() : (tool.description ?? "");
}

export async function searchMcpTools(query, mcpTools, allTools, maxResults) {
  let terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  let patterns = new Map(terms.map((w) => [w, wordBoundary(w)]));
  let scored = await Promise.all(
    mcpTools.map(async (tool) => {
      let parsed = parseMcpToolName(tool.name);
      let description = await mcpToolPrompt(tool.name, allTools);
      let score = 0;
      for (let term of terms) {
        if (parsed.server === term) score += 12;
        else if (parsed.server.includes(term)) score += 6;
        if (parsed.actions.includes(term)) score += 8;
        else if (parsed.actions.some((action) => action.includes(term))) score += 4;
        if (score === 0 && parsed.full.includes(term)) score += 3;
        if (patterns.get(term).test(description)) score += 2;
      }
      return { name: tool.name, score };
    }),
  );
  return scored
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, maxResults)
    .map((r) => r.name);
}

export const mcpSearchTool = {
  name: MCP_SEARCH_NAME,
  isReadOnly() {
    return true;
  },
  isEnabled() {
    return getToolSearchMode() === "tst";
  },
  async call(input, context) {
    let { query, max_results: maxResults = 5 } = input;
    let allTools = context.options.tools;
    let mcpTools = allTools.filter((t) => t.isMcp);
    let selectMatch = query.match(/^select:(.+)$/i);
    if (selectMatch) {
      let selectedName = selectMatch[1].trim();
      let hit = mcpTools.find((t) => t.name === selectedName);
      return { data: { matches: hit ? [hit.name] : [], query, total_mcp_tools: mcpTools.length } };
    }
    let matches = await searchMcpTools(query, mcpTools, allTools, maxResults);
    return { data: { matches, query, total_mcp_tools: mcpTools.length } };
  },
};
