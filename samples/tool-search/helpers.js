// Small utilities shared by the tool-search samples. Nothing here is a located routine.

export const TOOL_SEARCH_NAME = "ToolSearch";
export const MCP_SEARCH_NAME = "MCPSearch";

export function isEnvTruthy(value) {
  if (!value) return false;
  return ["1", "true", "yes", "on"].includes(String(value).trim().toLowerCase());
}

export function isEnvFalsy(value) {
  if (value === undefined) return false;
  return ["0", "false", "no", "off"].includes(String(value).trim().toLowerCase());
}

/** "auto:N" → N (0..100), "auto" → 10, anything else → null. */
export function parseAutoPercent(value) {
  let m = /^auto(?::(\d{1,3}))?$/i.exec(String(value).trim());
  if (!m) return null;
  let n = m[1] === undefined ? 10 : Number(m[1]);
  return n >= 0 && n <= 100 ? n : null;
}

export function isAutoValue(value) {
  return /^auto(:\d{1,3})?$/i.test(String(value).trim());
}

const flags = new Map();
export function featureFlag(name, fallback) {
  return flags.has(name) ? flags.get(name) : fallback;
}
export function setFeatureFlag(name, value) {
  flags.set(name, value);
}

export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function wordBoundary(term) {
  return new RegExp(`\\b${escapeRegExp(term)}\\b`, "i");
}

export function yieldToEventLoop() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `mcp__server__tool` → { serverName, toolName }, else null. */
export function splitMcpName(name) {
  if (!name.startsWith("mcp__")) return null;
  let [serverName, ...rest] = name.slice(5).split("__");
  if (!serverName || rest.length === 0) return null;
  return { serverName, toolName: rest.join("__") };
}

export function toolResult(matches, query, totalDeferred) {
  return { data: { matches, query, total_deferred_tools: totalDeferred } };
}

export async function describeTool(tool, allTools) {
  let owner = allTools.find((t) => t.name === tool.name) ?? tool;
  return typeof owner.prompt === "function" ? await owner.prompt() : (owner.description ?? "");
}
