/**
 * The corpus's catalogs (corpus.ts): MCP tools (`mcp__<server>__<tool>`, snake_case, camelCase, dots and spaces in
 * server names, `mcpInfo` that agrees, disagrees in case or disagrees outright, `isMcp` set or not, prefix-less
 * MCP tools) and built-ins (CamelCase names, aliases), deferred and loaded, with the words a query can match.
 */
import type { Tool } from "../../../signatures/tool-search/lifted-module.d.ts";
import type { Rng } from "./rng.js";
import { ALL_SERVERS, BUILTINS, cap, camel, NOUNS, ODD_SERVERS, SERVERS, VERBS } from "./corpus-words.js";
import { description, searchHint, sentence } from "./corpus-text.js";

export interface Catalog {
  deferred: Tool[];
  loaded: Tool[];
  /** Words that occur in names, descriptions and hints, for queries that match something. */
  words: string[];
  hintWords: string[];
}

export function mcpToolName(rng: Rng): string {
  const v = rng.pick(VERBS);
  const n = rng.pick(NOUNS);
  switch (rng.int(9)) {
    case 0:
    case 1:
    case 2:
      return `${v}_${n}`;
    case 3:
      return `${v}_${n}_${rng.pick(NOUNS)}`;
    case 4:
      return camel([v, ...n.split("_")]);
    case 5:
      return `${n.replace(/_/g, "")}.${v}`;
    case 6:
      return rng.pick([v, n, `${v}-${n}`, `${v.toUpperCase()}_${n}`, `${cap(v)}${cap(n)}`]);
    case 7:
      return `${v}_v${rng.range(1, 3)}_${n}`;
    default:
      return `${v}${cap(n.split("_")[0]!)}s`;
  }
}

const isLowerAscii = (c: number) => c >= 97 && c <= 122;
const isUpperAscii = (c: number) => c >= 65 && c <= 90;

/**
 * The lower-case words of a tool name, added to `out`: the name split at `.`, `_` and `-` and between a
 * lower-case and an upper-case ASCII letter, empty words dropped. What splitting at
 * /[._-]|(?<=[a-z])(?=[A-Z])/ gives, without a regex and its arrays for each of the corpus's tools.
 */
function addToolNameWords(name: string, out: string[]): void {
  const addWord = (from: number, to: number) => {
    if (to > from) out.push(name.slice(from, to).toLowerCase());
  };
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 46 /* . */ || c === 95 /* _ */ || c === 45 /* - */) {
      addWord(start, i);
      start = i + 1;
    } else if (i > 0 && isUpperAscii(c) && isLowerAscii(name.charCodeAt(i - 1))) {
      addWord(start, i);
      start = i;
    }
  }
  addWord(start, name.length);
}

/** The lower-case words of a server name: split at `.`, `_`, space and `-`. */
const serverNameWords = (server: string) =>
  server
    .split(/[._ -]/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
/** Those of every server, made once. */
const SERVER_WORDS = new Map(ALL_SERVERS.map((server) => [server, serverNameWords(server)]));

function mcpTool(rng: Rng, server: string, words: string[], hintWords: string[]): Tool {
  const toolName = mcpToolName(rng);
  const keyWords = [...(SERVER_WORDS.get(server) ?? serverNameWords(server))];
  addToolNameWords(toolName, keyWords);
  words.push(...keyWords, server, toolName);
  const noPrefix = rng.chance(0.03);
  const tool: Tool = { name: noPrefix ? toolName : `mcp__${server}__${toolName}` };
  const desc = description(rng, keyWords);
  if (desc !== undefined) tool.description = desc;
  const hint = searchHint(rng, keyWords, hintWords);
  if (hint !== undefined) tool.searchHint = hint;
  const m = rng.next();
  if (noPrefix) tool.isMcp = true;
  else if (m < 0.35) tool.isMcp = true;
  else if (m < 0.4) tool.isMcp = false;
  const info = rng.next();
  if (noPrefix || info < 0.4) tool.mcpInfo = { serverName: server, toolName };
  else if (info < 0.5)
    tool.mcpInfo = {
      serverName: rng.chance(0.5) ? server.toUpperCase() : cap(server),
      toolName: rng.chance(0.5) ? toolName.toLowerCase() : cap(toolName),
    };
  else if (info < 0.55) tool.mcpInfo = { serverName: rng.pick(SERVERS), toolName: mcpToolName(rng) };
  if (rng.chance(0.02)) tool.aliases = [`${server}_${toolName}`];
  return tool;
}

/** Each built-in with the words it adds to its catalog's (its name, its words, its name's words), made once. */
const BUILTINS_WITH_WORDS = BUILTINS.map((b) => ({
  ...b,
  catalogWords: [b.name, ...b.words, ...b.name.split(/(?<=[a-z])(?=[A-Z])/).map((w) => w.toLowerCase())],
}));

function builtinTool(rng: Rng, words: string[], hintWords: string[]): Tool {
  const b = rng.pick(BUILTINS_WITH_WORDS);
  words.push(...b.catalogWords);
  const tool: Tool = { name: b.name };
  const desc = description(rng, b.words);
  if (desc !== undefined) tool.description = desc;
  if (rng.chance(0.05)) {
    const hint = searchHint(rng, b.words, hintWords);
    if (hint !== undefined) tool.searchHint = hint;
  }
  const m = rng.next();
  if (m < 0.07) tool.isMcp = false;
  else if (m < 0.09) tool.isMcp = true;
  if (b.aliases && rng.chance(0.8)) tool.aliases = [...b.aliases];
  if (b.aliases) words.push(...b.aliases);
  return tool;
}

export function catalog(rng: Rng): Catalog {
  const words: string[] = [];
  const hintWords: string[] = [];
  const r = rng.next();
  const size = r < 0.04 ? 0 : r < 0.1 ? rng.range(1, 2) : r < 0.93 ? rng.range(3, 24) : rng.range(30, 70);
  const servers = rng.shuffle(ALL_SERVERS).slice(0, rng.range(1, 5));
  if (rng.chance(0.3)) servers.push(rng.pick(ODD_SERVERS));
  const builtinShare = rng.pick([0, 0, 0.1, 0.3, 0.6]);
  const deferred: Tool[] = [];
  for (let i = 0; i < size; i++) {
    deferred.push(rng.chance(builtinShare) ? builtinTool(rng, words, hintWords) : mcpTool(rng, rng.pick(servers), words, hintWords));
  }
  // Duplicate names, in place or with another description.
  if (deferred.length > 1 && rng.chance(0.05)) {
    const t = rng.pick(deferred);
    deferred.splice(rng.int(deferred.length + 1), 0, rng.chance(0.5) ? { ...t } : { ...t, description: sentence(rng, words, 5) });
  }
  const loaded: Tool[] = [];
  const nLoaded = rng.chance(0.3) ? 0 : rng.range(1, 8);
  for (let i = 0; i < nLoaded; i++) {
    loaded.push(rng.chance(0.75) ? builtinTool(rng, words, hintWords) : mcpTool(rng, rng.pick(servers), words, hintWords));
  }
  // A tool both deferred and loaded.
  if (deferred.length > 0 && rng.chance(0.1)) loaded.push({ ...rng.pick(deferred) });
  // An mcpInfo without toolName, in a few catalogs only: releases that read it throw, skip the tool or miss
  // it in select:, and most cases must still return values.
  const withInfo = deferred.filter((t) => t.mcpInfo?.toolName !== undefined);
  if (withInfo.length > 0 && rng.chance(0.02)) {
    const i = deferred.indexOf(rng.pick(withInfo));
    deferred[i] = { ...deferred[i]!, mcpInfo: { serverName: deferred[i]!.mcpInfo!.serverName } };
  }
  return { deferred, loaded, words, hintWords };
}
