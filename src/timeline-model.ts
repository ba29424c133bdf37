/**
 * A timeline's shape (releases, groups of one routine, change points) and the pure reads of it that track,
 * history and the report share. It sits below them all: track writes the report, and the report reads this.
 */
import type { Behaviour } from "./diff/behaviour.js";
import type { CodeSummary } from "./diff/code-summary.js";
import type { SemanticRow } from "./routines/pack.js";
import { outcomeCounts } from "./verify/shared-verification.js";

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

export interface Timeline {
  releases: Release[];
  groups: Group[];
  /** One per change point (groups.length - 1), in order; written by track. */
  changes?: Change[];
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

/** The day the registry published `version` (the first of its releases that says), or null. */
export function publishedDay(t: Timeline, version: string): string | null {
  const known = t.releases.find((r) => r.version === version && r.published);
  return known ? known.published!.slice(0, 10) : null;
}
