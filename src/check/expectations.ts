/**
 * Expectations: what an MCP author says must hold — "query Q finds tool T, at rank N or better, on these
 * releases". Given on the command line (`--expect "Q=>T@N"`) or in a YAML or JSON file, resolved against the server's
 * tools (as the client names them), and judged on each release from what its own tool search returned.
 */
import { readFileSync } from "node:fs";
import { isMap, isSeq, parseDocument, type Document } from "yaml";
import * as z from "zod/mini";
import "../schemas/zod.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { parseReleaseSpec, satisfies, type ReleaseSpec } from "../fetch/release-range.js";
import { normalizeNamePart, type ClientTool } from "./naming.js";
import type { Query } from "./queries.js";

/** An expectation as written: the tool by its name as the server lists it, or as the client names it. */
export interface ExpectationSpec {
  query: string;
  tool: string;
  /** The best rank allowed (1: first); absent: the default (--max-rank), else returned at all. */
  rank?: number;
  /** The releases it is judged on: a release's key, a version or a semver range; absent: every release. */
  releases?: string[];
}

/** An expectation resolved: the tool by its client name, the rank allowed decided (null: returned at all). */
export interface Expectation {
  query: string;
  tool: string;
  rank: number | null;
  releases?: string[];
}

/** How an expectation fared on one release: the tool's rank there (null: not returned) and whether that is enough. */
export interface ExpectationOutcome {
  rank: number | null;
  met: boolean;
}

export interface ExpectationResult extends Expectation {
  /** Per release it is judged on (others are absent). */
  results: Record<string, ExpectationOutcome>;
  /** Per release where it is missed: one plain line on why, read from that release's behaviour. */
  reasons: Record<string, string>;
}

const usage = (message: string, file?: string) => new SearchliftError(message, ExitCode.usage, file);

/** A positive whole number, or why not. */
function positive(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

/**
 * `--expect "QUERY=>TOOL[@N]"`: split at the last `=>`; a trailing `@N` (digits) is the best rank allowed.
 * Spaces around the parts are dropped.
 */
export function parseExpect(text: string): ExpectationSpec {
  const at = text.lastIndexOf("=>");
  if (at < 0) throw usage(`--expect ${JSON.stringify(text)}: write it as "QUERY=>TOOL" or "QUERY=>TOOL@N"`);
  const query = text.slice(0, at).trim();
  let tool = text.slice(at + 2).trim();
  const rank = /@(\d+)$/.exec(tool);
  if (rank) tool = tool.slice(0, rank.index).trim();
  if (!query) throw usage(`--expect ${JSON.stringify(text)}: no query before "=>"`);
  if (!tool) throw usage(`--expect ${JSON.stringify(text)}: no tool after "=>"`);
  const n = rank ? Number(rank[1]) : undefined;
  if (n !== undefined && !positive(n)) throw usage(`--expect ${JSON.stringify(text)}: the rank after @ must be 1 or more`);
  return { query, tool, ...(n !== undefined ? { rank: n } : {}) };
}

/**
 * An expectations file: an array of `{ query, tool, rank?, releases? }` or an object with such an array as
 * `expectations`, in YAML (a `.yaml` or `.yml` file) or JSON (any other). A mistake is said on one line with the
 * line it is on: the parser's, or the line where the faulty entry starts.
 */
export function readExpectationsFile(path: string): ExpectationSpec[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new SearchliftError(
      `cannot read the expectations file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      ExitCode.unreadable,
      path,
    );
  }
  const yaml = /\.ya?ml$/i.test(path);
  // JSON is YAML too: one parse gives both formats the line each entry starts on.
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: yaml });
  let value: unknown;
  if (yaml) {
    const e = doc.errors[0];
    if (e)
      throw usage(
        `not YAML, at line ${lineOf(text, e.pos[0])}: ${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`,
        path,
      );
    value = doc.toJS();
  } else {
    try {
      value = JSON.parse(text);
    } catch (e) {
      const message = (e as Error).message.split("\n")[0]!;
      const at = /at position (\d+)/.exec(message);
      const where = at ? `, at line ${lineOf(text, Number(at[1]))}` : "";
      throw usage(`not JSON${where}: ${message.replace(/ in JSON at position \d+.*$/, "")}`, path);
    }
  }
  const list = expectationsListSchema.safeParse(value);
  const shape = yaml
    ? "expected a list of { query, tool, rank?, releases? }, or expectations: holding one"
    : 'expected [ { "query", "tool", "rank"?, "releases"? } ] or { "expectations": [ … ] }';
  if (!list.success) throw usage(`not an expectations list: ${shape}`, path);
  const lines = entryLines(doc, text);
  return list.data.map((x, i) => {
    const line = lines[i] !== undefined ? `line ${lines[i]}: ` : "";
    return expectationEntry(x, (why) => usage(`${line}expectation ${i + 1}: ${why}; ${shape}`, path));
  });
}

/** The 1-based line of character `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line each entry of the expectations list starts on, as the YAML parser found them (none where it could not). */
function entryLines(doc: Document, text: string): Array<number | undefined> {
  if (doc.errors.length) return [];
  const root = doc.contents;
  const list = isMap(root) ? root.get("expectations", true) : root;
  if (!isSeq(list)) return [];
  return list.items.map((item) => {
    const start = (item as { range?: [number, number, number] } | null)?.range?.[0];
    return start === undefined ? undefined : lineOf(text, start);
  });
}

const nonEmpty = (field: string) => `${JSON.stringify(field)} must be a non-empty string`;
const rankWhy = '"rank" must be a whole number, 1 or more';
const releasesWhy = '"releases" must be a list of versions or ranges';
const releaseName = z.string(releasesWhy).check(z.trim(), z.minLength(1, releasesWhy));

/** One entry of an expectations file; each message names its field, as the file's user wrote it. */
const expectationSchema = z.strictObject(
  {
    query: z.string(nonEmpty("query")).check(z.trim(), z.minLength(1, nonEmpty("query"))),
    tool: z.string(nonEmpty("tool")).check(z.trim(), z.minLength(1, nonEmpty("tool"))),
    rank: z.optional(z.int(rankWhy).check(z.gte(1, rankWhy))),
    // One release may be written alone.
    releases: z.optional(
      z.union(
        [
          z.pipe(
            releaseName,
            z.transform((r) => [r]),
          ),
          z.array(releaseName),
        ],
        releasesWhy,
      ),
    ),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? `unknown field ${JSON.stringify(issue.keys[0])}` : "not an object") },
);

/** The file's list: the entries themselves, or under `expectations`; each is checked apart, to say which is wrong. */
const expectationsListSchema = z.union([
  z.array(z.unknown()),
  z.pipe(
    z.looseObject({ expectations: z.array(z.unknown()) }),
    z.transform((o) => o.expectations),
  ),
]);

function expectationEntry(x: unknown, bad: (why: string) => Error): ExpectationSpec {
  const r = expectationSchema.safeParse(x);
  if (!r.success) throw bad(r.error.issues[0]?.message ?? "not an object");
  const { query, tool, rank, releases } = r.data;
  return { query, tool, ...(rank !== undefined ? { rank } : {}), ...(releases !== undefined ? { releases } : {}) };
}

/**
 * The tool an expectation names, among the server's: its client name, its name as the server lists it, or
 * that name as the client rewrites it. Anything else is a usage error that names a few tools there are.
 */
export function resolveExpectations(specs: ExpectationSpec[], tools: ClientTool[], maxRank?: number): Expectation[] {
  return specs.map((s) => {
    const tool =
      tools.find((t) => t.name === s.tool) ??
      tools.find((t) => t.mcpInfo.toolName === s.tool) ??
      tools.find((t) => normalizeNamePart(t.mcpInfo.toolName) === s.tool);
    if (!tool) {
      const some = tools.slice(0, 5).map((t) => t.mcpInfo.toolName);
      const more = tools.length > some.length ? `, … (${tools.length} in all)` : "";
      throw usage(
        `expectation ${JSON.stringify(`${s.query}=>${s.tool}`)}: the server has no tool ${JSON.stringify(s.tool)} (it lists ${some.join(", ")}${more})`,
      );
    }
    for (const name of s.releases ?? []) checkReleaseName(s, name);
    const rank = s.rank ?? maxRank ?? null;
    return { query: s.query, tool: tool.name, rank, ...(s.releases ? { releases: s.releases } : {}) };
  });
}

/** The version a release key stands for: `2.1.112`, or `2.1.112 (linux-x64)` when two releases share it. */
const versionOf = (key: string) => key.replace(/ \(.*$/, "");

/** A release as an expectation names it: a version or a range as fetch reads them (`2.1.100-2.1.112`, `>=2.1.300`); null otherwise. */
function releaseSpec(text: string): Exclude<ReleaseSpec, { kind: "tag" }> | null {
  try {
    const spec = parseReleaseSpec(text);
    return spec.kind === "tag" ? null : spec;
  } catch {
    return null;
  }
}

/** A release name an expectation may use: a release's key (`2.1.112 (linux-x64)`), a version or a range. */
function checkReleaseName(e: ExpectationSpec, name: string): void {
  if (releaseSpec(name) || / \(.+\)$/.test(name)) return;
  throw usage(
    `expectation ${JSON.stringify(`${e.query}=>${e.tool}`)}: release ${JSON.stringify(name)} is not a version or a range (2.1.112, 2.1.100-2.1.112, >=2.1.300)`,
  );
}

/** Whether an expectation is judged on a release: it names none, or names the release by key, version or range. */
export function judgedOn(e: Pick<Expectation, "releases">, releaseKey: string): boolean {
  if (!e.releases) return true;
  const version = versionOf(releaseKey);
  return e.releases.some((r) => {
    if (r === releaseKey || r === version) return true;
    const spec = releaseSpec(r);
    if (!spec) return false;
    return spec.kind === "exact" ? spec.version === version : satisfies(version, spec);
  });
}

/** Met when the tool is returned, and placed no lower than the rank allowed. */
export function outcome(rank: number | null, allowed: number | null): ExpectationOutcome {
  return { rank, met: rank !== null && (allowed === null || rank <= allowed) };
}

/**
 * The queries for a run with expectations: each expectation's query is for the tools expected of it (a query
 * counts for the tools it is for), in the order first met; other given queries are asked and shown, and are
 * for no tool.
 */
export function expectationQueries(expectations: Expectation[], given: string[]): Query[] {
  const byText = new Map<string, Query>();
  for (const e of expectations) {
    const q = byText.get(e.query) ?? { text: e.query, owners: [] };
    if (!q.owners.includes(e.tool)) q.owners.push(e.tool);
    byText.set(e.query, q);
  }
  for (const text of given.map((t) => t.trim()).filter(Boolean)) if (!byText.has(text)) byText.set(text, { text, owners: [] });
  return [...byText.values()];
}

/** "top 3" or "returned": the bar an expectation sets. */
export const allowedText = (rank: number | null) => (rank === null ? "returned" : `top ${rank}`);
