/**
 * The rule behind a witness, where probes made from the witness itself can tell: a scoreTools witness whose
 * changed score comes from the description is asked, word by word, which description words still match on each
 * side; when the words that stopped (or started) matching make up whole paragraphs of the description, the
 * rule is said as such ("descriptions lose the paragraph 'If an upload…' before matching"), with the witness.
 */
import type { ContractCall } from "../../diff/witness-run.js";
import type { Witness } from "../../diff/witness-search.js";
import type { Tool } from "./corpus.js";
import { showQuery } from "./witness-summary.js";

/** Words asked at most: a description of a few hundred words costs a few hundred calls, once per witness. */
const MAX_WORDS = 400;

type Scored = Array<{ name: string; score: number }>;

/** A paragraph of our own, set after the description asked about. */
const CONTROL = "Zulu yankee xray";

const wordsOf = (text: string) => [...new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];

/** A tool whose name matches none of its description's words, holding the witness tool's description. */
function neutral(description: string): Tool {
  return { name: "mcp__xq__xq", description, isMcp: true, mcpInfo: { serverName: "xq", toolName: "xq" } };
}

export interface WitnessRule {
  calls: ContractCall[];
  /** The rule's sentence from both modules' answers to `calls`, or null when they do not show one. */
  say(before: unknown[], after: unknown[]): string | null;
}

/** Calls that ask which description words match, for a scoreTools witness over a tool with a description. */
export function witnessRule(w: Witness): WitnessRule | null {
  if (w.fn !== "scoreTools" || !Array.isArray(w.before) || !Array.isArray(w.after)) return null;
  const [a, b] = [w.before as Scored, w.after as Scored];
  const i = a.findIndex((x, k) => b[k] !== undefined && b[k]!.score !== x.score);
  const tool = i < 0 ? undefined : w.deferred[i];
  const description = tool?.description;
  if (!tool || typeof description !== "string" || description.trim() === "") return null;
  const words = wordsOf(description).slice(0, MAX_WORDS);
  const queryWords = wordsOf(w.query);
  // Only where the witness's query is among the description's words: the change may be the description's.
  if (!queryWords.some((q) => words.includes(q))) return null;
  // Our own paragraph after the description: a rule that drops a paragraph keeps it, one that drops the whole
  // description does not.
  const list = [neutral(`${description}\n\n${CONTROL}`)];
  const asked = [...words, ...wordsOf(CONTROL)];
  const calls = asked.map((word): ContractCall => ({ fn: "scoreTools", query: word, deferred: list, loaded: [] }));
  return {
    calls,
    say: (before, after) => {
      const score = (v: unknown) => (Array.isArray(v) && typeof v[0]?.score === "number" ? (v[0].score as number) : null);
      const lost = new Set(asked.filter((_, k) => (score(before[k]) ?? 0) > 0 && score(after[k]) === 0));
      const gained = new Set(asked.filter((_, k) => score(before[k]) === 0 && (score(after[k]) ?? 0) > 0));
      // The control paragraph must count on both sides: else the change is not a paragraph's.
      if (wordsOf(CONTROL).some((x) => lost.has(x) || gained.has(x) || !(score(after[asked.indexOf(x)]) ?? 0))) return null;
      const excerpt = description.length > 24 ? `${description.slice(0, 23).trimEnd()}…` : description;
      const witness = `scoreTools ${showQuery(w.query)} on ${tool.name} (description ${JSON.stringify(excerpt)}) scores ${a[i]!.score} → ${b[i]!.score}`;
      for (const [changed, verb] of [
        [lost, "lose"],
        [gained, "gain"],
      ] as const) {
        if (changed.size === 0) continue;
        const runs = changedRuns(description, changed);
        if (runs.length === 0) continue;
        // Each run quoted from its first word: where the text the rule drops (or keeps) begins.
        const quoted = runs.map((r) => {
          const words = r.text.split(/\s+/);
          return `'${words.slice(0, 3).join(" ")}${words.length > 3 ? "…" : ""}'`;
        });
        const kind = runs.every((r) => r.paragraph) ? "paragraph" : "passage";
        const what = quoted.length === 1 ? `the ${kind} ${quoted[0]}` : `${quoted.length} ${kind}s (${quoted.slice(0, 2).join(", ")})`;
        return verb === "lose"
          ? `descriptions lose ${what} before matching: ${witness}`
          : `descriptions now keep ${what} for matching: ${witness}`;
      }
      return null;
    },
  };
}

/**
 * The passages of a description whose words changed: runs of its words each of which changed or also occurs
 * elsewhere (so may still match there), holding at least two that changed, from the first changed word to the
 * last. `paragraph`: the run is a whole paragraph (blank-line separated) but for punctuation.
 */
function changedRuns(description: string, changed: Set<string>): Array<{ text: string; paragraph: boolean }> {
  const tokens = [...description.matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => ({
    word: m[0].toLowerCase(),
    at: m.index,
    end: m.index + m[0].length,
  }));
  const count = new Map<string, number>();
  for (const t of tokens) count.set(t.word, (count.get(t.word) ?? 0) + 1);
  const runs: Array<{ text: string; paragraph: boolean }> = [];
  let start = -1;
  const close = (end: number) => {
    let [i, j] = [start, end];
    while (i < j && !changed.has(tokens[i]!.word)) i++;
    while (j > i && !changed.has(tokens[j - 1]!.word)) j--;
    if (tokens.slice(i, j).filter((t) => changed.has(t.word)).length >= 2) {
      const [from, to] = [tokens[i]!.at, tokens[j - 1]!.end];
      const before = description
        .slice(0, from)
        .split(/\n\s*\n/)
        .pop()!;
      const after = description.slice(to).split(/\n\s*\n/)[0]!;
      runs.push({ text: description.slice(from, to), paragraph: !/[\p{L}\p{N}_]/u.test(before + after) });
    }
    start = -1;
  };
  tokens.forEach((t, k) => {
    const inRun = changed.has(t.word) || count.get(t.word)! > 1;
    if (inRun && start < 0) start = k;
    if (!inRun && start >= 0) close(k);
  });
  if (start >= 0) close(tokens.length);
  return runs;
}
