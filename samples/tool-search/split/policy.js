import { TOOL_SEARCH_NAME } from "../helpers.js";

export function isDeferredTool(tool) {
  if (tool.alwaysLoad === true) return false;
  if (tool.isMcp === true) return true;
  if (tool.name === TOOL_SEARCH_NAME) return false;
  return tool.shouldDefer === true;
}
