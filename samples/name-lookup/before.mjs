// A tool-search module written for searchlift's witness tests (no release code): the contract's exports over a
// scorer simple enough to predict, which finds a tool by its name or one of its aliases, the first that answers
// — for a tool's description, which the scorer reads through that lookup, and for `select:`. after.mjs differs
// in that lookup only: for one pair of names it prefers the tool of that very name to one holding it as an
// alias, the shape of change the witness search must find from the names the changed code compares;
// refactor.mjs writes the lookup as a loop, with a test of a name that changes nothing (no witness to find).
// Per query word: a name part equal to it +10, a whole word of the description +2.

function nameParts(name) {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[\s_]+|__/)
    .filter((p) => p.length > 0 && p !== "mcp");
}

// Whether a tool answers to a name: its own, or one of its aliases.
function hasNameOrAlias(tool, name) {
  return tool.name === name || (tool.aliases?.includes(name) ?? false);
}

function findToolByName(tools, name) {
  return tools.find((candidate) => hasNameOrAlias(candidate, name));
}

function describe(name, tools) {
  return (findToolByName(tools, name)?.description ?? "").toLowerCase();
}

function scoreOne(tool, terms, all) {
  const parts = nameParts(tool.name);
  const words = describe(tool.name, all).split(/[^a-z0-9]+/);
  let score = 0;
  for (const term of terms) {
    if (parts.includes(term)) score += 10;
    if (words.includes(term)) score += 2;
  }
  return score;
}

const termsOf = (query) => query.toLowerCase().split(/\s+/).filter((t) => t.length > 0);

async function scoreTools(query, deferred, options = {}) {
  const all = [...deferred, ...(options.loaded ?? [])];
  const terms = termsOf(query);
  return deferred.map((tool) => ({ name: tool.name, score: scoreOne(tool, terms, all) }));
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
  const all = [...deferred, ...(options.loaded ?? [])];
  const m = /^select:(.+)$/i.exec(query.trim());
  if (!m) return searchTools(query, deferred, options);
  const out = [];
  for (const name of m[1].split(",").map((s) => s.trim())) {
    const hit = findToolByName(deferred, name) ?? findToolByName(all, name);
    if (hit && !out.includes(hit.name)) out.push(hit.name);
  }
  return out;
}

const defaults = { maxResults: 5 };

const provenance = {
  client: "searchlift-sample",
  version: "0.9.1",
  platform: "sample",
  routine: "tool-search",
  signature: "sample/name-lookup",
  input: { file: "samples/name-lookup/before.mjs", sha256: "" },
  modules: [],
  generator: "written by hand for tests",
};

export { searchTools, scoreTools, toolSearch, defaults, provenance };
