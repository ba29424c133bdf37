/**
 * A clean-room reference for Claude Code's tool search, one set of rules per generation
 * (docs/tool-search-history.md), written from the behaviour notes and, where they are silent, from how
 * lifted modules answer. It shares no code with the lift: acceptance compares the two on random inputs.
 *
 * Same interface as the module contract (docs/scorer-module-contract.md), synchronous: `scoreTools`,
 * `searchTools`, `toolSearch`. Where a release throws (a tool without a name, an mcpInfo it cannot read),
 * the reference throws a ReferenceThrow.
 *
 * Not modelled: generation 11's removal of a fixed boilerplate paragraph from descriptions (its text belongs
 * to the release; random descriptions never hold it), and what the client around the search does with
 * state the contract does not carry (tools already loaded in the conversation, context room, hooks).
 */
import type { Rules } from "./generations.js";

export interface Tool {
  name: string;
  description?: string;
  searchHint?: string;
  isMcp?: boolean;
  mcpInfo?: { serverName?: string; toolName?: string };
  aliases?: string[];
}

export interface Options {
  loaded?: Tool[];
  maxResults?: number;
}

/** What the release would throw (a TypeError in the original); the message says which rule. */
export class ReferenceThrow extends Error {}

const DEFAULT_MAX = 5;
const QUERY_CHARS = 16384;
const QUERY_WORDS = 32;
const SELECT_NAMES = 64;
const SELECT = /^select:(.+)$/i;

/** One search call's view: the deferred tools and every tool (deferred, then loaded). */
interface Catalog {
  deferred: Tool[];
  all: Tool[];
}

function catalogOf(deferred: Tool[], options: Options): Catalog {
  const all = [...deferred, ...(options.loaded ?? [])];
  // The contract's default for isMcp reads the name: a tool with neither cannot be handed to any release.
  for (const t of all) if (t.isMcp === undefined && typeof t.name !== "string") throw new ReferenceThrow("a tool without a name");
  return { deferred, all };
}

// ---- text helpers -------------------------------------------------------------------------------

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `term` as a whole word of `text` (the notes' `\bterm\b`). */
function hasWord(text: string, term: string): boolean {
  return new RegExp(`\\b${escapeRegExp(term)}\\b`).test(text);
}

/** Cut to `max` UTF-16 units without leaving half a surrogate pair at the end. */
function cutChars(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const last = cut.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The scorer's own cap: characters, then words (a query over the word cap is rejoined with single spaces). */
function capWords(query: string): string {
  const cut = cutChars(query, QUERY_CHARS);
  const words = cut.trim().split(/\s+/);
  return words.length <= QUERY_WORDS ? cut : words.slice(0, QUERY_WORDS).join(" ");
}

/** The tool call's cap: characters; then words, or for `select:` the number of names. */
function capToolQuery(query: string): string {
  const cut = cutChars(query, QUERY_CHARS);
  const capped = SELECT.test(cut) ? cut : capWords(cut);
  const names = SELECT.exec(capped)?.[1];
  if (names === undefined) return capped;
  const list = names.split(",");
  return list.length <= SELECT_NAMES ? capped : capped.slice(0, -names.length) + list.slice(0, SELECT_NAMES).join(",");
}

// ---- lookups ------------------------------------------------------------------------------------

function byName(list: Tool[], name: string): Tool | undefined {
  return list.find((t) => t.name === name);
}

/** The first tool named `name` or aliased so. From 2.1.318 a tool named Eval beats REPL's alias Eval. */
function byNameOrAlias(rules: Rules, list: Tool[], name: string): Tool | undefined {
  const t = list.find((x) => x.name === name || (x.aliases?.includes(name) ?? false));
  if (rules.evalOverReplAlias && name === "Eval" && t?.name === "REPL") return list.find((x) => x.name === name) ?? t;
  return t;
}

/** A tool's description as the release reads it: the first tool of all with that name (or, where the
 *  release matches aliases, alias) serves it. */
function descriptionOf(rules: Rules, c: Catalog, name: string): string {
  const t = rules.aliases ? byNameOrAlias(rules, c.all, name) : byName(c.all, name);
  return (t?.description ?? "").toLowerCase();
}

function hintOf(rules: Rules, t: Tool): string {
  if (rules.generation < 6 || t.searchHint === undefined) return "";
  return (rules.caps ? t.searchHint.slice(0, rules.hintChars) : t.searchHint).toLowerCase();
}

/** `mcp__server__tool…` read as server and tool (the tool keeps any later `__`); null when not MCP-shaped. */
export function mcpNameParts(name: string): { serverName: string; toolName?: string } | null {
  const [head, server, ...rest] = name.split("__");
  if (head !== "mcp" || !server) return null;
  return { serverName: server, toolName: rest.length > 0 ? rest.join("__") : undefined };
}

/** The name an MCP tool's bare tool name becomes in a tool name: anything outside [A-Za-z0-9_-] → `_`. */
function sanitizeName(name: string): string {
  if (typeof name !== "string") throw new ReferenceThrow("an mcpInfo without toolName");
  let s = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (name.startsWith("claude.ai ")) s = s.replace(/_+/g, "_").replace(/^_|_$/g, "");
  return s;
}

/** 2.1.271 on: MCP tools (of `all`) whose bare tool name is `name`. */
function byBareToolName(all: Tool[], name: string): Tool[] {
  return all.filter((t) => {
    if (t.mcpInfo) return t.mcpInfo.toolName === name || sanitizeName(t.mcpInfo.toolName as string) === name;
    return mcpNameParts(t.name)?.toolName === name;
  });
}

// ---- names --------------------------------------------------------------------------------------

/** A tool name read for matching: its parts, from generation 8 its coarse parts (whole server, whole
 *  tool or whole built-in name), the parts joined (for the full-name fallback), and whether it is MCP. */
interface ParsedName {
  parts: string[];
  coarse: string[];
  full: string;
  mcp: boolean;
}

function builtinName(name: string): ParsedName {
  const parts = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  return { parts, coarse: [name.toLowerCase()], full: parts.join(" "), mcp: false };
}

/** Generations 3–6: from the name alone; MCP names split on `__` and `_`. */
function nameByPrefix(name: string): ParsedName {
  if (!name.startsWith("mcp__")) return builtinName(name);
  const rest = name.slice("mcp__".length).toLowerCase();
  const parts = rest
    .split("__")
    .flatMap((s) => s.split("_"))
    .filter(Boolean);
  return { parts, coarse: [], full: rest.replace(/__/g, " ").replace(/_/g, " "), mcp: true };
}

function splitWords(pieces: unknown[]): string[] {
  return pieces
    .flatMap((p) => {
      if (typeof p !== "string") throw new ReferenceThrow("an mcpInfo without serverName or toolName");
      return p.toLowerCase().split(/[\s_.]+/);
    })
    .filter(Boolean);
}

/** Generation 7: mcpInfo's server and tool (both read), else the `mcp__` name's segments. */
function nameFromInfo(t: Tool): ParsedName {
  const pieces = t.mcpInfo ? [t.mcpInfo.serverName, t.mcpInfo.toolName] : t.name.startsWith("mcp__") ? t.name.slice(5).split("__") : null;
  if (!pieces) return builtinName(t.name);
  const parts = splitWords(pieces);
  return { parts, coarse: [], full: parts.join(" "), mcp: true };
}

/** Generation 8 on: mcpInfo or the parsed `mcp__server__tool` name; missing halves are left out. */
function nameWithCoarse(t: Tool): ParsedName {
  const info = t.mcpInfo ?? mcpNameParts(t.name);
  if (!info) return builtinName(t.name);
  const coarse = [info.serverName, info.toolName].filter((x): x is string => Boolean(x)).map((x) => x.toLowerCase());
  const parts = coarse.flatMap((x) => x.split(/[\s_.]+/)).filter(Boolean);
  return { parts, coarse, full: parts.join(" "), mcp: true };
}

function parseName(rules: Rules, t: Tool): ParsedName {
  if (rules.generation >= 8) return nameWithCoarse(t);
  // Coarse parts arrive in generation 8: before, a built-in's whole name is not a part of its own.
  const parsed = rules.generation === 7 ? nameFromInfo(t) : nameByPrefix(t.name);
  return { ...parsed, coarse: [] };
}

// ---- scores -------------------------------------------------------------------------------------

/** Generation 1: the lowercased name with `__` as spaces; equal +10, contains +5; description contains +2. */
function scoreGeneration1(t: Tool, description: string, terms: string[]): number {
  const key = t.name.toLowerCase().replace(/__/g, " ");
  let score = 0;
  for (const term of terms) {
    if (key === term) score += 10;
    else if (key.includes(term)) score += 5;
    if (description.includes(term)) score += 2;
  }
  return score;
}

/** Generation 2: server +12 / +6, actions +8 / +4, full name +3 when nothing else scored, description word +2. */
function scoreGeneration2(t: Tool, description: string, terms: string[]): number {
  const rest = t.name.replace(/^mcp__/, "").toLowerCase();
  const segments = rest.split("__");
  const server = segments[0] ?? "";
  const actions = segments.slice(1).join("_").split("_").filter(Boolean);
  const full = rest.replace(/__/g, " ").replace(/_/g, " ");
  let score = 0;
  for (const term of terms) {
    if (server === term) score += 12;
    else if (server.includes(term)) score += 6;
    if (actions.includes(term)) score += 8;
    else if (actions.some((a) => a.includes(term))) score += 4;
    if (full.includes(term) && score === 0) score += 3;
    if (hasWord(description, term)) score += 2;
  }
  return score;
}

/** Generation 3 on. The full-name fallback looks at the tool's running total, not the term's. */
function scoreByParts(rules: Rules, name: ParsedName, description: string, hint: string, terms: string[]): number {
  let score = 0;
  for (const term of terms) {
    if (name.parts.includes(term)) score += name.mcp ? 12 : 10;
    else if (name.parts.some((p) => p.includes(term))) score += name.mcp ? 6 : 5;
    if (rules.generation >= 8) {
      if (name.coarse.includes(term)) score += name.mcp ? 12 : 10;
      else if (name.coarse.some((p) => p.includes(term))) score += name.mcp ? 4 : 3;
    }
    if (name.full.includes(term) && score === 0) score += 3;
    if (hint && hasWord(hint, term)) score += 4;
    if (hasWord(description, term)) score += 2;
  }
  return score;
}

/** A `+required` term is met by a name part (or coarse part) containing it, or a word of the description or hint. */
function meetsRequired(name: ParsedName, description: string, hint: string, term: string): boolean {
  const inName = [...name.parts, ...name.coarse].some((p) => p.includes(term));
  return inName || hasWord(description, term) || (hint !== "" && hasWord(hint, term));
}

/** The query's terms: required ones (without their `+`) first, then the rest; a lone `+` is a plain term. */
function termsOf(query: string): { terms: string[]; required: string[] } {
  const words = query.split(/\s+/).filter((w) => w.length > 0);
  const required = words.filter((w) => w.startsWith("+") && w.length > 1).map((w) => w.slice(1));
  const plain = words.filter((w) => !(w.startsWith("+") && w.length > 1));
  return { terms: required.length > 0 ? [...required, ...plain] : words, required };
}

/** Each deferred tool's score, in input order; a tool missing a required term scores 0 (left out). */
function scoreAll(rules: Rules, query: string, c: Catalog): number[] {
  const g = rules.generation;
  if (g <= 3) {
    const terms = query
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length > 0);
    return c.deferred.map((t) => {
      const d = descriptionOf(rules, c, t.name);
      if (g === 1) return scoreGeneration1(t, d, terms);
      if (g === 2) return scoreGeneration2(t, d, terms);
      return scoreByParts(rules, nameByPrefix(t.name), d, "", terms);
    });
  }
  const normal = normalQuery(rules, query);
  // `+term` arrives in generation 5: before, a leading `+` is part of the word.
  const { terms, required } = g >= 5 ? termsOf(normal) : { terms: normal.split(/\s+/).filter((w) => w.length > 0), required: [] };
  return c.deferred.map((t) => {
    const name = parseName(rules, t);
    const d = descriptionOf(rules, c, t.name);
    const hint = hintOf(rules, t);
    if (!required.every((r) => meetsRequired(name, d, hint, r))) return 0;
    return scoreByParts(rules, name, d, hint, terms);
  });
}

/** Generation 4 on: the query lowercased and trimmed (after the caps, where the release has them). */
function normalQuery(rules: Rules, query: string): string {
  return (rules.caps ? capWords(query) : query).toLowerCase().trim();
}

// ---- the contract's three functions -------------------------------------------------------------

export function scoreTools(rules: Rules, query: string, deferred: Tool[], options: Options = {}): Array<{ name: string; score: number }> {
  const c = catalogOf(deferred, options);
  const scores = scoreAll(rules, query, c);
  return deferred.map((t, i) => ({ name: t.name, score: scores[i]! }));
}

/** Fast paths (generation 4 on): a query that is a tool's name, then an `mcp__` prefix. */
function fastPath(rules: Rules, query: string, c: Catalog, max: number): string[] | undefined {
  const trimmed = (rules.caps ? capWords(query) : query).trim();
  const q = trimmed.toLowerCase();
  if (rules.generation >= 11) {
    // Generation 11: an exact name (case and all) wins over a name in another case.
    const names = [...c.deferred, ...c.all].map((t) => t.name);
    const exact = names.includes(trimmed) ? trimmed : names.find((n) => n.toLowerCase() === q);
    if (exact !== undefined) return [exact];
  } else {
    const inDeferred = c.deferred.find((t) => t.name.toLowerCase() === q);
    const found = inDeferred ?? (rules.generation >= 6 ? c.all.find((t) => t.name.toLowerCase() === q) : undefined);
    if (found) return [found.name];
  }
  if (q.startsWith("mcp__") && q.length > 5) {
    const prefixed = c.deferred
      .filter((t) => t.name.toLowerCase().startsWith(q))
      .slice(0, max)
      .map((t) => t.name);
    if (prefixed.length > 0) return prefixed;
  }
  return undefined;
}

export function searchTools(rules: Rules, query: string, deferred: Tool[], options: Options = {}): string[] {
  const c = catalogOf(deferred, options);
  const max = options.maxResults ?? DEFAULT_MAX;
  if (rules.generation >= 4) {
    const fast = fastPath(rules, query, c, max);
    if (fast) return fast;
  }
  const scores = scoreAll(rules, query, c);
  const ranked = deferred.map((t, i) => ({ name: t.name, score: scores[i]! })).filter((r) => r.score > 0);
  // Array.prototype.sort is stable: ties keep the catalog's order.
  ranked.sort((a, b) => b.score - a.score);
  return ranked.slice(0, max).map((r) => r.name);
}

/** `select:` names: one exact deferred name (generations 1–5; by alias too where the release matches
 *  aliases), or a list looked up by name or alias in the deferred tools, then all tools, and from 2.1.271
 *  by bare MCP tool name. Unknown names are dropped. */
function select(rules: Rules, names: string, c: Catalog): string[] {
  if (!rules.selectList) {
    const t = rules.aliases ? byNameOrAlias(rules, c.deferred, names.trim()) : byName(c.deferred, names.trim());
    return t ? [t.name] : [];
  }
  const picked: string[] = [];
  for (const wanted of names
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const t = byNameOrAlias(rules, c.deferred, wanted) ?? byNameOrAlias(rules, c.all, wanted);
    const found = t ? [t] : rules.selectBareToolName ? byBareToolName(c.all, wanted) : [];
    for (const f of found) if (!picked.includes(f.name)) picked.push(f.name);
  }
  return picked;
}

/** 2.1.323 on, after a keyword search: the client looks the query (whole, joined with `_`, and each word
 *  holding `_`) up as tool names. Only messages come of it, but the bare-name lookup reads every MCP
 *  tool's toolName, so an mcpInfo without one throws. */
function keywordNameLookup(rules: Rules, query: string, c: Catalog): void {
  const trimmed = query.trim();
  if (c.all.some((t) => t.name.toLowerCase() === trimmed.toLowerCase())) return;
  const words = trimmed.split(/\s+/).map((w) => w.replace(/^\+/, ""));
  for (const candidate of [trimmed, words.join("_"), ...words.filter((w) => w.includes("_"))]) {
    if (!byNameOrAlias(rules, c.all, candidate)) byBareToolName(c.all, candidate);
  }
}

/** A tool of the remote-devices server whose tool name starts `device_` (2.1.317 on, these load together). */
function isDeviceTool(name: string): boolean {
  const prefix = "mcp__remote-devices__";
  return name.startsWith(`${prefix}device_`) && !name.slice(prefix.length).includes("__");
}

/** 2.1.317 on: when a match is a device tool, every deferred device tool comes along (after the matches,
 *  the whole list without repeats); from 2.1.323 a keyword search with the word bash or shell pulls them
 *  in too, if the device shell is deferred. */
function withDeviceTools(rules: Rules, matches: string[], c: Catalog, query?: string): string[] {
  if (!rules.devicesTogether || matches.length === 0) return matches;
  const shellWord =
    query !== undefined &&
    rules.shellPullsDevices &&
    query
      .trim()
      .split(/\s+/)
      .some((w) => ["bash", "shell"].includes(w.replace(/^\+/, "").toLowerCase()));
  const pulled = shellWord && byNameOrAlias(rules, c.deferred, "mcp__remote-devices__device_bash") !== undefined;
  if (!pulled && !matches.some(isDeviceTool)) return matches;
  return [...new Set([...matches, ...c.deferred.map((t) => t.name).filter(isDeviceTool)])];
}

export function toolSearch(rules: Rules, query: string, deferred: Tool[], options: Options = {}): string[] {
  const c = catalogOf(deferred, options);
  const q = rules.caps ? capToolQuery(query) : query;
  const m = SELECT.exec(q);
  if (m) return withDeviceTools(rules, select(rules, m[1]!, c), c);
  const found = searchTools(rules, q, deferred, options);
  if (rules.keywordNameLookup) keywordNameLookup(rules, q, c);
  return withDeviceTools(rules, found, c, q);
}
