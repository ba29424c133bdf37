/**
 * A timeline: releases in version order, and groups of consecutive releases whose lifted routine
 * is the same code. A change point is exactly where the routine's code changed; releases that
 * differ only in minified names have one routine hash and stay in one group.
 */
import { noDifferenceFound } from "../diff/behaviour.js";
import { summarySentence } from "../diff/code-summary.js";
import { compareVersions } from "../release-names.js";
import { markdownProse, markdownText as text } from "../safe-text.js";
import { publishedDay, verifiedCell, type Change, type Group, type Release, type Timeline } from "../timeline-model.js";

export { compareVersions };
// The shape and its reads live below track and the report (timeline-model.ts); re-exported for track's importers.
export { groupMembers, publishedDay, verifiedCell } from "../timeline-model.js";
export type { Change, Group, Release, Timeline } from "../timeline-model.js";

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

/** How many witness lines a change lists in markdown (timeline.json and timeline.html have them all). */
export const MARKDOWN_QUERIES = 10;

function behaviourMarkdown(c: Change): string[] {
  const b = c.behaviour;
  if (!b) return [`Behaviour not compared: ${text(c.note ?? "no lifted module")}.`];
  const out: string[] = [];
  // Without a witness the verdict comes first, whatever else is said (a field newly read is no difference).
  if (b.changed.length === 0) out.push(`${markdownProse(noDifferenceFound(b))}.`);
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
