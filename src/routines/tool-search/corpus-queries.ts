/**
 * The corpus's queries (corpus.ts), one kind at a time: single and several words, `+required` terms, `select:`
 * (single and lists with missing names, duplicates, spaces, other case, aliases), exact names in another case,
 * `mcp__server` prefixes, inputs over and at the caps, empty and whitespace queries, unicode, and regex-special
 * characters, each kind drawn by its weight.
 */
import type { Tool } from "../../../signatures/tool-search/lifted-module.d.ts";
import type { Rng } from "./rng.js";
import { mcpToolName, type Catalog } from "./corpus-tools.js";
import { Text } from "./corpus-text.js";
import { BUILTINS, CAPS, cap, FILLER, NOUNS, REGEX_BITS, SERVERS, UNICODE_WORDS, VERBS } from "./corpus-words.js";

export const QUERY_KINDS = [
  "word",
  "words",
  "required",
  "select-one",
  "select-list",
  "exact-name",
  "mcp-prefix",
  "caps-words",
  "caps-chars",
  "caps-select",
  "empty",
  "unicode",
  "regex",
  "mixed-case",
  "name-parts",
  "hint",
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];

const KIND_WEIGHTS: Record<QueryKind, number> = {
  word: 12,
  words: 12,
  required: 8,
  "select-one": 7,
  "select-list": 8,
  "exact-name": 6,
  "mcp-prefix": 6,
  "caps-words": 4,
  "caps-chars": 3,
  "caps-select": 3,
  empty: 4,
  unicode: 6,
  regex: 7,
  "mixed-case": 5,
  "name-parts": 5,
  hint: 4,
};

function changeCase(rng: Rng, s: string): string {
  switch (rng.int(4)) {
    case 0:
      return s.toUpperCase();
    case 1:
      return s.toLowerCase();
    case 2:
      return [...s].map((c) => (rng.chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join("");
    default:
      return cap(s);
  }
}

function allTools(c: Catalog): Tool[] {
  return [...c.deferred, ...c.loaded];
}

function someWord(rng: Rng, c: Catalog): string {
  const r = rng.next();
  if (r < 0.7 && c.words.length > 0) return rng.pick(c.words);
  if (r < 0.8) return rng.pick(FILLER);
  if (r < 0.9) return rng.pick(VERBS);
  return rng.pick(NOUNS);
}

function someName(rng: Rng, c: Catalog): string {
  const tools = allTools(c);
  const r = rng.next();
  if (tools.length > 0 && r < 0.6) return rng.pick(tools).name;
  if (tools.length > 0 && r < 0.7) return changeCase(rng, rng.pick(tools).name);
  if (r < 0.8) {
    const withAlias = tools.filter((t) => t.aliases && t.aliases.length > 0);
    if (withAlias.length > 0) return rng.pick(rng.pick(withAlias).aliases!);
  }
  if (r < 0.9) return `mcp__${rng.pick(SERVERS)}__${mcpToolName(rng)}`;
  return rng.pick(BUILTINS).name;
}

function separator(rng: Rng): string {
  return rng.pick([" ", " ", " ", " ", "  ", "\t", " \n ", "\u00a0"]);
}

function joinWords(rng: Rng, words: string[]): string {
  let s = words[0] ?? "";
  for (let i = 1; i < words.length; i++) s += separator(rng) + words[i];
  return s;
}

function selectPrefix(rng: Rng): string {
  return rng.pick(["select:", "select:", "select:", "select:", "SELECT:", "Select:", "select: ", " select:"]);
}

function selectList(rng: Rng, c: Catalog, n: number): string {
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    if (r < 0.08 && names.length > 0)
      names.push(rng.pick(names)); // duplicate
    else if (r < 0.12)
      names.push(""); // empty entry
    else names.push(someName(rng, c));
  }
  const sep = () => rng.pick([",", ",", ",", ", ", " ,", " , "]);
  let s = names[0] ?? "";
  for (let i = 1; i < names.length; i++) s += sep() + names[i];
  if (rng.chance(0.05)) s += ",";
  return s;
}

function exactlyChars(rng: Rng, c: Catalog, n: number): string {
  if (rng.chance(0.2))
    return rng
      .pick(["x", "issue", someWord(rng, c)])
      .repeat(n)
      .slice(0, n);
  const out = new Text();
  while (out.length < n) {
    if (out.length > 0) out.add(" ");
    out.add(someWord(rng, c));
  }
  return out.toString().slice(0, n);
}

/** Blank and nearly blank queries: what a select or prefix reads when nothing follows it. */
const EMPTY_QUERIES = [
  "",
  "",
  "",
  " ",
  "   ",
  "\t",
  "\n",
  " \t\n ",
  "+",
  "++",
  "select:",
  "select: ",
  "select:,",
  "select:,,",
  "mcp__",
  "mcp",
  "\u00a0",
  "\u3000",
];

/** `mcp__server` and its variants: a trailing separator, a verb's start, another case, a word after, a cut name. */
function mcpPrefixQuery(rng: Rng, c: Catalog): string {
  const mcp = allTools(c).filter((t) => t.name.startsWith("mcp__"));
  const server = mcp.length > 0 && rng.chance(0.8) ? rng.pick(mcp).name.split("__")[1]! : rng.pick(SERVERS);
  switch (rng.int(6)) {
    case 0:
      return `mcp__${server}`;
    case 1:
      return `mcp__${server}__`;
    case 2:
      return `mcp__${server}__${rng.pick(VERBS).slice(0, rng.range(1, 4))}`;
    case 3:
      return changeCase(rng, `mcp__${server}`);
    case 4:
      return `mcp__${server} ${someWord(rng, c)}`;
    default:
      return `mcp__${server.slice(0, Math.max(1, server.length - 2))}`;
  }
}

/** Parts of a tool's name: all of them, one, the start of one, or shuffled. */
function namePartsQuery(rng: Rng, c: Catalog): string {
  const tools = allTools(c);
  const name = tools.length > 0 ? rng.pick(tools).name : rng.pick(BUILTINS).name;
  const parts = name.split(/__|_|\.|\s|(?<=[a-z])(?=[A-Z])/).filter((p) => p !== "" && p !== "mcp");
  const p = parts.length > 0 ? parts : [name];
  switch (rng.int(4)) {
    case 0:
      return p.join(" ").toLowerCase();
    case 1:
      return rng.pick(p);
    case 2:
      return rng.pick(p).slice(0, rng.range(2, 5));
    default:
      return joinWords(rng, rng.shuffle(p));
  }
}

export function query(rng: Rng, kind: QueryKind, c: Catalog): string {
  switch (kind) {
    case "word":
      return someWord(rng, c);
    case "words":
      return joinWords(
        rng,
        Array.from({ length: rng.range(2, 6) }, () => someWord(rng, c)),
      );
    case "required": {
      const n = rng.range(1, 5);
      const words = Array.from({ length: n }, () => someWord(rng, c));
      const k = rng.range(1, n);
      for (let i = 0; i < k; i++) words[rng.int(n)] = "+" + words[rng.int(n)]!.replace(/^\+/, "");
      if (rng.chance(0.05)) words.push("+");
      return joinWords(rng, words);
    }
    case "select-one": {
      const name = someName(rng, c);
      return selectPrefix(rng) + (rng.chance(0.1) ? ` ${name} ` : name);
    }
    case "select-list":
      return selectPrefix(rng) + selectList(rng, c, rng.range(2, 8));
    case "exact-name": {
      const tools = allTools(c);
      const name = tools.length > 0 ? rng.pick(tools).name : rng.pick(BUILTINS).name;
      const r = rng.next();
      return r < 0.4 ? name : r < 0.85 ? changeCase(rng, name) : ` ${name} `;
    }
    case "mcp-prefix":
      return mcpPrefixQuery(rng, c);
    case "caps-words": {
      const n = rng.pick([CAPS.queryWords - 1, CAPS.queryWords, CAPS.queryWords + 1, rng.range(34, 80), rng.range(100, 400)]);
      const words = Array.from({ length: n }, () => someWord(rng, c));
      // A word only past the cap, so a cap that is or is not applied shows in the result.
      if (rng.chance(0.5) && c.words.length > 0) words[n - 1] = rng.pick(c.words);
      return rng.chance(0.7) ? words.join(" ") : joinWords(rng, words);
    }
    case "caps-chars": {
      const n = rng.pick([CAPS.queryChars - 1, CAPS.queryChars, CAPS.queryChars + 1, rng.range(16400, 40000)]);
      return exactlyChars(rng, c, n);
    }
    case "caps-select": {
      const n = rng.pick([CAPS.selectNames - 1, CAPS.selectNames, CAPS.selectNames + 1, rng.range(66, 200)]);
      return selectPrefix(rng) + selectList(rng, c, n);
    }
    case "empty":
      return rng.pick(EMPTY_QUERIES);
    case "unicode": {
      const words = Array.from({ length: rng.range(1, 4) }, () => (rng.chance(0.6) ? rng.pick(UNICODE_WORDS) : someWord(rng, c)));
      if (rng.chance(0.2)) words.push("\u{1F600}".repeat(rng.range(1, 3)));
      return joinWords(rng, words);
    }
    case "regex": {
      const words = Array.from({ length: rng.range(1, 4) }, () => {
        const r = rng.next();
        if (r < 0.5) return rng.pick(REGEX_BITS);
        if (r < 0.8) return someWord(rng, c) + rng.pick(REGEX_BITS);
        return someWord(rng, c);
      });
      return joinWords(rng, words);
    }
    case "mixed-case":
      return joinWords(
        rng,
        Array.from({ length: rng.range(1, 4) }, () => changeCase(rng, someWord(rng, c))),
      );
    case "name-parts":
      return namePartsQuery(rng, c);
    case "hint":
      return c.hintWords.length > 0
        ? joinWords(
            rng,
            Array.from({ length: rng.range(1, 3) }, () => rng.pick(c.hintWords)),
          )
        : rng.pick(["start here", "playbook", "instructions", "billing"]);
  }
}

export function pickKind(rng: Rng): QueryKind {
  let total = 0;
  for (const k of QUERY_KINDS) total += KIND_WEIGHTS[k];
  let r = rng.next() * total;
  for (const k of QUERY_KINDS) {
    r -= KIND_WEIGHTS[k];
    if (r < 0) return k;
  }
  return "word";
}
