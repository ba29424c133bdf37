/**
 * A timeline: releases in version order, and groups of consecutive releases whose lifted routine
 * is the same code. A change point is exactly where the routine's code changed; releases that
 * differ only in minified names have one routine hash and stay in one group.
 */
import { noDifferenceFound, type Behaviour } from "../diff/behaviour.js";
import type { SemanticRow } from "../routines/pack.js";
import { summarySentence, type CodeSummary } from "../diff/code-summary.js";
import { compareVersions } from "../release-names.js";
import { markdownProse, markdownText as text } from "../safe-text.js";
import { outcomeCounts } from "../verify/shared-verification.js";

export interface Release {
  /** The input; in a written timeline, its file name (timeline-folder.ts). */
  input: string;
  version: string;
  platform: string;
  /** sha256 of the lifted code without its origin; null when the release could not be lifted. */
  routineHash: string | null;
  signature?: string;
  /** The lift's accepted verification (shared-verification.ts, Agreement); the counts are absent only in a
   *  timeline written before they were recorded. */
  verified: { cases: number; agreed: number; bothReturned?: number; bothThrew?: number } | null;
  /** The lifted module; in a written timeline, relative to the timeline folder (`modules/…/tool-search.mjs`). */
  module?: string;
  error?: string;
  /** When the registry published it (ISO 8601), for a release fetch cached; absent where unknown. */
  published?: string;
}

export interface Group {
  first: string;
  last: string;
  routineHash: string | null;
  signature?: string;
  releases: string[];
  error?: string;
}

/** A change point: group i-1 → group i, with what the two groups' modules answer differently. */
export interface Change {
  /** The last version of the earlier group and the first of the later one. */
  from: string;
  to: string;
  /** The behaviour view of `searchlift diff` between the groups' first lifted modules; null when it could not be run. */
  behaviour: Behaviour | null;
  /** The probe rows of both modules (feature, before, after, changed); absent when behaviour is null. */
  semantics?: SemanticRow[];
  /** Why behaviour is null (a side not lifted, a module that fails). */
  note?: string;
  /** The named definitions that are new, gone or changed; absent when behaviour is null. */
  code?: CodeSummary;
}

export { compareVersions };

export interface Timeline {
  releases: Release[];
  groups: Group[];
  /** One per change point (groups.length - 1), in order; written by track. */
  changes?: Change[];
}

export function buildTimeline(releases: Release[]): Timeline {
  const sorted = [...releases].sort((a, b) => compareVersions(a.version, b.version) || a.platform.localeCompare(b.platform));
  const groups: Group[] = [];
  for (const r of sorted) {
    const last = groups[groups.length - 1];
    // A release that could not be lifted is its own group: nothing says its routine is the same.
    if (last && r.routineHash !== null && last.routineHash === r.routineHash) {
      last.last = r.version;
      if (!last.releases.includes(r.version)) last.releases.push(r.version);
    } else {
      groups.push({
        first: r.version,
        last: r.version,
        routineHash: r.routineHash,
        releases: [r.version],
        ...(r.signature ? { signature: r.signature } : {}),
        ...(r.error ? { error: r.error } : {}),
      });
    }
  }
  return { releases: sorted, groups };
}

/** Each group's releases (a release is in the group that lists its version with its routine). */
export function groupMembers(t: Timeline): Release[][] {
  const groupOf = (r: Release) => {
    const i = t.groups.findIndex((g) => g.releases.includes(r.version) && g.routineHash === r.routineHash);
    return i >= 0 ? i : t.groups.findIndex((g) => g.releases.includes(r.version));
  };
  const members: Release[][] = t.groups.map(() => []);
  for (const r of t.releases) members[groupOf(r)]?.push(r);
  return members;
}

/** A release's verification in a table: "2000/2000 (1965 returned normally on both sides, 35 threw on both)". */
export function verifiedCell(v: NonNullable<Release["verified"]>): string {
  const counts =
    v.bothReturned !== undefined && v.bothThrew !== undefined
      ? ` (${outcomeCounts({ bothReturned: v.bothReturned, bothThrew: v.bothThrew })})`
      : "";
  return `${v.agreed}/${v.cases}${counts}`;
}

/** timeline.md: every text from the releases (versions, errors, names) is escaped for Markdown. */
export function timelineMarkdown(t: Timeline): string {
  const lines = [
    "# Tool search timeline",
    "",
    `${t.releases.length} releases, ${t.groups.length} groups.`,
    "",
    "| releases | routine | signature | verified |",
    "|---|---|---|---|",
  ];
  for (const g of t.groups) {
    const span = g.first === g.last ? text(g.first) : `${text(g.first)} – ${text(g.last)} (${g.releases.length})`;
    const rel = t.releases.filter((r) => g.releases.includes(r.version));
    const verified = rel.every((r) => r.verified)
      ? rel
          .map((r) => verifiedCell(r.verified!))
          .filter((v, i, a) => a.indexOf(v) === i)
          .join(", ")
      : g.error
        ? "—"
        : "not verified";
    lines.push(
      `| ${span} | ${text(g.routineHash ? g.routineHash.slice(0, 12) : `not lifted: ${g.error ?? "?"}`)} | ${text(g.signature ?? "—")} | ${text(verified)} |`,
    );
  }
  if (t.changes?.length) {
    lines.push(
      "",
      "## Changes",
      "",
      "Each change point, oldest first (as timeline.html lists them): what the later group's first lifted module does differently from the earlier group's (the behaviour view of `searchlift diff`: probe rows that changed, then witnesses found by search; every witness in full in timeline.json).",
    );
    for (const c of t.changes) {
      const date = publishedDay(t, c.to);
      lines.push("", `### ${text(c.from)} → ${text(c.to)}${date ? ` (${date})` : ""}`, "", ...behaviourMarkdown(c));
    }
  }
  return lines.join("\n") + "\n";
}

/** The day the registry published `version` (the first of its releases that says), or null. */
export function publishedDay(t: Timeline, version: string): string | null {
  const known = t.releases.find((r) => r.version === version && r.published);
  return known ? known.published!.slice(0, 10) : null;
}

/** How many witness lines a change lists in markdown (timeline.json and timeline.html have them all). */
export const MARKDOWN_QUERIES = 10;

function behaviourMarkdown(c: Change): string[] {
  const b = c.behaviour;
  if (!b) return [`Behaviour not compared: ${text(c.note ?? "no lifted module")}.`];
  const out: string[] = [];
  // Without a witness the verdict comes first, whatever else is said (a field newly read is no difference).
  if (b.changed.length === 0) out.push(`${text(noDifferenceFound(b))}.`);
  else out.push(`${b.changed.length} witness${b.changed.length === 1 ? "" : "es"} in ${b.searched} cases (${b.seconds} s):`);
  if (b.sentences.length > 0) out.push("", ...b.sentences.slice(0, MARKDOWN_QUERIES + 20).map((s) => `- ${markdownProse(s)}`));
  const code = c.code ? summarySentence(c.code) : null;
  if (code) out.push("", `**Code.** ${text(code)}`);
  const rows = (c.semantics ?? []).filter((r) => r.changed);
  if (rows.length) {
    out.push("", "| probe | before | after |", "|---|---|---|");
    for (const r of rows) out.push(`| ${text(r.feature)} | ${text(r.before)} | ${text(r.after)} |`);
  }
  return out;
}
