/**
 * Values for tool fields the scorer-module contract does not name (provenance.toolFields): a release that
 * reads a tool's `title` shows what it does with it only on tools that have one. Used by the verification
 * corpus (corpus.ts, withToolFields) and available to the witness search (toolsWithFields).
 *
 * Mostly text made of the query's own words and other words (so that a rule matching the query against the
 * field fires), sometimes nothing, an empty string, a list of words, or another type (a number, a flag, null,
 * an object), which a release may test, skip or throw on.
 */
import type { Rng } from "./rng.js";
import type { Tool } from "../../../signatures/tool-search/lifted-module.d.ts";

/** The contract's fields that hold an object, and the properties it names inside each (docs/scorer-module-contract.md,
 *  Tool): any other property a release reads there is one of its own (ToolFields.within). */
export const CONTRACT_INNER_FIELDS: Readonly<Record<string, readonly string[]>> = { mcpInfo: ["serverName", "toolName"] };

const OTHER_WORDS = ["tracker", "widget", "notes", "report", "Zephyr", "billing", "draft", "board", "archive", "quokka"];
/** Values of each kind an object field (mcpInfo) may hold instead of an object, and how a sentence names them. */
export const NOT_OBJECT_KINDS: ReadonlyArray<readonly [value: unknown, kind: string]> = [
  ["probe", "a text"],
  [true, "a flag"],
  [7, "a number"],
];

const ODD_VALUES: readonly unknown[] = [0, 42, -1, true, false, null, {}, { text: "widget" }, [], [1, 2]];

/** The words of a query a field's value may hold: its whitespace-separated words, without `+` and `select:`. */
export function queryWords(query: string): string[] {
  return query
    .replace(/^\s*select:/i, "")
    .split(/[\s,]+/)
    .map((w) => w.replace(/^\+/, ""))
    .filter((w) => w.length > 0 && w.length <= 64)
    .slice(0, 8);
}

/** A text of one to four words, each from `words` (the query's) or from `others`, sometimes in another case. */
export function fieldText(rng: Rng, words: readonly string[], others: readonly string[]): string {
  const n = rng.range(1, 4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const fromQuery = words.length > 0 && rng.chance(0.55);
    const w = fromQuery ? rng.pick(words) : rng.chance(0.5) && others.length > 0 ? rng.pick(others) : rng.pick(OTHER_WORDS);
    out.push(rng.chance(0.15) ? w.toUpperCase() : rng.chance(0.15) ? w[0]!.toUpperCase() + w.slice(1) : w);
  }
  return out.join(rng.pick([" ", " ", " ", ", ", "-", " — "]));
}

/** A value of another type than text. */
export function oddFieldValue(rng: Rng): unknown {
  return structuredClone(rng.pick(ODD_VALUES));
}

/**
 * How one case's tools carry one field: absent from all (as before), text on all, text on some, lists of
 * words on all, or text on all but one tool, which has a value of another type. Most cases give text to
 * every tool, so that a release that reads the field without testing it first still returns on most cases.
 */
export type FieldMode = "absent" | "text" | "some" | "list" | "odd";

export function fieldMode(rng: Rng): FieldMode {
  const r = rng.next();
  return r < 0.1 ? "absent" : r < 0.85 ? "text" : r < 0.9 ? "some" : r < 0.95 ? "list" : "odd";
}

/**
 * The tools with `field` set as `mode` says (new tool objects where one changes; the others as they were). With
 * `inner` (properties the release reads inside the field: `tool.annotations.category`), a text value is often an
 * object holding them instead, each one text or absent.
 */
export function setField(
  rng: Rng,
  tools: readonly Tool[],
  field: string,
  mode: FieldMode,
  words: readonly string[],
  inner: readonly string[] = [],
): Tool[] {
  if (mode === "absent" || tools.length === 0) return [...tools];
  const odd = mode === "odd" ? rng.int(tools.length) : -1;
  return tools.map((t, i) => {
    const others = t.name.split(/__|_|\.|-|(?<=[a-z])(?=[A-Z])/).filter((p) => p.length > 0 && p !== "mcp");
    if (mode === "some" && rng.chance(0.4)) return t;
    let value: unknown;
    if (i === odd) value = oddFieldValue(rng);
    else if (mode === "list") value = Array.from({ length: rng.range(0, 3) }, () => fieldText(rng, words, others));
    else if (inner.length > 0 && rng.chance(0.6)) value = innerObject(rng, inner, words, others);
    else value = rng.chance(0.04) ? "" : fieldText(rng, words, others);
    return { ...t, [field]: value };
  });
}

/**
 * The tools with `property` set inside their own object of `field` (a contract field: `mcpInfo.nameKey`), as
 * `mode` says; tools without such an object are left as they are (new objects where one changes).
 */
export function setInnerField(
  rng: Rng,
  tools: readonly Tool[],
  field: string,
  property: string,
  mode: FieldMode,
  words: readonly string[],
): Tool[] {
  if (mode === "absent") return [...tools];
  const holder = (t: Tool): Record<string, unknown> | null => {
    const v = (t as unknown as Record<string, unknown>)[field];
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  };
  const holders = tools.flatMap((t, i) => (holder(t) ? [i] : []));
  if (holders.length === 0) return [...tools];
  const odd = mode === "odd" ? rng.pick(holders) : -1;
  return tools.map((t, i) => {
    const object = holder(t);
    if (object === null || (mode === "some" && rng.chance(0.4))) return t;
    const others = t.name.split(/__|_|\.|-|(?<=[a-z])(?=[A-Z])/).filter((p) => p.length > 0 && p !== "mcp");
    let value: unknown;
    if (i === odd) value = oddFieldValue(rng);
    else if (mode === "list") value = Array.from({ length: rng.range(0, 3) }, () => fieldText(rng, words, others));
    else value = rng.chance(0.04) ? "" : fieldText(rng, words, others);
    return { ...t, [field]: { ...object, [property]: value } };
  });
}

/** An object with each of `inner` as text (sometimes absent), its keys in a seeded order. */
function innerObject(rng: Rng, inner: readonly string[], words: readonly string[], others: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of rng.shuffle(inner)) if (inner.length === 1 || rng.chance(0.8)) out[key] = fieldText(rng, words, others);
  return out;
}

/**
 * Calls' tools for the witness search: for each field, each of `tools` in turn carrying it, its value made of
 * `query`'s words (the whole query, a word of it, and the words among others), then as a list, then a value
 * of another type; the other tools without it. Each yields the tools to call `query` with.
 */
export function* toolsWithFields(fields: readonly string[], tools: readonly Tool[], query: string): Generator<Tool[]> {
  const words = queryWords(query);
  const first = words[0] ?? "widget";
  const values: unknown[] = [
    query,
    first,
    `${first} tracker`,
    first.toUpperCase(),
    `The ${first} board`,
    [first],
    [first, "notes"],
    "",
    true,
    42,
  ];
  for (const field of fields) {
    for (const value of values) {
      for (let i = 0; i < tools.length; i++) yield tools.map((t, j) => (j === i ? { ...t, [field]: structuredClone(value) } : t));
      yield tools.map((t) => ({ ...t, [field]: structuredClone(value) }));
    }
  }
}
