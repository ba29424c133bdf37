// Look-alikes: code of the same shape as the tool-search routines, working on other objects or
// with other constants. None of it may be reported by `searchlift locate`.
import { isEnvTruthy, wordBoundary } from "./helpers.js";

// A document ranker: same chain as the tool scorer, but over documents keyed by id.
export async function rankDocuments(query, documents, corpus, limit) {
  let terms = query.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
  let scored = await Promise.all(
    documents.map(async (doc) => {
      let title = doc.title.toLowerCase().replace(/__/g, " ");
      let body = (await corpus.load(doc.id)).toLowerCase();
      let score = 0;
      for (let term of terms) {
        if (title === term) score += 10;
        else if (title.includes(term)) score += 5;
        if (body.includes(term)) score += 2;
      }
      return { id: doc.id, score };
    }),
  );
  return scored
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((r) => r.id);
}

// A slash-command ranker: names and parts like the tool scorer, other weights.
export async function rankCommands(query, commands, registry, limit) {
  let terms = query.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
  let scored = await Promise.all(
    commands.map(async (command) => {
      let parsed = registry.split(command.name);
      let score = 0;
      for (let term of terms) {
        if (parsed.parts.includes(term)) score += parsed.isAlias ? 3 : 4;
        else if (parsed.parts.some((p) => p.includes(term))) score += parsed.isAlias ? 1 : 2;
        if (wordBoundary(term).test(command.summary)) score += 1;
      }
      return { name: command.name, score };
    }),
  );
  return scored
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((r) => r.name);
}

// Least recently used first: ascending sort.
export async function staleEntries(query, entries, store, limit) {
  let terms = query.toLowerCase().split(/\s+/);
  let aged = await Promise.all(
    entries.map(async (entry) => {
      let score = 0;
      for (let term of terms) {
        if (entry.name.toLowerCase() === term) score += 10;
        else if (entry.name.toLowerCase().includes(term)) score += 5;
      }
      return { name: entry.name, score: score + (await store.age(entry.name)) };
    }),
  );
  return aged
    .filter((r) => r.score > 0)
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map((r) => r.name);
}

// A REPL command line parser that also understands `select:`.
export function parseCommandLine(line) {
  let m = line.trim().match(/^select:(.+)$/i);
  if (m) return { command: "select", args: m[1].split(",").map((a) => a.trim()).filter(Boolean) };
  let [command = "", ...args] = line.trim().split(/\s+/);
  return { command: command.toLowerCase(), args };
}

// An object with async call() that searches history, not tools.
export const historyCommand = {
  name: "history",
  async call(input, context) {
    let { query, max_results: limit = 5 } = input;
    let picked = query.match(/^select:(.+)$/i);
    if (picked) {
      let entryId = picked[1].trim();
      return context.history.get(entryId) ?? null;
    }
    return await context.history.search(query, limit);
  },
};

// Another call() with a pick: prefix and four arguments to its search.
export const bookmarkCommand = {
  name: "bookmarks",
  async call(input, context) {
    let { query, max_results: limit = 5 } = input;
    let picked = query.match(/^pick:(.+)$/i);
    if (picked) return picked[1].split(",").map((s) => s.trim()).filter(Boolean);
    return await context.bookmarks.find(query, context.folders, context.all, limit);
  },
};

// Route names: parts and a full form, but not tools.
export function parseRouteName(route) {
  if (route.startsWith("api__")) {
    let segments = route.slice(5).split("__");
    return { parts: segments, full: segments.join("/"), isApi: true };
  }
  let words = route.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/\s+/);
  return { parts: words, full: words.join(" "), isApi: false };
}

// Host names: server and actions, from a URL host.
export function parseHost(host) {
  let bare = host.replace(/^www\./, "").toLowerCase();
  let [server = "", ...rest] = bare.split(".");
  return { server, actions: rest, full: bare };
}

// Environment-driven modes for other features.
export function getTelemetryMode() {
  let value = process.env.APP_TELEMETRY_SAMPLING,
    percent = value ? Number.parseInt(value, 10) : null;
  if (percent === 0) return "off";
  if (percent === 100) return "full";
  if (value === "auto") return "sampled";
  return "standard";
}

export function getLayoutMode() {
  if (isEnvTruthy(process.env.ENABLE_BETA_LAYOUT)) return "beta";
  if (isEnvTruthy(process.env.ENABLE_EXPERIMENTAL_PANELS)) return "panels";
  return "standard";
}

// Tool visibility rules that are not the deferral policy.
export function isHiddenTool(tool) {
  if (tool.isMcp === true) return false;
  return tool.internal === true;
}

export function shouldPreload(tool) {
  if (tool.isMcp === true) return true;
  return tool.preload === true;
}
