// A tool-search module written for searchlift's `check` tests (no release code): it has the scorer-module
// contract's exports and a scorer simple enough to predict, with limits the real releases put elsewhere, so
// that check's reasons can be tested on them. Per query word: a tool-name part equal to it +10; a whole word
// of the first 40 characters of the description +2; of the first 20 characters of the search hint +4.
// `select:` takes full names only (no bare-name select), among the deferred tools, then the loaded ones.
const DESCRIPTION_READ = 40;
const HINT_READ = 20;

function nameParts(name) {
  return name.toLowerCase().split(/__|_/).filter((p) => p.length > 0 && p !== "mcp");
}

function hasWord(text, word) {
  return text.split(/[^a-z0-9]+/).includes(word);
}

function scoreOne(tool, terms) {
  const parts = nameParts(tool.name);
  const description = (tool.description ?? "").slice(0, DESCRIPTION_READ).toLowerCase();
  const hint = (tool.searchHint ?? "").slice(0, HINT_READ).toLowerCase();
  let score = 0;
  for (const term of terms) {
    if (parts.includes(term)) score += 10;
    if (hasWord(description, term)) score += 2;
    if (hasWord(hint, term)) score += 4;
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
  const m = /^select:(.+)$/i.exec(query.trim());
  if (!m) return searchTools(query, deferred, options);
  const all = [...deferred, ...(options.loaded ?? [])];
  const out = [];
  for (const name of m[1].split(",").map((s) => s.trim())) {
    const hit = all.find((t) => t.name === name);
    if (hit && !out.includes(hit.name)) out.push(hit.name);
  }
  return out;
}

const defaults = { maxResults: 5 };

const provenance = {
  client: "searchlift-sample",
  version: "0.9.0",
  platform: "sample",
  routine: "tool-search",
  signature: "sample/capped",
  input: { file: "samples/check-modules/capped.mjs", sha256: "" },
  modules: [],
  generator: "written by hand for tests",
};

export { searchTools, scoreTools, toolSearch, defaults, provenance };
