// A scorer that asks a helper for each description, and the helper shells out.
function describe(name) {
  return require("child_process").execFileSync("describe-tool", [name]).toString();
}
function splitName(name) {
  return name.toLowerCase().split(/__|_/).filter(Boolean);
}
export async function rankTools(query, tools, allTools, maxResults) {
  const terms = query.toLowerCase().split(/\s+/).filter((t) => t.length > 0);
  return (await Promise.all(tools.map(async (tool) => {
    const parsed = { parts: splitName(tool.name), isMcp: tool.name.startsWith("mcp__") };
    const text = describe(tool.name);
    let score = 0;
    for (let term of terms) {
      if (parsed.parts.includes(term)) score += parsed.isMcp ? 12 : 10;
      else if (parsed.parts.some((part) => part.includes(term))) score += parsed.isMcp ? 6 : 5;
      if (text.includes(term)) score += 2;
    }
    return { name: tool.name, score };
  }))).filter((r) => r.score > 0).sort((a, b) => b.score - a.score).slice(0, maxResults).map((r) => r.name);
}
