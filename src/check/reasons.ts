/**
 * Why a release's tool search does not return a tool for its own queries, read from that release's behaviour
 * (the probes of rank.ts), never from what we believe its scorer does: the tool's score and the scores of the
 * tools returned instead (scoreTools), how far into a description or hint a word still scores, and whether
 * `select:` finds a tool by its bare name. One clause per missed query; the line shows the most telling one.
 */
import { normalizeNamePart, type ClientTool } from "./naming.js";
import { READ_PROBE_CAP, scoreKey, type ReleaseProbes } from "./rank.js";

export interface MissedQuery {
  query: string;
  /** What the release returned for it. */
  returned: string[];
}

interface Clause {
  /** Lower is more telling: a competitor to beat comes before a word the release never reads; among those,
   *  the query where fewest tools rank above it. */
  rank: number;
  text: string;
}

const SELECT = /^select:(.+)$/i;

/** The words of a query as the releases seen so far split it: at whitespace, lower-cased, a leading + dropped. */
export function queryTerms(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/\s+/)
        .filter(Boolean)
        .map((w) => (w.length > 1 && w.startsWith("+") ? w.slice(1) : w)),
    ),
  ];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const q = (s: string) => JSON.stringify(s);

/** One plain line: the most telling clause, and how many other queries missed the tool. */
export function unfoundReason(tool: ClientTool, missed: MissedQuery[], deferred: ClientTool[], probes: ReleaseProbes): string {
  const clauses = missed.map((m) => clauseFor(tool, m, deferred, probes)).sort((a, b) => a.rank - b.rank);
  const [best] = clauses;
  if (!best) return "no query of its own was asked";
  return clauses.length > 1
    ? `${best.text} (and ${clauses.length - 1} other quer${clauses.length === 2 ? "y" : "ies"} missed it)`
    : best.text;
}

/**
 * Why an expectation is missed on a release: placed lower than allowed (the tool at the last place allowed,
 * and its score against the tool's), or not returned at all (as for an unfound tool, for that one query).
 */
export function expectationReason(
  tool: ClientTool,
  query: string,
  returned: string[],
  allowed: number | null,
  deferred: ClientTool[],
  probes: ReleaseProbes,
): string {
  const rank = returned.indexOf(tool.name) + 1;
  if (tool.alwaysLoad && !rank) return "it is always loaded: the tool search never ranks it (only select: by its name returns it)";
  // The expectation names its query: the clause need not say it again.
  const prefix = `${q(query)}: `;
  const clause = (text: string) => (text.startsWith(prefix) ? text.slice(prefix.length) : text);
  if (!rank) return clause(clauseFor(tool, { query, returned }, deferred, probes).text);
  const head = `ranks ${rank}, top ${allowed} allowed`;
  if (SELECT.test(query.trim())) return `${head}; select: returns it at place ${rank}`;
  const last = returned[allowed! - 1]!;
  const scores = probes.scores.get(scoreKey(query, "full"));
  const index = deferred.findIndex((t) => t.name === tool.name);
  const lastIndex = deferred.findIndex((t) => t.name === last);
  if (!scores || index < 0 || lastIndex < 0) return `${head}; ${last} holds place ${allowed}`;
  const [theirs, own] = [scores[lastIndex]!, scores[index]!];
  const tie = theirs === own ? " (a tie: the earlier tool in the list wins)" : "";
  return `${head}; ${last}, at place ${allowed}, scores ${theirs} to its ${own}${tie}`;
}

function clauseFor(tool: ClientTool, m: MissedQuery, deferred: ClientTool[], probes: ReleaseProbes): Clause {
  const select = SELECT.exec(m.query.trim());
  if (select)
    return selectClause(
      tool,
      m.query,
      select[1]!.split(",").map((s) => s.trim()),
      probes,
    );
  const index = deferred.findIndex((t) => t.name === tool.name);
  const scores = probes.scores.get(scoreKey(m.query, "full"));
  if (!scores || index < 0)
    return { rank: 6, text: `${q(m.query)}: not among the ${m.returned.length} tools returned (this release's module reports no scores)` };
  const own = scores[index]!;
  if (own > 0) return outscored(m, own, scores, deferred, index);
  return zeroClause(tool, m.query, probes);
}

function selectClause(tool: ClientTool, query: string, names: string[], probes: ReleaseProbes): Clause {
  const bare = tool.mcpInfo.toolName;
  if (names.includes(bare) && !names.includes(tool.name)) {
    if (probes.bareSelect === false)
      return { rank: 4, text: `${q(query)}: this release has no bare-name select: (only select:${tool.name} finds it)` };
    if (normalizeNamePart(bare) !== bare)
      return { rank: 4, text: `${q(query)}: select: by the bare name finds nothing; the client names it ${tool.name}` };
  }
  return { rank: 5, text: `${q(query)}: select: does not return it` };
}

/** The tool scores, but the places went to others: the last one returned, with its score, is the one to beat. */
function outscored(m: MissedQuery, own: number, scores: number[], deferred: ClientTool[], index: number): Clause {
  const last = m.returned.at(-1);
  const lastIndex = deferred.findIndex((t) => t.name === last);
  if (last === undefined || lastIndex < 0)
    return { rank: 1, text: `${q(m.query)}: scores ${own} but the release answered another way (${m.returned.join(", ") || "nothing"})` };
  const theirs = scores[lastIndex]!;
  const above = scores.filter((s, i) => i !== index && (s > own || (s === own && i < index))).length;
  const tie = theirs === own ? " (a tie: the earlier tool in the list wins)" : "";
  return {
    rank: 1 + above / 1e6,
    text: `${q(m.query)}: ${above} tools rank above it; the last of the ${m.returned.length} returned, ${last}, scores ${theirs} to its ${own}${tie}`,
  };
}

/** The tool scores nothing: its words are past what the release reads, inside other words, or not there. */
function zeroClause(tool: ClientTool, query: string, probes: ReleaseProbes): Clause {
  const terms = queryTerms(query);
  for (const [field, text, limit] of [
    ["description", tool.description.toLowerCase(), probes.readLimit.description],
    ["search hint", (tool.searchHint ?? "").toLowerCase(), probes.readLimit.searchHint],
  ] as const) {
    const ends = terms.flatMap((t) => [...text.matchAll(new RegExp(`\\b${escape(t)}\\b`, "g"))].map((x) => x.index + t.length));
    if (!ends.length) continue;
    if (limit === -1)
      return { rank: 2, text: `${q(query)}: scores 0; its words are in its ${field}, and this release scores no ${field} words` };
    if (limit !== null && limit < READ_PROBE_CAP && ends.every((e) => e > limit)) {
      return {
        rank: 2,
        text: `${q(query)}: scores 0; its words occur in its ${field} only after character ${limit}, past the part this release reads`,
      };
    }
    return { rank: 3, text: `${q(query)}: scores 0 although its words are in its ${field}` };
  }
  const inside = terms.filter((t) => tool.description.toLowerCase().includes(t));
  if (inside.length)
    return { rank: 3, text: `${q(query)}: scores 0; ${inside.map(q).join(", ")} occur in its description only inside other words` };
  return { rank: 5, text: `${q(query)}: scores 0; none of its words is in the tool's name, hint or description` };
}
