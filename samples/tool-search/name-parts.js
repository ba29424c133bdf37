// Generation 3 (ToolSearch): searches the deferred tools; names split into parts (MCP names on
// `__` and `_`, built-in names at camelCase boundaries); exact part +12 MCP / +10 built-in,
// substring +6/+5, full-name fallback +3, description word +2.
import { TOOL_SEARCH_NAME, describeTool, isAutoValue, isEnvFalsy, isEnvTruthy, parseAutoPercent, toolResult, wordBoundary } from "./helpers.js";
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
  if (tool.isMcp === true) return true;
  if (tool.name === TOOL_SEARCH_NAME) return false;
  return tool.shouldDefer === true;
}

export function parseToolName(name) {
  if (name.startsWith("mcp__")) {
    let rest = name.slice(5).toLowerCase();
    let mcpParts = rest
      .split("__")
      .flatMap((segment) => segment.split("_"))
      .filter(Boolean);
    return { parts: mcpParts, full: rest.replace(/__/g, " ").replace(/_/g, " "), isMcp: true };
  }
  let builtinWords = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  return { parts: builtinWords, full: builtinWords.join(" "), isMcp: false };
}

export async function searchDeferredTools(query, deferredTools, allTools, maxResults) {
  let terms = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  let patterns = new Map(terms.map((w) => [w, wordBoundary(w)]));
  let scored = await Promise.all(
    deferredTools.map(async (tool) => {
      let parsed = parseToolName(tool.name);
      let description = await describeTool(tool, allTools);
      let score = 0;
      for (let term of terms) {
        if (parsed.parts.includes(term)) score += parsed.isMcp ? 12 : 10;
        else if (parsed.parts.some((part) => part.includes(term))) score += parsed.isMcp ? 6 : 5;
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

export const toolSearchTool = {
  name: TOOL_SEARCH_NAME,
  isReadOnly() {
    return true;
  },
  isEnabled() {
    return getToolSearchMode() !== "standard";
  },
  async call(input, context) {
    let { query, max_results: maxResults = 5 } = input;
    let allTools = context.options.tools;
    let deferred = allTools.filter(isDeferredTool);
    let selectMatch = query.match(/^select:(.+)$/i);
    if (selectMatch) {
      let requested = selectMatch[1].trim();
      let found = deferred.find((t) => t.name === requested) ?? allTools.find((t) => t.name === requested);
      return toolResult(found ? [found.name] : [], query, deferred.length);
    }
    let matches = await searchDeferredTools(query, deferred, allTools, maxResults);
    return toolResult(matches, query, deferred.length);
  },
};
