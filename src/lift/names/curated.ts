/**
 * Curated names (signatures/tool-search/names.jsonl): names we wrote for the routine's helpers and
 * constants, one entry a line, keyed by code structure rather than by minified names, and carried
 * to every release where the helper exists — the way binary diffing tools port symbol names:
 *   - exactly, by the shape of its code (a hash of it with every name masked, stable-name.ts);
 *   - else by likeness: the features we listed for it (properties, method calls, string and regex
 *     text it must hold, its parameter count), when at least 80% are present and no other entry
 *     fits as well.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { VariableDeclaration } from "acorn";
import { walk, type Node } from "../../ast/pattern.js";
import { checkShape } from "../../schemas/json.js";
import * as z from "zod/mini";
import { codeShape } from "../stable-name.js";
import { isFunction } from "./context.js";

/** One line of the names file. */
const curatedEntrySchema = z.object({
  name: z.string(),
  about: z.string(),
  /** Shapes (codeShape, 12 hex digits) of the releases' versions of it. */
  shapes: z.optional(z.array(z.string())),
  /** What its code holds: property or method names, and text of its string or regex literals. */
  features: z.optional(
    z.object({
      words: z.optional(z.array(z.string())),
      texts: z.optional(z.array(z.string())),
      params: z.optional(z.number()),
      kind: z.optional(z.enum(["function", "value", "class"])),
    }),
  ),
  /** Names for a function's parameters (a class's: its constructor's), in order, as its longest version has them (null: left to the rules);
   *  a version with fewer takes the first ones, a version with more takes none. */
  parameters: z.optional(z.array(z.nullable(z.string()))),
});
export type CuratedEntry = z.infer<typeof curatedEntrySchema>;

/** What the names file says of one statement. */
export interface CuratedMatch {
  name: string;
  parameters?: Array<string | null>;
}

const DEFAULT_FILE = fileURLToPath(new URL("../../../signatures/tool-search/names.jsonl", import.meta.url));
const LIKENESS = 0.8;

let cached: ((s: Node) => CuratedMatch | null) | null = null;

/** The namer's lookup over the shipped names file. */
export function curatedNames(): (statement: Node) => CuratedMatch | null {
  cached ??= curatedLookup(readEntries(readFileSync(DEFAULT_FILE, "utf8")));
  return cached;
}

/** What the names file says each curated helper does, by its name (`about`). */
export function curatedAbout(): Map<string, string> {
  return new Map(readEntries(readFileSync(DEFAULT_FILE, "utf8")).map((e) => [e.name, e.about]));
}

/** The entries of a names file; a line that is not one says which line and field (a names file is ours: a bug). */
export function readEntries(text: string): CuratedEntry[] {
  const entries: CuratedEntry[] = [];
  text.split("\n").forEach((l, i) => {
    if (!l.trim() || l.trimStart().startsWith("//")) return;
    let value: unknown;
    try {
      value = JSON.parse(l);
    } catch (e) {
      throw new Error(`names file, line ${i + 1}: ${(e as Error).message}`, { cause: e });
    }
    const r = checkShape(curatedEntrySchema, value);
    if (!r.ok) throw new Error(`names file, line ${i + 1}: ${r.why}`);
    entries.push(r.value);
  });
  return entries;
}

export function curatedLookup(entries: CuratedEntry[]): (statement: Node) => CuratedMatch | null {
  const byShape = new Map<string, CuratedEntry>();
  for (const e of entries) for (const s of e.shapes ?? []) byShape.set(s, e);
  const match = (e: CuratedEntry): CuratedMatch => (e.parameters ? { name: e.name, parameters: e.parameters } : { name: e.name });
  return (statement) => {
    const exact = byShape.get(codeShape(statement));
    if (exact) return match(exact);
    const f = featuresOf(statement);
    let best: { entry: CuratedEntry; score: number } | null = null;
    let tie = false;
    for (const e of entries) {
      const score = likeness(e, f);
      if (score < LIKENESS) continue;
      if (best && score === best.score) tie = true;
      if (!best || score > best.score) {
        best = { entry: e, score };
        tie = false;
      }
    }
    return best && !tie ? match(best.entry) : null;
  };
}

interface Features {
  words: Set<string>;
  texts: string[];
  params: number;
  kind: "function" | "value" | "class";
}

function featuresOf(statement: Node): Features {
  const words = new Set<string>();
  const texts: string[] = [];
  walk(statement, (n) => {
    if (n.type === "MemberExpression" && !n.computed && n.property.type === "Identifier") words.add(n.property.name);
    if ((n.type === "Property" || n.type === "MethodDefinition") && !n.computed && n.key.type === "Identifier") words.add(n.key.name);
    if (n.type === "Literal" && typeof n.value === "string") texts.push(n.value);
    if (n.type === "Literal" && n.regex) texts.push(n.regex.pattern);
    if (n.type === "TemplateElement") texts.push(n.value.cooked ?? "");
  });
  const fn: Node | null | undefined =
    statement.type === "FunctionDeclaration" ? statement : (statement as Partial<VariableDeclaration>).declarations?.[0]?.init;
  const isFn = isFunction(fn);
  const isClass = statement.type === "ClassDeclaration" || fn?.type === "ClassExpression";
  return { words, texts, params: isFn ? fn.params.length : -1, kind: isClass ? "class" : isFn ? "function" : "value" };
}

function likeness(e: CuratedEntry, f: Features): number {
  const want = e.features;
  if (!want) return 0;
  if (want.kind && want.kind !== f.kind) return 0;
  if (want.params !== undefined && want.params !== f.params) return 0;
  const checks = [...(want.words ?? []).map((w) => f.words.has(w)), ...(want.texts ?? []).map((t) => f.texts.some((x) => x.includes(t)))];
  return checks.length ? checks.filter(Boolean).length / checks.length : 0;
}
