/**
 * A deterministic corpus of tool-search inputs for checking that a lifted module behaves like the original.
 *
 * Each case is one call's inputs: a query, the deferred tools searched, the tools already loaded and, sometimes,
 * maxResults. Catalogs mix MCP tools (`mcp__<server>__<tool>`, snake_case, camelCase, dots and spaces in server
 * names, `mcpInfo` that agrees, disagrees in case or disagrees outright, `isMcp` set or not, prefix-less MCP tools)
 * and built-ins (CamelCase names, aliases). Descriptions put words at and off word boundaries, next to punctuation
 * and regex-special characters; some searchHints and descriptions are longer than the caps of every generation.
 * Queries cover single and several words, `+required` terms, `select:` (single and lists with missing names,
 * duplicates, spaces, other case, aliases), exact names in another case, `mcp__server` prefixes, inputs over and
 * at the caps (32 words, 16 384 characters, 64 select names), empty and whitespace queries, unicode, and
 * regex-special characters.
 *
 * Everything comes from one seeded PRNG (rng.ts): the same seed and count give the same cases, byte for byte.
 * The parts: the vocabulary and caps (corpus-words.ts), descriptions and hints (corpus-text.ts), catalogs
 * (corpus-tools.ts) and queries (corpus-queries.ts); this file puts them together into cases.
 */

import type { Tool } from "../../../signatures/tool-search/lifted-module.d.ts";
import { catalog } from "./corpus-tools.js";
import { pickKind, query, type QueryKind } from "./corpus-queries.js";
import { CONTRACT_INNER_FIELDS, fieldMode, queryWords, setField, setInnerField } from "./field-values.js";
import { createRng } from "./rng.js";

/** A tool as the scorer-module contract defines it: written once, in the declarations every lift writes
 *  beside its module (signatures/tool-search/lifted-module.d.ts, shipped in the package). */
export type { Tool };

export interface CorpusCase {
  query: string;
  deferred: Tool[];
  loaded: Tool[];
  maxResults?: number;
  /** Which generator made the query (for reports; not an input). */
  kind: QueryKind;
}

/** Cases one at a time; the sequence depends only on the seed. */
export function* generateCorpus(seed: number): Generator<CorpusCase> {
  const rng = createRng(seed);
  for (;;) {
    const c = catalog(rng);
    const kind = pickKind(rng);
    const q = query(rng, kind, c);
    const out: CorpusCase = { query: q, deferred: c.deferred, loaded: c.loaded, kind };
    if (rng.chance(0.3)) out.maxResults = rng.pick([0, 1, 2, 3, 5, 10, 50]);
    yield out;
  }
}

/** `count` cases from `seed` (defaults: seed 1, 2 000 cases). */
export function defaultCorpus(seed = 1, count = 2000): CorpusCase[] {
  const out: CorpusCase[] = [];
  const gen = generateCorpus(seed);
  while (out.length < count) out.push(gen.next().value as CorpusCase);
  return out;
}

/**
 * The corpus for a release that reads tool fields the contract does not name (provenance.toolFields): the same
 * cases, with values for those fields on their tools (field-values.ts), drawn from a generator of their own
 * seeded by `seed` and the field names, so the same fields always give the same cases. An entry `field.property`
 * names a property the release reads inside a field: such a field's values are often objects holding it; inside
 * a contract field (`mcpInfo.nameKey`), the tools' own objects of that field get the property instead. No
 * fields: `cases` itself, unchanged.
 */
export function withToolFields(cases: readonly CorpusCase[], entries: readonly string[], seed = 1): CorpusCase[] {
  if (entries.length === 0) return cases as CorpusCase[];
  const inner = new Map<string, string[]>();
  for (const e of entries) {
    const dot = e.indexOf(".");
    const field = dot < 0 ? e : e.slice(0, dot);
    if (!inner.has(field)) inner.set(field, []);
    if (dot >= 0) inner.get(field)!.push(e.slice(dot + 1));
  }
  const fields = [...inner.keys()].filter((f) => !Object.hasOwn(CONTRACT_INNER_FIELDS, f));
  const within = [...inner.entries()].filter(([f]) => Object.hasOwn(CONTRACT_INNER_FIELDS, f));
  let h = seed >>> 0;
  for (const f of entries) for (let i = 0; i < f.length; i++) h = Math.imul(h ^ f.charCodeAt(i), 0x01000193) >>> 0;
  const rng = createRng(h);
  return cases.map((c) => {
    const words = queryWords(c.query);
    let deferred = c.deferred;
    let loaded = c.loaded;
    for (const field of fields) {
      const mode = fieldMode(rng);
      deferred = setField(rng, deferred, field, mode, words, inner.get(field));
      loaded = setField(rng, loaded, field, mode, words, inner.get(field));
    }
    for (const [field, properties] of within)
      for (const property of properties) {
        const mode = fieldMode(rng);
        deferred = setInnerField(rng, deferred, field, property, mode, words);
        loaded = setInnerField(rng, loaded, field, property, mode, words);
      }
    return { ...c, deferred, loaded };
  });
}
