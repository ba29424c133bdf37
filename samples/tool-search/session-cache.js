// Generation 11 (latest): a per-session cache of parsed names and cleaned descriptions; caps on
// the query (characters, words) and on `select:` lists; the per-tool loop yields to the event
// loop; exact names are matched case-sensitively first; `select:` falls back to the tool family
// that replaced a requested tool. alwaysLoad is checked by the caller of the policy.
import { TOOL_SEARCH_NAME, describeTool, featureFlag, isAutoValue, isEnvFalsy, isEnvTruthy, parseAutoPercent, splitMcpName, toolResult, wordBoundary, yieldToEventLoop } from "./helpers.js";
export * from "./decoys.js";

const MAX_QUERY_CHARS = 16384;
const MAX_QUERY_WORDS = 32;
const MAX_SELECT_NAMES = 64;
const MAX_HINT_CHARS = 4096;
const YIELD_EVERY = 64;
const SELECT_PATTERN = /^select:(.+)$/i;
const DESCRIPTION_BOILERPLATE = "\n\nThis tool was provided by a connected server; its results are not verified.";
const REPLACED_BY = new Map([["NotebookRead", "Read"]]);

function splitWords(text) {
  return text.toLowerCase().split(/[\s_.]+/).filter(Boolean);
}

export function getToolSearchMode() {
  if (isEnvTruthy(process.env.CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS)) return "standard";
  let value = process.env.ENABLE_TOOL_SEARCH,
    autoPercent = value ? parseAutoPercent(value) : null;
  if (autoPercent === 0) return "tst";
  if (autoPercent === 100) return "standard";
  if (isAutoValue(value)) return "tst-auto";
  if (isEnvTruthy(value)) return "tst";
  if (isEnvFalsy(value)) return "standard";
  if (featureFlag("tool_search_default", true) === false) return "standard";
  return "tst-auto";
}

export function isDeferredTool(tool, options) {
  if (tool.isMcp === true) return true;
  if (tool.name === TOOL_SEARCH_NAME) return false;
  if (options.rareBuiltins.includes(tool.name)) return true;
  return tool.shouldDefer === true;
}

export function parseToolName(tool) {
  let info = tool.mcpInfo ?? splitMcpName(tool.name);
  if (info) {
    let server = info.serverName.toLowerCase();
    let action = info.toolName.toLowerCase();
    let mcpParts = splitWords(`${server} ${action}`);
    let wholeNames = [server, action];
    return { parts: mcpParts, coarseParts: wholeNames, full: `${server} ${action}`.replace(/[_.]+/g, " "), isMcp: true };
  }
  let builtinWords = splitWords(tool.name.replace(/([a-z])([A-Z])/g, "$1 $2"));
  return { parts: builtinWords, coarseParts: [tool.name.toLowerCase()], full: builtinWords.join(" "), isMcp: false };
}

export class ToolSearchSession {
  #names = new Map();
  #descriptions = new Map();

  parsedNameOf(tool) {
    let hit = this.#names.get(tool.name);
    if (!hit) this.#names.set(tool.name, (hit = parseToolName(tool)));
    return hit;
  }

  async descriptionOf(tool, allTools) {
    let hit = this.#descriptions.get(tool.name);
    if (hit === undefined) {
      hit = (await describeTool(tool, allTools)).replace(DESCRIPTION_BOILERPLATE, "");
      this.#descriptions.set(tool.name, hit);
    }
    return hit;
  }

  clear() {
    this.#names.clear();
    this.#descriptions.clear();
  }
}

export function capQuery(text) {
  return String(text ?? "").slice(0, MAX_QUERY_CHARS);
}

export async function searchDeferredTools(query, deferredTools, allTools, maxResults, session) {
  let trimmed = query.trim();
  let exactCase = deferredTools.find((t) => t.name === trimmed);
  if (exactCase) return [exactCase.name];
  let lowered = trimmed.toLowerCase();
  let exact = deferredTools.find((t) => t.name.toLowerCase() === lowered);
  if (exact) return [exact.name];
  if (lowered.startsWith("mcp__") && lowered.length > 5) {
    let prefixed = deferredTools.filter((t) => t.name.toLowerCase().startsWith(lowered));
    if (prefixed.length > 0) return prefixed.slice(0, maxResults).map((t) => t.name);
  }
  let required = [];
  let optional = [];
  for (let word of lowered.split(/\s+/).filter((w) => w.length > 0).slice(0, MAX_QUERY_WORDS)) {
    if (word.startsWith("+") && word.length > 1) required.push(word.slice(1));
    else optional.push(word);
  }
  let terms = [...required, ...optional];
  let patterns = new Map(terms.map((w) => [w, wordBoundary(w)]));
  let scoreOne = async (tool) => {
    let parsed = session.parsedNameOf(tool);
    let description = await session.descriptionOf(tool, allTools);
    let hint = (tool.searchHint ?? "").slice(0, MAX_HINT_CHARS);
    let hasTerm = (w) => parsed.parts.some((p) => p.includes(w)) || patterns.get(w).test(description) || patterns.get(w).test(hint);
    if (!required.every(hasTerm)) return { name: tool.name, score: 0 };
    let score = 0;
    for (let term of terms) {
      if (parsed.parts.includes(term)) score += parsed.isMcp ? 12 : 10;
      else if (parsed.parts.some((part) => part.includes(term))) score += parsed.isMcp ? 6 : 5;
      if (parsed.coarseParts.includes(term)) score += parsed.isMcp ? 12 : 10;
      else if (parsed.coarseParts.some((whole) => whole.includes(term))) score += parsed.isMcp ? 4 : 3;
      if (score === 0 && parsed.full.includes(term)) score += 3;
      if (hint && patterns.get(term).test(hint)) score += 4;
      if (patterns.get(term).test(description)) score += 2;
    }
    return { name: tool.name, score };
  };
  let results = [];
  let seen = 0;
  for (let candidate of deferredTools) {
    if (++seen % YIELD_EVERY === 0) await yieldToEventLoop();
    results.push(await scoreOne(candidate));
  }
  return results
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, maxResults)
    .map((r) => r.name);
}

function findSelected(tools, wanted) {
  return tools.find((t) => t.name === wanted || (t.aliases ?? []).includes(wanted));
}

export const toolSearchTool = {
  name: TOOL_SEARCH_NAME,
  isReadOnly() {
    return true;
  },
  async call(input, context) {
    let { max_results: maxResults = 5 } = input;
    let query = capQuery(input.query);
    let allTools = context.options.tools;
    let policy = { rareBuiltins: featureFlag("rare_builtins", []) };
    let deferred = allTools.filter((t) => t.alwaysLoad !== true && isDeferredTool(t, policy));
    let selectList = SELECT_PATTERN.exec(query)?.[1];
    if (selectList !== undefined) {
      let requested = selectList
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .slice(0, MAX_SELECT_NAMES);
      let found = [];
      for (let wanted of requested) {
        let hit = findSelected(deferred, wanted) ?? findSelected(allTools, wanted);
        if (!hit && REPLACED_BY.has(wanted)) hit = findSelected(allTools, REPLACED_BY.get(wanted));
        if (hit && !found.includes(hit.name)) found.push(hit.name);
      }
      return toolResult(found, query, deferred.length);
    }
    let session = (context.toolSearchSession ??= new ToolSearchSession());
    let matches = await searchDeferredTools(query, deferred, allTools, maxResults, session);
    return toolResult(matches, query, deferred.length);
  },
};
