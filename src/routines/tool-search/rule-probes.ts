/**
 * The scoring table's rows ("adds: …"): what each kind of match adds to a tool's score, measured as the
 * difference of two single-tool scoreTools calls in which one rule differs (RULE_ROWS), and the sentence a change
 * of one reads as.
 */
import { showQuery } from "./witness-summary.js";
import type { Tool } from "./corpus.js";
import { type Probe, mcp, call, isError } from "./probe-calls.js";

/*
 * The scoring table: what each kind of match adds, measured by differences of single-tool scoreTools calls in
 * which exactly one rule differs. The tools are our own. An MCP tool "alpha" / "bravo_charlie" has the name
 * parts alpha, bravo and charlie and the whole server and tool names alpha and bravo_charlie; a built-in
 * BravoCharlie has the parts bravo and charlie and the whole name bravocharlie. A term such as "avo_cha" lies
 * inside a whole name and in no part, "charlie" is a part and lies inside a whole name, so
 * score("charlie") − score("avo_cha") is what an exact part adds, whatever a whole name adds, and
 * score("bravo_charlie") is what an exact whole name adds (no part holds it). The full-name fallback (+3 where
 * nothing else scored) has no row: a term has no spaces, so a term inside the full name is inside a part, which
 * scores first, in every release read so far.
 */
export const RULE_DESCRIPTION = "Zulu yankee xray";

export const RULE_MCP = mcp("alpha", "bravo_charlie", RULE_DESCRIPTION);

const RULE_BUILTIN: Tool = { name: "BravoCharlie", description: RULE_DESCRIPTION, isMcp: false };

const RULE_TEXT = { ...mcp("kilo", "lima", "November oscar papa"), searchHint: "quebec romeo" };

/** One term on one tool, and the fields shown with it in a witness. */
interface Term {
  query: string;
  tool: Tool;
  shows?: "description" | "searchHint";
}

/** A rule measured as score(plus) − score(minus), each a single-tool scoreTools call. */
interface Measure {
  plus: Term;
  minus?: Term;
}

/**
 * A row of the table: what an exact (or whole-word) match adds and what a partial one adds, for an MCP tool
 * and, where the rule reads the kind of tool, for a built-in. Its value reads "12 / 6 (built-in 10 / 5)".
 */
interface RuleRow {
  feature: string;
  /** [exact, partial] on the MCP tool, then, optionally, on the built-in. */
  mcp: [Measure, Measure];
  builtin?: [Measure, Measure];
  /** "an exact name part" / "a partial one": the sentence's subjects. */
  exact: string;
  partial: string;
  /** The partial match said alone ("a partial name part"), when only it changed. */
  partialAlone: string;
  /** What the rule adds to, when it is said ("on top of the name parts"). */
  onTopOf?: string;
}

const term = (query: string, tool: Tool, shows?: Term["shows"]): Term => ({ query, tool, ...(shows ? { shows } : {}) });

const RULE_ROWS: RuleRow[] = [
  {
    feature: "adds: name part, exact / partial",
    mcp: [
      { plus: term("charlie", RULE_MCP), minus: term("avo_cha", RULE_MCP) },
      { plus: term("harli", RULE_MCP), minus: term("avo_cha", RULE_MCP) },
    ],
    builtin: [
      { plus: term("charlie", RULE_BUILTIN), minus: term("avocha", RULE_BUILTIN) },
      { plus: term("harli", RULE_BUILTIN), minus: term("avocha", RULE_BUILTIN) },
    ],
    exact: "an exact name part",
    partial: "a partial one",
    partialAlone: "a partial name part",
  },
  {
    feature: "adds: MCP server name part, exact / partial",
    mcp: [
      { plus: term("alpha", RULE_MCP), minus: term("bravo_charlie", RULE_MCP) },
      { plus: term("alph", RULE_MCP), minus: term("avo_cha", RULE_MCP) },
    ],
    exact: "an exact MCP server name part",
    partial: "a partial one",
    partialAlone: "a partial MCP server name part",
  },
  {
    feature: "adds: whole server or tool name, exact / partial",
    mcp: [{ plus: term("bravo_charlie", RULE_MCP) }, { plus: term("avo_cha", RULE_MCP) }],
    builtin: [{ plus: term("bravocharlie", RULE_BUILTIN) }, { plus: term("avocha", RULE_BUILTIN) }],
    exact: "an exact whole server or tool name",
    partial: "a partial one",
    partialAlone: "part of a whole server or tool name",
    onTopOf: "the name parts",
  },
  {
    feature: "adds: searchHint word, whole / part",
    mcp: [{ plus: term("romeo", RULE_TEXT, "searchHint") }, { plus: term("rome", RULE_TEXT, "searchHint") }],
    exact: "a whole searchHint word",
    partial: "part of one",
    partialAlone: "part of a searchHint word",
  },
  {
    feature: "adds: description word, whole / part",
    mcp: [{ plus: term("oscar", RULE_TEXT, "description") }, { plus: term("osca", RULE_TEXT, "description") }],
    exact: "a whole description word",
    partial: "part of one",
    partialAlone: "part of a description word",
  },
];

/** The row's measures in order: MCP exact, MCP partial, then the built-in's. */
const measuresOf = (r: RuleRow): Measure[] => [...r.mcp, ...(r.builtin ?? [])];

const termsOf = (m: Measure): Term[] => (m.minus ? [m.plus, m.minus] : [m.plus]);

/** A single-tool score from scoreTools' answer; an Error for a call that threw or answered no score. */
export function scoreOf(v: unknown): number | { error: string } {
  if (isError(v)) return v;
  const s = Array.isArray(v) ? (v[0] as { score?: unknown } | undefined)?.score : undefined;
  return typeof s === "number" ? s : { error: "no score" };
}

/** The measured numbers of a row, [MCP exact, MCP partial, built-in exact, built-in partial], or the first throw. */
function ruleNumbers(r: RuleRow, answers: unknown[]): number[] | { error: string } {
  const out: number[] = [];
  let at = 0;
  for (const m of measuresOf(r)) {
    const [plus, minus] = termsOf(m).map(() => scoreOf(answers[at++]));
    if (typeof plus !== "number") return plus!;
    if (minus !== undefined && typeof minus !== "number") return minus;
    out.push(plus - (minus ?? 0));
  }
  return out;
}

/** "12 / 6 (built-in 10 / 5)" */
function ruleValue(n: number[]): string {
  return `${n[0]} / ${n[1]}${n.length > 2 ? ` (built-in ${n[2]} / ${n[3]})` : ""}`;
}

/** "12 (10 for a built-in)" for an exact match, "4 (3)" for a partial one; one number where both agree. */
function forBoth(mcpN: number, builtin: number | undefined, long: boolean): string {
  if (builtin === undefined || builtin === mcpN) return String(mcpN);
  return long ? `${mcpN} (${builtin} for a built-in)` : `${mcpN} (${builtin})`;
}

function parseRuleValue(v: string): number[] | null {
  const m = /^(-?\d+) \/ (-?\d+)(?: \(built-in (-?\d+) \/ (-?\d+)\))?$/.exec(v);
  return m
    ? m
        .slice(1)
        .filter((x) => x !== undefined)
        .map(Number)
    : null;
}

/** "an exact name part now adds 12 (10 for a built-in), a partial one 6 (5)" */
function ruleClause(r: RuleRow, n: number[]): string {
  return `${r.exact} now adds ${forBoth(n[0]!, n[2], true)}, ${r.partial} ${forBoth(n[1]!, n[3], false)}`;
}

/** A tool as a witness shows it: its name, and the field the rule reads. */
function shownTool(t: Term): string {
  const field = t.shows ? t.tool[t.shows] : undefined;
  return field === undefined ? t.tool.name : `${t.tool.name} (${t.shows} ${JSON.stringify(field)})`;
}

function ruleProbe(r: RuleRow): Probe {
  const terms = measuresOf(r).flatMap(termsOf);
  return {
    feature: r.feature,
    calls: terms.map((t) => call("scoreTools", t.query, [t.tool])),
    read: (answers) => {
      const n = ruleNumbers(r, answers);
      return Array.isArray(n) ? ruleValue(n) : `throws: ${n.error.slice(0, 80)}`;
    },
    sentence: (before, after, afterAnswers, beforeAnswers) => {
      const [a, b] = [parseRuleValue(before), parseRuleValue(after)];
      // The witness: the first call whose score changed, with only the tool and the field the rule reads.
      const i = terms.findIndex((_, k) => JSON.stringify(beforeAnswers?.[k]) !== JSON.stringify(afterAnswers[k]));
      const shown = (v: unknown) => {
        const s = scoreOf(v);
        return typeof s === "number" ? String(s) : `throws (${s.error.slice(0, 60)})`;
      };
      const witness = (field: boolean) =>
        i < 0 || !beforeAnswers
          ? ""
          : `: scoreTools ${showQuery(terms[i]!.query)} on ${field ? shownTool(terms[i]!) : terms[i]!.tool.name} scores ${shown(beforeAnswers[i])} → ${shown(afterAnswers[i])}`;
      // One witness, with the field the rule reads and what the rule adds to where the sentence has room for them.
      const lines = [true, false].flatMap((onTop) =>
        [true, false].map((field) => ruleChange(r, before, after, a, b, onTop) + witness(field)),
      );
      return lines.find((l) => l.length <= 200) ?? lines[lines.length - 1]!;
    },
  };
}

/** "11 for an MCP tool (was 12; 10 for a built-in)" where one kind of tool changed, else "4 (was 0)". */
function oneSide(mcpA: number, mcpB: number, builtinA: number | undefined, builtinB: number | undefined): string {
  if (builtinA === undefined || builtinB === undefined || (mcpA !== mcpB && builtinA !== builtinB))
    return `${forBoth(mcpB, builtinB, true)} (was ${forBoth(mcpA, builtinA, true)})`;
  return mcpA !== mcpB
    ? `${mcpB} for an MCP tool (was ${mcpA}; ${builtinB} for a built-in)`
    : `${builtinB} for a built-in (was ${builtinA}; ${mcpB} for an MCP tool)`;
}

/** What changed in a rule row, in words: the exact match's and the partial match's numbers, or only the one that changed. */
function ruleChange(r: RuleRow, before: string, after: string, a: number[] | null, b: number[] | null, sayOnTop = true): string {
  if (!a || !b) return `${r.feature.replace(/^adds: /, "")}: ${before} → ${after}`;
  const onTop = r.onTopOf && sayOnTop ? `, on top of ${r.onTopOf}` : "";
  const partial = (n: number[], long: boolean) => forBoth(n[1]!, n[3], long);
  const exactChanged = a[0] !== b[0] || a[2] !== b[2];
  const partialChanged = a[1] !== b[1] || a[3] !== b[3];
  const none = (n: number[], k: number) => n[k] === 0 && (n[k + 2] ?? 0) === 0;
  if (exactChanged !== partialChanged) {
    const [subject, k] = exactChanged ? [r.exact, 0] : [r.partialAlone, 1];
    if (none(b, k)) return `${subject} no longer adds anything${onTop} (was ${forBoth(a[k]!, a[k + 2], true)})`;
    return `${subject} now adds ${oneSide(a[k]!, b[k]!, a[k + 2], b[k + 2])}${onTop}`;
  }
  const was = `; before, ${forBoth(a[0]!, a[2], false)} and ${partial(a, false)}`;
  if (b.every((x) => x === 0)) return `${r.exact} and ${r.partial} no longer add anything${onTop}${was}`;
  return `${ruleClause(r, b)}${onTop}${a.every((x) => x === 0) ? "" : was}`;
}

export function ruleProbes(): Probe[] {
  return RULE_ROWS.map(ruleProbe);
}
