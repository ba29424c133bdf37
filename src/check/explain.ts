/**
 * `--explain`: a returned tool's score for the query and for each of its words, from the release's own
 * scoreTools. The contract reports one score per tool, not per rule, so the parts are measured: the word
 * scored again with every tool's hint, description, or both left out. What the name alone scores, and what
 * the hint and the description add, is what the release does with them, not a rule we read from its code.
 */
import type { ClientTool } from "./naming.js";
import { scoreKey, type ProbeRequest, type ReleaseProbes, type ScoreVariant } from "./rank.js";
import { queryTerms } from "./reasons.js";

export interface TermScore {
  term: string;
  score: number;
  /** The score with the hint and the description left out. */
  nameOnly: number;
  /** How much less it scores without the hint; without the description. */
  hint: number;
  description: number;
}

export interface Explained {
  score: number;
  terms: TermScore[];
}

const VARIANTS: ScoreVariant[] = ["full", "noHint", "noDescription", "nameOnly"];
const isSelect = (query: string) => /^select:/i.test(query.trim());

/** The scores --explain needs: each keyword query, and each of its words in every variant. */
export function explainRequests(queries: string[]): ProbeRequest["scores"] {
  return queries
    .filter((x) => !isSelect(x))
    .flatMap((query) => [
      { query, variant: "full" as const },
      ...queryTerms(query).flatMap((term) => VARIANTS.map((variant) => ({ query: term, variant }))),
    ]);
}

/** A deferred tool's explanation for a keyword query; null for select: or where the release reports no scores. */
export function explain(query: string, tool: string, deferred: ClientTool[], probes: ReleaseProbes): Explained | null {
  const index = deferred.findIndex((t) => t.name === tool);
  const at = (text: string, v: ScoreVariant) => probes.scores.get(scoreKey(text, v))?.[index];
  const score = at(query, "full");
  if (isSelect(query) || index < 0 || score === undefined) return null;
  const terms: TermScore[] = [];
  for (const term of queryTerms(query)) {
    const [full, noHint, noDescription, nameOnly] = VARIANTS.map((v) => at(term, v));
    if (full === undefined || noHint === undefined || noDescription === undefined || nameOnly === undefined) return null;
    terms.push({ term, score: full, nameOnly, hint: full - noHint, description: full - noDescription });
  }
  return { score, terms };
}

/** `"weather" 8 = name 6 + description 2`, or the three measurements when they do not add up. */
export function termText(t: TermScore): string {
  const parts = [
    ["name", t.nameOnly],
    ["hint", t.hint],
    ["description", t.description],
  ] as const;
  if (t.nameOnly + t.hint + t.description === t.score) {
    const shown = parts.filter(([, n]) => n !== 0);
    return `${JSON.stringify(t.term)} ${t.score}${shown.length ? ` = ${shown.map(([k, n]) => `${k} ${n}`).join(" + ")}` : ""}`;
  }
  return `${JSON.stringify(t.term)} ${t.score} (name alone ${t.nameOnly}; the hint adds ${t.hint}; the description adds ${t.description})`;
}
