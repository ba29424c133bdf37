/**
 * A timeline: releases in version order, and groups of consecutive releases whose lifted routine
 * is the same code. A change point is exactly where the routine's code changed; releases that
 * differ only in minified names have one routine hash and stay in one group.
 */
import type { Behaviour } from "../diff/behaviour.js";

export interface Release {
  input: string;
  version: string;
  platform: string;
  /** sha256 of the lifted code without its origin; null when the release could not be lifted. */
  routineHash: string | null;
  signature?: string;
  verified: { cases: number; agreed: number } | null;
  module?: string;
  error?: string;
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
  /** Why behaviour is null (a side not lifted, a module that fails). */
  note?: string;
}

export interface Timeline {
  releases: Release[];
  groups: Group[];
  /** One per change point (groups.length - 1), in order; written by track. */
  changes?: Change[];
}

/** Dotted versions compared number by number (2.1.9 < 2.1.10); pre-release tags after the release. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/);
  const pb = b.split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) {
      if (nx !== ny) return nx - ny;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
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

export function timelineMarkdown(t: Timeline): string {
  const lines = ["# Tool search timeline", "", `${t.releases.length} releases, ${t.groups.length} groups.`, "", "| releases | routine | signature | verified |", "|---|---|---|---|"];
  for (const g of t.groups) {
    const span = g.first === g.last ? g.first : `${g.first} – ${g.last} (${g.releases.length})`;
    const rel = t.releases.filter((r) => g.releases.includes(r.version));
    const verified = rel.every((r) => r.verified) ? rel.map((r) => `${r.verified!.agreed}/${r.verified!.cases}`).filter((v, i, a) => a.indexOf(v) === i).join(", ") : g.error ? "—" : "not verified";
    const cell = (v: string) => v.replace(/\|/g, "\\|");
    lines.push(`| ${span} | ${cell(g.routineHash ? g.routineHash.slice(0, 12) : `not lifted: ${g.error ?? "?"}`)} | ${cell(g.signature ?? "—")} | ${verified} |`);
  }
  if (t.changes?.length) {
    lines.push("", "## Changes", "", "What the catalog's queries get from each group's first lifted module against the group before (the behaviour view of `searchlift diff`; all of it in timeline.json).");
    for (const c of t.changes) lines.push("", `### ${c.from} → ${c.to}`, "", ...behaviourMarkdown(c));
  }
  return lines.join("\n") + "\n";
}

/** How many markdown lines of changed queries a change lists (timeline.json and timeline.html have them all). */
export const MARKDOWN_QUERIES = 10;

function behaviourMarkdown(c: Change): string[] {
  const b = c.behaviour;
  if (!b) return [`Behaviour not compared: ${c.note ?? "no lifted module"}.`];
  if (b.changed.length === 0) return [`No query changed (0 of ${b.queries}).`];
  const results = (xs: Array<{ name: string; score: number | null }>) => (xs.length ? xs.map((x) => (x.score === null ? code(x.name) : `${code(x.name)} ${x.score}`)).join(", ") : "(none)");
  const out = [`${b.changed.length} of ${b.queries} queries changed:`, ""];
  for (const q of b.changed.slice(0, MARKDOWN_QUERIES)) out.push(`- ${code(q.query)}: ${results(q.before)} → ${results(q.after)}`);
  if (b.changed.length > MARKDOWN_QUERIES) out.push(`- … and ${b.changed.length - MARKDOWN_QUERIES} more`);
  return out;
}

/** A Markdown code span that survives backticks in the text. */
function code(s: string): string {
  let longest = 0;
  for (const m of s.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const ticks = "`".repeat(longest + 1);
  const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
  return `${ticks}${pad}${s}${pad}${ticks}`;
}
