// A scorer whose name parser keeps a cache on the global object.
function splitName(name) {
  globalThis.__splitCache ??= new Map();
  if (!globalThis.__splitCache.has(name)) globalThis.__splitCache.set(name, name.toLowerCase().split(/__|_/).filter(Boolean));
  return globalThis.__splitCache.get(name);
}
export async function rankTools(query, tools, allTools, maxResults) {
  const terms = query.toLowerCase().split(/\s+/).filter((t) => t.length > 0);
  return (await Promise.all(tools.map(async (tool) => {
    const parsed = { parts: splitName(tool.name), isMcp: tool.name.startsWith("mcp__") };
    let score = 0;
    for (let term of terms) {
      if (parsed.parts.includes(term)) score += parsed.isMcp ? 12 : 10;
      else if (parsed.parts.some((part) => part.includes(term))) score += parsed.isMcp ? 6 : 5;
    }
    return { name: tool.name, score };
  }))).filter((r) => r.score > 0).sort((a, b) => b.score - a.score).slice(0, maxResults).map((r) => r.name);
}
