// Generation 1 (MCPSearch, 2.0.70-like): substring scoring over MCP tools only, `select:<name>`
// picks one exact name, tool search only when ENABLE_TOOL_SEARCH is set.
import { MCP_SEARCH_NAME, isEnvTruthy } from "./helpers.js";
export * from "./decoys.js";

export function getToolSearchMode() {
  if (isEnvTruthy(process.env.ENABLE_TOOL_SEARCH)) return "tst";
  if (isEnvTruthy(process.env.ENABLE_EXPERIMENTAL_MCP_CLI)) return "mcp-cli";
  return "standard";
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
  let scored = await Promise.all(
    mcpTools.map(async (tool) => {
      let nameKey = tool.name.toLowerCase().replace(/__/g, " ");
      let description = (await mcpToolPrompt(tool.name, allTools)).toLowerCase();
      let score = 0;
      for (let term of terms) {
        if (nameKey === term) score += 10;
        else if (nameKey.includes(term)) score += 5;
        if (description.includes(term)) score += 2;
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
  async description() {
    return "Search the connected MCP servers for tools by keyword, or load one with select:<name>.";
  },
  async call(input, { options: { tools } }) {
    let { query, max_results: maxResults = 5 } = input;
    let mcpTools = tools.filter((t) => t.isMcp);
    let selectMatch = query.match(/^select:(.+)$/i);
    if (selectMatch) {
      let selectedName = selectMatch[1].trim();
      let hit = mcpTools.find((t) => t.name === selectedName);
      return { data: { matches: hit ? [hit.name] : [], query, total_mcp_tools: mcpTools.length } };
    }
    let matches = await searchMcpTools(query, mcpTools, tools, maxResults);
    return { data: { matches, query, total_mcp_tools: mcpTools.length } };
  },
};
