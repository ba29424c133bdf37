/**
 * New candidate calls made from calls that reached changed code (coverage.ts): each is one small edit of such a
 * call — a query word repeated, dropped, moved or recased, a word of the changed code put into the query or a
 * tool's text, a tool copied under a near name or dropped, another maxResults, another contract function —
 * so that the search keeps working where the change is once its first candidates have found the way there.
 * Drawn from a seeded generator: the same seeds give the same calls on every run.
 */
import type { Tool } from "../routines/tool-search/corpus.js";
import type { ContractCall } from "./witness-run.js";

const FUNCTIONS: ContractCall["fn"][] = ["searchTools", "scoreTools", "toolSearch"];

/** `count` edits of the seeds, round-robin over the seeds, each from `random`. */
export function guidedCalls(seeds: readonly ContractCall[], words: readonly string[], count: number, seed: number): ContractCall[] {
  if (seeds.length === 0) return [];
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const vocabulary = words.length ? words : ["search"];
  const out: ContractCall[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < count && i < count * 4; i++) {
    const base = seeds[i % seeds.length]!;
    const edits = 1 + Math.floor(random() * 2);
    let call = base;
    for (let e = 0; e < edits; e++) call = edit(call, pick, random, vocabulary);
    const key = JSON.stringify(call);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(call);
  }
  return out;
}

type Pick = <T>(xs: readonly T[]) => T;

function edit(c: ContractCall, pick: Pick, random: () => number, words: readonly string[]): ContractCall {
  const terms = c.query.split(/\s+/).filter(Boolean);
  const tools = c.deferred;
  switch (Math.floor(random() * 10)) {
    case 0:
      return { ...c, query: [...terms, pick(terms.length ? terms : words)].join(" ") };
    case 1:
      return terms.length > 1 ? { ...c, query: terms.filter((_, i) => i !== Math.floor(random() * terms.length)).join(" ") } : c;
    case 2:
      return { ...c, query: [...terms].reverse().join(" ") };
    case 3:
      return { ...c, query: random() < 0.5 ? c.query.toUpperCase() : c.query.toLowerCase() };
    case 4:
      return { ...c, query: [...terms, pick(words)].join(" ") };
    case 5: {
      if (!tools.length) return c;
      const t = pick(tools);
      const field = pick(["description", "searchHint", "name"] as const);
      const word = pick(words);
      const changed: Tool = field === "name" ? { ...t, name: `${t.name}_${word}` } : { ...t, [field]: `${t[field] ?? ""} ${word}`.trim() };
      return { ...c, deferred: [...tools, changed] };
    }
    case 6:
      return tools.length > 1 ? { ...c, deferred: tools.filter((_, i) => i !== Math.floor(random() * tools.length)) } : c;
    case 7:
      return tools.length > 1 ? { ...c, deferred: [...tools].reverse() } : c;
    case 8:
      return { ...c, maxResults: pick([0, 1, 2, Math.max(1, tools.length - 1), tools.length + 1]) };
    default:
      return { ...c, fn: pick(FUNCTIONS.filter((f) => f !== c.fn)) };
  }
}

/** A small seeded generator (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
