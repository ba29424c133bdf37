/**
 * `--explain` for a tool a query missed (an expectation missed, or a query of its own that did not return it):
 * per query word, what the release's own scoreTools gives the tool alone for that word, and what its name, hint
 * and description add — measured by scoring the word again with the hint, the description or both left out
 * (tool-probes.ts) — with the part of the tool that holds the word named beside it, and the near misses: a word
 * that contains the query word but is not it (`attach` is not the word `attachment`), when the release scores
 * no such word (measured on a made-up tool whose description is that word), a hint the release ignores, and a
 * word past the part of the description or hint the release reads (rank.ts's probes).
 */
import type { ClientTool } from "./naming.js";
import { READ_PROBE_CAP, type ReleaseProbes } from "./rank.js";
import { queryTerms } from "./reasons.js";
import { contractTool } from "./naming.js";
import type { ContractTool, ProbeBatch, ToolProbe } from "./tool-probes.js";

export interface MissedTerm {
  term: string;
  /** The tool's score alone for this word. */
  score: number;
  /** With the hint and the description left out; how much less without the hint; without the description. */
  name: number;
  hint: number;
  description: number;
  /** Which parts of the tool hold the word, where it scores (`name part "weather"`, `description word`, …). */
  matched: string[];
  /** Why a word that looks present scores nothing. */
  nearMisses: string[];
}

export interface MissedExplained {
  /** The tool's score alone for the whole query. */
  score: number;
  terms: MissedTerm[];
}

const isSelect = (query: string) => /^select:/i.test(query.trim());
const PROBE_NAME = "zz_searchlift_probe";
const PROBE_SERVER = "searchlift_probe";

/** The tool with its hint, its description or both left out (an empty description: the contract's field stays a string). */
export function variantsOf(tool: ClientTool): {
  full: ContractTool;
  noHint: ContractTool;
  noDescription: ContractTool;
  nameOnly: ContractTool;
} {
  const full = contractTool(tool);
  const { searchHint: _hint, ...noHint } = full;
  return { full, noHint, noDescription: { ...full, description: "" }, nameOnly: { ...noHint, description: "" } };
}

/** A made-up tool whose description is one word: does the release score a query word inside it? */
export function wordProbe(word: string): ContractTool {
  return {
    name: `mcp__${PROBE_SERVER}__${PROBE_NAME}`,
    description: word,
    isMcp: true,
    mcpInfo: { serverName: PROBE_SERVER, toolName: PROBE_NAME },
  };
}

/** The words of a text (letters and digits), lower-cased. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A name's parts: split at `_`, `-`, `.`, spaces and lower-to-upper case changes, lower-cased. */
export function nameParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Words of the description (or hint) that contain the term but are not it. */
function containing(text: string, term: string): string[] {
  return [...new Set(wordsOf(text).filter((w) => w !== term && w.includes(term)))];
}

/** The probes one missed (query, tool) needs on a release. */
export function missedProbes(query: string, tool: ClientTool): ToolProbe[] {
  if (isSelect(query)) return [];
  const v = variantsOf(tool);
  const out: ToolProbe[] = [{ kind: "score", query, tool: v.full }];
  for (const term of queryTerms(query)) {
    for (const t of [v.full, v.noHint, v.noDescription, v.nameOnly]) out.push({ kind: "score", query: term, tool: t });
    for (const w of [...containing(tool.description, term), ...containing(tool.searchHint ?? "", term)])
      out.push({ kind: "score", query: term, tool: wordProbe(w) });
  }
  return out;
}

export function wantMissed(batch: ProbeBatch, query: string, tool: ClientTool): void {
  for (const p of missedProbes(query, tool)) batch.want(p);
}

/** The breakdown, read from the batch's answers; null for select: or where the release reports no scores. */
export function explainMissed(batch: ProbeBatch, query: string, tool: ClientTool, probes: ReleaseProbes): MissedExplained | null {
  if (isSelect(query)) return null;
  const v = variantsOf(tool);
  const num = (q: string, t: ContractTool) => {
    const a = batch.get({ kind: "score", query: q, tool: t });
    return typeof a === "number" ? a : null;
  };
  const score = num(query, v.full);
  if (score === null) return null;
  const terms: MissedTerm[] = [];
  for (const term of queryTerms(query)) {
    const [full, noHint, noDescription, nameOnly] = [
      num(term, v.full),
      num(term, v.noHint),
      num(term, v.noDescription),
      num(term, v.nameOnly),
    ];
    if (full === null || noHint === null || noDescription === null || nameOnly === null) return null;
    const hint = full - noHint;
    const description = full - noDescription;
    const matched: string[] = [];
    if (nameOnly > 0) matched.push(...nameLabels(tool, term));
    if (hint > 0) matched.push("searchHint word");
    if (description > 0) matched.push("description word");
    terms.push({
      term,
      score: full,
      name: nameOnly,
      hint,
      description,
      matched,
      nearMisses: nearMisses(tool, term, { hint, description }, probes, batch),
    });
  }
  return { score, terms };
}

/** Where in the name a scoring word is, as the name reads (the score is measured; the label only points at it). */
function nameLabels(tool: ClientTool, term: string): string[] {
  const { serverName, toolName } = tool.mcpInfo;
  const q = JSON.stringify;
  const out: string[] = [];
  if (toolName.toLowerCase() === term) out.push("the whole tool name");
  else if (nameParts(toolName).includes(term)) out.push(`tool name part ${q(term)}`);
  if (serverName.toLowerCase() === term) out.push("the whole server name");
  else if (nameParts(serverName).includes(term)) out.push(`server name part ${q(term)}`);
  if (out.length) return out;
  const inside = [...nameParts(toolName), ...nameParts(serverName)].find((p) => p.includes(term));
  return [inside ? `inside name part ${q(inside)}` : "the name"];
}

function nearMisses(
  tool: ClientTool,
  term: string,
  added: { hint: number; description: number },
  probes: ReleaseProbes,
  batch: ProbeBatch,
): string[] {
  const q = JSON.stringify;
  const out: string[] = [];
  for (const [field, text, add, limit] of [
    ["description", tool.description, added.description, probes.readLimit.description],
    ["searchHint", tool.searchHint ?? "", added.hint, probes.readLimit.searchHint],
  ] as const) {
    if (add > 0 || !text) continue;
    const lower = text.toLowerCase();
    const at = wordsOf(lower).includes(term) ? lower.search(new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, "u")) : -1;
    if (at >= 0) {
      if (limit === -1) out.push(`${q(term)} is in its ${field}, and this release scores no ${field} words`);
      else if (limit !== null && limit < READ_PROBE_CAP && at + term.length > limit)
        out.push(`${q(term)} is in its ${field} at character ${at}, past the first ${limit} characters this release reads`);
      else out.push(`${q(term)} is in its ${field} but scores nothing there`);
      continue;
    }
    for (const w of containing(text, term)) {
      const s = batch.get({ kind: "score", query: term, tool: wordProbe(w) });
      if (s === 0) out.push(`${q(term)} is not the word ${q(w)} (in its ${field}): this release scores whole words only`);
    }
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `"attach" 0: matched nothing; "attach" is not the word "attachment" …`, or `"weather" 2 = description word 2`. */
export function missedTermText(t: MissedTerm): string {
  const q = JSON.stringify(t.term);
  if (t.score === 0) return `${q} matched nothing${t.nearMisses.length ? ` (${t.nearMisses.join("; ")})` : ""}`;
  const where = t.matched.filter((m) => m !== "searchHint word" && m !== "description word");
  const parts = [
    [`name${where.length ? ` [${where.join(", ")}]` : ""}`, t.name],
    ["searchHint word", t.hint],
    ["description word", t.description],
  ] as const;
  const shown = parts.filter(([, n]) => n !== 0).map(([k, n]) => `${k} ${n}`);
  const tail = t.nearMisses.length ? `; ${t.nearMisses.join("; ")}` : "";
  return `${q} ${t.score}${shown.length ? ` = ${shown.join(" + ")}` : ""}${tail}`;
}
