/**
 * New candidate calls made from calls that reached changed code (coverage.ts): each is one small edit of such a
 * call — a query word repeated, dropped, moved or recased, a word of the changed code put into the query or a
 * tool's text, a field the changed code reads given a word of the query (or the word made required, `+word`), a
 * tool copied under a near name or dropped, another maxResults, another contract function —
 * so that the search keeps working where the change is once its first candidates have found the way there.
 * Drawn from a seeded generator: the same seeds give the same calls on every run.
 */
import type { ContractTool as Tool } from "../routines/contract.js";
import type { ContractCall } from "./witness-run.js";

const FUNCTIONS: ContractCall["fn"][] = ["searchTools", "scoreTools", "toolSearch"];

/** `count` edits of the seeds, round-robin over the seeds, each from `random`. */
export function guidedCalls(
  seeds: readonly ContractCall[],
  words: readonly string[],
  count: number,
  seed: number,
  fields: readonly string[] = [],
): ContractCall[] {
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
    for (let e = 0; e < edits; e++) call = edit(call, pick, random, vocabulary, fields);
    const key = JSON.stringify(call);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(call);
  }
  return out;
}

/**
 * Calls that give the changed code the strings it compared (`values`: each with the first calls that made it), at
 * most `count`: where the code looked a name up, the name is there. The strings the code brought come first (a
 * constant, a name it made: not the call's own query or a tool's text): first, each call with every string it
 * brought as tools at once (a check over all the names, `copies.length === 1`, goes both ways); then for each
 * string, a call that made it with a tool of that name added, searched or already loaded, with the string as its
 * query, and every call that made it with the tool of that name asked for by it.
 */
export function comparedValueCalls(values: ReadonlyArray<readonly [string, readonly ContractCall[]]>, count: number): ContractCall[] {
  const named = (name: string): Tool => ({ name, description: "Does a thing for you" });
  const hasTool = (c: ContractCall, v: string) => [...c.deferred, ...c.loaded].some((t) => t.name === v);
  const own = (c: ContractCall, v: string) =>
    [c.query, ...[...c.deferred, ...c.loaded].flatMap((t) => [t.name, t.description ?? ""])].some((s) =>
      s.toLowerCase().includes(v.toLowerCase()),
    );
  const brought = values.filter(([v, calls]) => calls.some((c) => !own(c, v)));
  const ordered = [...brought, ...values.filter((x) => !brought.includes(x))];
  const byCall = new Map<ContractCall, string[]>();
  for (const [v, calls] of brought) for (const c of calls.filter((x) => !own(x, v))) byCall.set(c, [...(byCall.get(c) ?? []), v]);
  const together = [...byCall].filter(([, names]) => names.length > 1).slice(0, Math.floor(count / 6));
  const out = together.map(([c, names]): ContractCall => ({ ...c, deferred: [...c.deferred, ...names.slice(0, 8).map(named)] }));
  for (const [v, calls] of ordered) {
    const free = calls.filter((c) => !hasTool(c, v));
    const c = free[0];
    if (c) out.push({ ...c, deferred: [...c.deferred, named(v)] }, { ...c, loaded: [...c.loaded, named(v)] });
    const other = calls.find((x) => x.query !== v);
    if (other) out.push({ ...other, query: v });
    for (const x of free) out.push({ ...x, query: v, deferred: [...x.deferred, named(v)] });
  }
  return out.slice(0, count);
}

type Pick = <T>(xs: readonly T[]) => T;

function edit(c: ContractCall, pick: Pick, random: () => number, words: readonly string[], fields: readonly string[]): ContractCall {
  const terms = c.query.split(/\s+/).filter(Boolean);
  const tools = c.deferred;
  switch (Math.floor(random() * (fields.length ? 11 : 10))) {
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
    case 10:
      return fieldFromQuery(c, terms, pick, random, fields);
    default:
      return { ...c, fn: pick(FUNCTIONS.filter((f) => f !== c.fn)) };
  }
}

/** A tool of the call given, in a field the changed code reads, a word of the call's own query (capitalised or
 *  not; added to a list, or as a text), the word at times made required in the query: a comparison of that field
 *  with the query's words then goes the other way. */
function fieldFromQuery(c: ContractCall, terms: string[], pick: Pick, random: () => number, fields: readonly string[]): ContractCall {
  const words = terms.map((t) => t.replace(/^\+/, "")).filter((w) => w.length > 0 && !w.includes(":"));
  if (!c.deferred.length || !words.length) return c;
  const at = Math.floor(random() * c.deferred.length);
  const t = c.deferred[at]! as Tool & Record<string, unknown>;
  const field = pick(fields);
  const word = pick(words);
  const value = random() < 0.5 ? word : word[0]!.toUpperCase() + word.slice(1);
  const old = t[field];
  // A field holding an object (mcpInfo) is one of the contract's shapes; a word there finds throws, not the change.
  if (typeof old === "object" && old !== null && !Array.isArray(old)) return c;
  const now =
    Array.isArray(old) || field === "aliases"
      ? [...(Array.isArray(old) ? (old as unknown[]) : []), value]
      : random() < 0.5
        ? value
        : `${typeof old === "string" ? old : ""} ${value}`.trim();
  const deferred = c.deferred.map((x, i) => (i === at ? { ...t, [field]: now } : x));
  const query = random() < 0.5 ? terms.map((x) => (x.replace(/^\+/, "") === word ? `+${word}` : x)).join(" ") : c.query;
  return { ...c, deferred, query };
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
