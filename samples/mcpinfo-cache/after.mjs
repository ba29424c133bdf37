// A tool-search module written for searchlift's witness tests (no release code): the contract's exports over a
// scorer simple enough to predict, whose name parts come from a tool's mcpInfo when it has one. after.mjs keeps
// the parts in a WeakMap keyed by that mcpInfo — the same answers for every mcpInfo that is an object, and a
// throw for one that is not (a text, a flag, a number), which the witness search must find from the field the
// changed code reads. Per query word: a name part equal to it +10, a whole word of the description +2.

function nameParts(tool) {
  const info = tool.mcpInfo;
  if (info) return [info.serverName, info.toolName].filter((p) => p).flatMap((p) => p.toLowerCase().split(/[_.]+/));
  return tool.name.toLowerCase().split(/__|_/).filter((p) => p.length > 0 && p !== "mcp");
}

const partsByInfo = new WeakMap();

function partsOf(tool) {
  if (!tool.mcpInfo) return nameParts(tool);
  let parts = partsByInfo.get(tool.mcpInfo);
  if (parts === undefined) {
    parts = nameParts(tool);
    partsByInfo.set(tool.mcpInfo, parts);
  }
  return parts;
}

function scoreOne(tool, terms) {
  const parts = partsOf(tool);
  const words = (tool.description ?? "").toLowerCase().split(/[^a-z0-9]+/);
  let score = 0;
  for (const term of terms) {
    if (parts.includes(term)) score += 10;
    if (words.includes(term)) score += 2;
  }
  return score;
}

const termsOf = (query) => query.toLowerCase().split(/\s+/).filter((t) => t.length > 0);

async function scoreTools(query, deferred, options = {}) {
  const terms = termsOf(query);
  return deferred.map((tool) => ({ name: tool.name, score: scoreOne(tool, terms) }));
}

async function searchTools(query, deferred, options = {}) {
  const max = options.maxResults ?? defaults.maxResults;
  const scored = await scoreTools(query, deferred, options);
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((s) => s.name);
}

async function toolSearch(query, deferred, options = {}) {
  return searchTools(query, deferred, options);
}

const defaults = { maxResults: 5 };

const provenance = {
  client: "searchlift-sample",
  version: "0.9.5",
  platform: "sample",
  routine: "tool-search",
  signature: "sample/mcpinfo-cache",
  input: { file: "samples/mcpinfo-cache/after.mjs", sha256: "" },
  modules: [],
  generator: "written by hand for tests",
};

export { searchTools, scoreTools, toolSearch, defaults, provenance };
