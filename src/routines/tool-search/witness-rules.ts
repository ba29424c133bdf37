/**
 * The rule behind a witness, where probes made from the witness itself can tell: a scoreTools witness whose
 * changed score comes from the description is asked, word by word, which description words still match on each
 * side; when the words that stopped (or started) matching make up whole paragraphs of the description, the
 * rule is said as such ("descriptions lose the paragraph 'If an upload…' before matching"), with the witness.
 * A witness over a tool named X and another holding X as an alias is asked which of the two X means, for
 * `select:` and for the description the scorer reads, with the holder first and last; when the two sides answer
 * differently and the same way throughout, that is said ("a name that is one tool's and another's alias now
 * finds the tool of that name (Eval, not REPL) in `select:`…"). A witness that throws on one side only, over a
 * tool whose object field (mcpInfo) is not an object or lacks a part the contract names, is asked again with
 * the field left out and with other values of its kind; when the field is the cause, that is said ("an mcpInfo
 * that is not an object (a text, a flag or a number) now makes searchTools throw …"). A witness whose result
 * now also holds a tool it did not is asked, for each prefix of that tool's name (cut after a separator), whether
 * a tool of that prefix and a name of our own comes along too, and whether an exact-name query for a name of our
 * own now also returns the tool of that prefix and name ("a result now also brings every deferred tool named
 * `mcp__x__device_…`"), and, word by word, whether the query without that word (and a tool named by it renamed
 * alike) still brings it ("a query with the word `bash` now also returns mcp__remote-devices__device_bash").
 */
import type { ContractCall } from "../../diff/witness-run.js";
import type { Witness } from "../../diff/witness-search.js";
import type { Tool } from "./corpus.js";
import { CONTRACT_INNER_FIELDS, NOT_OBJECT_KINDS } from "./field-values.js";
import { isError } from "./probe-calls.js";
import { showQuery, witnessSummary } from "./witness-summary.js";

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

/** The rule behind a witness where calls made from it can tell: a description's paragraph, else which tool a
 *  name means when it is one tool's own and another's alias. */
export function witnessRule(w: Witness): WitnessRule | null {
  return paragraphRule(w) ?? aliasRule(w) ?? malformedRule(w) ?? either(companionRule(w), queryWordRule(w));
}

/** The first rule's sentence, else the second's, from one run of both rules' calls. */
function either(first: WitnessRule | null, second: WitnessRule | null): WitnessRule | null {
  if (!first || !second) return first ?? second;
  const n = first.calls.length;
  return {
    calls: [...first.calls, ...second.calls],
    say: (before, after) => first.say(before.slice(0, n), after.slice(0, n)) ?? second.say(before.slice(n), after.slice(n)),
  };
}

/** Calls that ask which description words match, for a scoreTools witness over a tool with a description. */
function paragraphRule(w: Witness): WitnessRule | null {
  if (w.fn !== "scoreTools" || !Array.isArray(w.before) || !Array.isArray(w.after)) return null;
  const [a, b] = [w.before as Scored, w.after as Scored];
  const i = a.findIndex((x, k) => b[k] !== undefined && b[k].score !== x.score);
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
      const score = (v: unknown) => {
        const top: unknown = Array.isArray(v) ? v[0] : undefined;
        return typeof top === "object" && top !== null && "score" in top && typeof top.score === "number" ? top.score : null;
      };
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

/** Descriptions of our own for the alias rule's two tools: a word of one is in neither the other nor a name. */
const HOLDER_TEXT = "Alpha quebec";
const NAMED_TEXT = "Bravo romeo";

/**
 * For a witness with a tool named X and another holding X as an alias: which of the two X means, asked with
 * tools of those names and descriptions of our own, the holder first and then last — `select:X` (toolSearch),
 * and a word of the named tool's description (scoreTools: the description the scorer reads for X is that
 * tool's, or the holder's).
 */
function aliasRule(w: Witness): WitnessRule | null {
  const tools = [...w.deferred, ...w.loaded];
  let pair: { holder: Tool; name: string } | undefined;
  for (const t of tools) {
    const name = (t.aliases ?? []).find((a) => a !== t.name && tools.some((u) => u !== t && u.name === a));
    if (name !== undefined) {
      pair = { holder: t, name };
      break;
    }
  }
  if (!pair) return null;
  const { name } = pair;
  const holder: Tool = { name: pair.holder.name, description: HOLDER_TEXT, aliases: [name] };
  const named: Tool = { name, description: NAMED_TEXT };
  const word = wordsOf(NAMED_TEXT).at(-1)!;
  const orders = [
    [holder, named],
    [named, holder],
  ];
  const calls: ContractCall[] = [
    ...orders.map((deferred): ContractCall => ({ fn: "toolSearch", query: `select:${name}`, deferred, loaded: [] })),
    ...orders.map((deferred): ContractCall => ({ fn: "scoreTools", query: word, deferred, loaded: [] })),
  ];
  return {
    calls,
    say: (before, after) => {
      // Which tool each answer took name to mean: "named", "holder", or null (neither, or a throw).
      const selected = (v: unknown) => {
        const first: unknown = Array.isArray(v) ? v[0] : undefined;
        return first === name ? "named" : first === holder.name ? "holder" : null;
      };
      const described = (v: unknown, k: number) => {
        const row = Array.isArray(v) ? (v[k === 0 ? 1 : 0] as { score?: unknown } | undefined) : undefined;
        return typeof row?.score !== "number" ? null : row.score > 0 ? "named" : "holder";
      };
      const read = (vs: unknown[]) => [selected(vs[0]), selected(vs[1]), described(vs[2], 0), described(vs[3], 1)];
      const [a, b] = [read(before), read(after)];
      const where: string[] = [];
      let now: string | null = null;
      for (let k = 0; k < 4; k++) {
        if (a[k] === b[k]) continue;
        // Every answer that changed must be a choice of the one tool over the other, and the same choice.
        if (a[k] === null || b[k] === null || (now !== null && b[k] !== now)) return null;
        now = b[k]!;
        const part = k < 2 ? "in `select:`" : "for the description scored";
        if (!where.includes(part)) where.push(part);
      }
      if (now === null) return null;
      const which =
        now === "named"
          ? `the tool of that name (${name}, not ${holder.name})`
          : `the tool holding it as an alias (${holder.name}, not ${name})`;
      return `a name that is one tool's and another's alias now finds ${which} ${where.join(" and ")}: ${witnessSummary(w)}`;
    },
  };
}

/** A tool's contract object field (mcpInfo) that is malformed: not an object, or without a part the contract names. */
function malformedField(t: Tool): { field: string; notObject: boolean; what: string } | null {
  for (const [field, parts] of Object.entries(CONTRACT_INNER_FIELDS)) {
    const v = (t as unknown as Record<string, unknown>)[field];
    if (v === undefined) continue;
    if (v === null || typeof v !== "object" || Array.isArray(v)) return { field, notObject: true, what: "is not an object" };
    const missing = parts.find((p) => (v as Record<string, unknown>)[p] === undefined);
    if (missing !== undefined) return { field, notObject: false, what: `lacks ${missing}` };
  }
  return null;
}

/**
 * For a witness that throws on one side only, over a tool with a malformed object field: the same call with
 * the field left out (the control: then neither side may throw), and, for a field that is not an object, with
 * each kind of value in its place. Said when the field alone decides the throw, on every kind asked.
 */
function malformedRule(w: Witness): WitnessRule | null {
  const [threwBefore, threwAfter] = [isError(w.before), isError(w.after)];
  if (threwBefore === threwAfter) return null;
  const all = [...w.deferred, ...w.loaded];
  const odd = all.find((t) => malformedField(t) !== null);
  if (!odd) return null;
  const { field, notObject, what } = malformedField(odd)!;
  const swap = (t: Tool | null) => (list: Tool[]) => list.flatMap((x) => (x !== odd ? [x] : t === null ? [] : [t]));
  const variant = (t: Tool | null): ContractCall => ({ ...w, deferred: swap(t)(w.deferred), loaded: swap(t)(w.loaded) });
  const without: Tool = { ...odd };
  delete (without as unknown as Record<string, unknown>)[field];
  const kinds = notObject ? NOT_OBJECT_KINDS : [];
  const calls = [variant(without), ...kinds.map(([value]) => variant({ ...odd, [field]: value }))];
  return {
    calls,
    say: (before, after) => {
      const [ok, thrower] = threwAfter ? [before, after] : [after, before];
      // The control: without the field, neither side throws.
      if (isError(before[0]) || isError(after[0])) return null;
      const decides = kinds.filter((_, k) => isError(thrower[k + 1]) && !isError(ok[k + 1])).map(([, kind]) => kind);
      if (notObject && decides.length === 0) return null;
      const kindsSaid = notObject
        ? ` (${decides.length === 1 ? decides[0] : `${decides.slice(0, -1).join(", ")} or ${decides.at(-1)}`})`
        : "";
      const verb = threwAfter ? "now makes" : "no longer makes";
      return `a tool whose ${field} ${what}${kindsSaid} ${verb} ${w.fn} throw: ${witnessSummary(w)}`;
    },
  };
}

/** A name of our own, in no catalog and no query of the search. */
const FRESH = "quill";

/** A name's prefixes a rule may key on, shortest first: up to and including each run of separators. */
function namePrefixes(name: string): string[] {
  return [...name.matchAll(/[_.-]+/g)].map((m) => name.slice(0, m.index + m[0].length)).filter((p) => p.length < name.length);
}

/**
 * For a toolSearch or searchTools witness whose result now also holds a tool (beside what it held): for each
 * prefix of that tool's name, the witness with the tool renamed to the prefix and a name of our own, and an
 * exact-name query for a name of our own over a tool of that name and one of the prefix and that name. Said
 * with the shortest prefix that does it: a tool of that prefix comes along whatever its name, or the tool of
 * the prefix and the queried name comes along with the tool of that name.
 */
function companionRule(w: Witness): WitnessRule | null {
  if ((w.fn !== "toolSearch" && w.fn !== "searchTools") || !Array.isArray(w.before) || !Array.isArray(w.after)) return null;
  const was = new Set(w.before as unknown[]);
  const added = (w.after as unknown[]).filter((n): n is string => typeof n === "string" && !was.has(n));
  const tool = [...w.deferred, ...w.loaded].find((t) => t.name === added[0]);
  if (was.size === 0 || !tool) return null;
  const prefixes = namePrefixes(tool.name);
  if (prefixes.length === 0) return null;
  const renamed = (p: string): ContractCall => {
    const swap = (list: Tool[]) =>
      list.map((t) =>
        t === tool ? { name: `${p}${FRESH}`, description: t.description ?? "", isMcp: t.isMcp ?? p.startsWith("mcp__") } : t,
      );
    return { ...w, deferred: swap(w.deferred), loaded: swap(w.loaded) };
  };
  const exact = (p: string): ContractCall => ({
    fn: w.fn,
    query: FRESH,
    deferred: [
      { name: `${p}${FRESH}`, description: "", isMcp: p.startsWith("mcp__") },
      { name: FRESH, description: "" },
    ],
    loaded: [],
  });
  const calls = [...prefixes.map(renamed), ...prefixes.map(exact)];
  return {
    calls,
    say: (before, after) => {
      const comes = (k: number, p: string) => {
        const [b, a] = [before[k], after[k]];
        const has = (v: unknown) => Array.isArray(v) && v.includes(`${p}${FRESH}`);
        return has(a) && !has(b);
      };
      const along = prefixes.findIndex((p, k) => comes(k, p));
      if (along >= 0) return `a result now also brings every deferred tool named \`${prefixes[along]}…\`: ${witnessSummary(w)}`;
      const named = prefixes.findIndex((p, k) => comes(prefixes.length + k, p));
      if (named >= 0)
        return `a query for a tool's exact name now also returns the tool named \`${prefixes[named]}\` and that name: ${witnessSummary(w)}`;
      return null;
    },
  };
}

/** Words of a query a rule tries one at a time, at most. */
const MAX_QUERY_WORDS = 4;

/**
 * For a toolSearch or searchTools witness whose result now also holds a deferred tool: the witness again, and for
 * each word of the query, the witness with that word replaced by a name of our own, and a tool named by the word (any case) renamed to it
 * too, so that an exact-name query stays one. When the tool stops coming along for exactly the words that bring
 * it, the rule is that word: a query with it now also returns the tool.
 */
function queryWordRule(w: Witness): WitnessRule | null {
  if ((w.fn !== "toolSearch" && w.fn !== "searchTools") || !Array.isArray(w.before) || !Array.isArray(w.after)) return null;
  const was = new Set(w.before as unknown[]);
  const now = new Set(w.after as unknown[]);
  const added = (w.after as unknown[]).find((n): n is string => typeof n === "string" && !was.has(n));
  const words = [...new Set(w.query.split(/\s+/).map((x) => x.replace(/^\+/, "")))].filter((x) => x.length > 0 && !x.includes(":"));
  // Only a tool added beside all it returned before, and not the tool the word names (a name found another way).
  if (!added || !w.deferred.some((t) => t.name === added) || words.length === 0 || ![...was].every((n) => now.has(n))) return null;
  if (words.some((x) => x.toLowerCase() === added.toLowerCase())) return null;
  const tried = words.slice(0, MAX_QUERY_WORDS);
  const without = (word: string): ContractCall => {
    const swap = (list: Tool[]) => list.map((t) => (t.name.toLowerCase() === word.toLowerCase() ? { ...t, name: FRESH } : t));
    const query = w.query
      .split(/(\s+)/)
      .map((x) => (x.replace(/^\+/, "") === word ? x.replace(word, FRESH) : x))
      .join("");
    return { ...w, query, deferred: swap(w.deferred), loaded: swap(w.loaded) };
  };
  // The witness itself first: the control, which must bring the tool here too.
  const { before: _b, after: _a, ...call } = w;
  return {
    calls: [call, ...tried.map(without)],
    say: (before, after) => {
      const brings = (k: number) => {
        const [b, a] = [before[k], after[k]];
        return Array.isArray(a) && a.includes(added) && !(Array.isArray(b) && b.includes(added));
      };
      const decisive = tried.filter((_, k) => !brings(k + 1));
      if (!brings(0) || decisive.length !== 1) return null;
      return `a query with the word \`${decisive[0]}\` now also returns ${added}: ${witnessSummary(w)}`;
    },
  };
}
