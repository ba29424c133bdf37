// Generation 6-7: `searchHint` (from _meta["anthropic/searchHint"]) word match +4; `select:`
// takes a comma-separated list looked up in the deferred tools, then all tools, by name or
// alias; names parsed from the tool object (mcpInfo, else the mcp__server__tool name);
// alwaysLoad tools are never deferred.
import { TOOL_SEARCH_NAME, describeTool, isAutoValue, isEnvFalsy, isEnvTruthy, parseAutoPercent, splitMcpName, toolResult, wordBoundary } from "./helpers.js";
export * from "./decoys.js";

export function getToolSearchMode() {
  let value = process.env.ENABLE_TOOL_SEARCH,
    autoPercent = value ? parseAutoPercent(value) : null;
  if (autoPercent === 0) return "tst";
  if (autoPercent === 100) return "standard";
  if (isAutoValue(value)) return "tst-auto";
  if (isEnvTruthy(value)) return "tst";
  if (isEnvFalsy(value)) return "standard";
  return "tst";
}

export function isDeferredTool(tool) {
  if (tool.alwaysLoad === true) return false;
  if (tool.isMcp === true) return true;
  if (tool.name === TOOL_SEARCH_NAME) return false;
  return tool.shouldDefer === true;
}

export function mcpToolFromDefinition(server, definition) {
  let meta = definition._meta ?? {};
  return {
    name: `mcp__${server}__${definition.name}`,
    description: definition.description ?? "",
    isMcp: true,
    mcpInfo: { serverName: server, toolName: definition.name },
    alwaysLoad: meta["anthropic/alwaysLoad"] === true,
    searchHint: typeof meta["anthropic/searchHint"] === "string" ? meta["anthropic/searchHint"] : undefined,
  };
}

export function parseToolName(tool) {
  let info = tool.mcpInfo ?? splitMcpName(tool.name);
  if (info) {
    let server = info.serverName.toLowerCase();
    let action = info.toolName.toLowerCase();
    let mcpParts = `${server} ${action}`.split(/[\s_.]+/).filter(Boolean);
    return { parts: mcpParts, full: `${server} ${action}`.replace(/[_.]+/g, " "), isMcp: true };
  }
  let builtinWords = tool.name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_.]+/)
    .filter(Boolean);
  return { parts: builtinWords, full: builtinWords.join(" "), isMcp: false };
}

export async function searchDeferredTools(query, deferredTools, allTools, maxResults) {
  let lowered = query.trim().toLowerCase();
  let exact = deferredTools.find((t) => t.name.toLowerCase() === lowered);
  if (exact) return [exact.name];
  if (lowered.startsWith("mcp__") && lowered.length > 5) {
    let prefixed = deferredTools.filter((t) => t.name.toLowerCase().startsWith(lowered));
    if (prefixed.length > 0) return prefixed.slice(0, maxResults).map((t) => t.name);
  }
  let required = [];
  let optional = [];
  for (let word of lowered.split(/\s+/).filter((w) => w.length > 0)) {
    if (word.startsWith("+") && word.length > 1) required.push(word.slice(1));
    else optional.push(word);
  }
  let terms = [...required, ...optional];
  let patterns = new Map(terms.map((w) => [w, wordBoundary(w)]));
  let scored = await Promise.all(
    deferredTools.map(async (tool) => {
      let parsed = parseToolName(tool);
      let description = await describeTool(tool, allTools);
      let hint = tool.searchHint ?? "";
      let hasTerm = (w) => parsed.parts.some((p) => p.includes(w)) || patterns.get(w).test(description) || patterns.get(w).test(hint);
      if (!required.every(hasTerm)) return { name: tool.name, score: 0 };
      let score = 0;
      for (let term of terms) {
        if (parsed.parts.includes(term)) score += parsed.isMcp ? 12 : 10;
        else if (parsed.parts.some((part) => part.includes(term))) score += parsed.isMcp ? 6 : 5;
        if (score === 0 && parsed.full.includes(term)) score += 3;
        if (hint && patterns.get(term).test(hint)) score += 4;
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

function findByNameOrAlias(tools, wanted) {
  return tools.find((t) => t.name === wanted || (t.aliases ?? []).includes(wanted));
}

export const toolSearchTool = {
  name: TOOL_SEARCH_NAME,
  isReadOnly() {
    return true;
  },
  async call(input, context) {
    let { query, max_results: maxResults = 5 } = input;
    let allTools = context.options.tools;
    let deferred = allTools.filter(isDeferredTool);
    let selectMatch = query.match(/^select:(.+)$/i);
    if (selectMatch) {
      let requested = selectMatch[1].split(",").map((s) => s.trim()).filter(Boolean);
      let found = [];
      for (let wanted of requested) {
        let hit = findByNameOrAlias(deferred, wanted) ?? findByNameOrAlias(allTools, wanted);
        if (hit && !found.includes(hit.name)) found.push(hit.name);
      }
      return toolResult(found, query, deferred.length);
    }
    let matches = await searchDeferredTools(query, deferred, allTools, maxResults);
    return toolResult(matches, query, deferred.length);
  },
};
