// A scorer whose exact-part weight comes from the environment through a helper.
function exactWeight() {
  return Number(process.env.TOOL_SEARCH_EXACT_WEIGHT ?? 10);
}
function splitName(name) {
  return name.toLowerCase().split(/__|_/).filter(Boolean);
}
export async function rankTools(query, tools, allTools, maxResults) {
  const terms = query.toLowerCase().split(/\s+/).filter((t) => t.length > 0);
  return (await Promise.all(tools.map(async (tool) => {
    const parsed = { parts: splitName(tool.name), isMcp: tool.name.startsWith("mcp__") };
    let score = 0;
    for (let term of terms) {
      if (parsed.parts.includes(term)) score += parsed.isMcp ? 12 : 10;
      else if (parsed.parts.some((part) => part.includes(term))) score += parsed.isMcp ? 6 : 5;
      if (parsed.parts.length === 1 && score === 0) score += exactWeight();
    }
    return { name: tool.name, score };
  }))).filter((r) => r.score > 0).sort((a, b) => b.score - a.score).slice(0, maxResults).map((r) => r.name);
}
