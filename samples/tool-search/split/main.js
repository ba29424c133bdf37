// Code-split program: the entry reads the mode; the tool (call) and a debug command load lazily
// and both import the scorer, so a splitting bundler puts the scorer in a shared chunk.
import { isAutoValue, isEnvFalsy, isEnvTruthy, parseAutoPercent } from "../helpers.js";
export { rankDocuments, parseCommandLine, getTelemetryMode } from "../decoys.js";

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

export async function loadToolSearch() {
  if (getToolSearchMode() === "standard") return null;
  return (await import("./tool.js")).toolSearchTool;
}

export async function loadSearchExplainer() {
  return (await import("./explain.js")).explainSearch;
}
