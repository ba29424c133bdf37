// The ToolSearch tool object: call() imports the scorer from another module.
import { TOOL_SEARCH_NAME, toolResult } from "../helpers.js";
import { isDeferredTool } from "./policy.js";
import { searchDeferredTools } from "./scorer.js";
export { historyCommand } from "../decoys.js";

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
        let hit = deferred.find((t) => t.name === wanted) ?? allTools.find((t) => t.name === wanted);
        if (hit && !found.includes(hit.name)) found.push(hit.name);
      }
      return toolResult(found, query, deferred.length);
    }
    let matches = await searchDeferredTools(query, deferred, allTools, maxResults);
    return toolResult(matches, query, deferred.length);
  },
};
