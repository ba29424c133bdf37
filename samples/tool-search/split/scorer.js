// The keyword scorer and its name parser (searchHint generation).
import { describeTool, splitMcpName, wordBoundary } from "../helpers.js";

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
      if (!required.every((w) => parsed.parts.some((p) => p.includes(w)) || patterns.get(w).test(description))) return { name: tool.name, score: 0 };
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
