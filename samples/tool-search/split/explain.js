// A debug command that shares the scorer with the tool.
import { parseToolName, searchDeferredTools } from "./scorer.js";

export async function explainSearch(query, tools) {
  let names = await searchDeferredTools(query, tools, tools, 10);
  return names.map((name) => ({ name, parts: parseToolName(tools.find((t) => t.name === name)).parts }));
}
