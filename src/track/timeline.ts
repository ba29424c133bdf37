/**
 * A timeline: releases in version order, and groups of consecutive releases whose lifted routine
 * is the same code. A change point is exactly where the routine's code changed; releases that
 * differ only in minified names have one routine hash and stay in one group.
 */

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

export interface Timeline {
  releases: Release[];
  groups: Group[];
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

export function timelineMarkdown(t: Timeline): string {
  const lines = ["# Tool search timeline", "", `${t.releases.length} releases, ${t.groups.length} groups.`, "", "| releases | routine | signature | verified |", "|---|---|---|---|"];
  for (const g of t.groups) {
    const span = g.first === g.last ? g.first : `${g.first} – ${g.last} (${g.releases.length})`;
    const rel = t.releases.filter((r) => g.releases.includes(r.version));
    const verified = rel.every((r) => r.verified) ? rel.map((r) => `${r.verified!.agreed}/${r.verified!.cases}`).filter((v, i, a) => a.indexOf(v) === i).join(", ") : g.error ? "—" : "not verified";
    const cell = (v: string) => v.replace(/\|/g, "\\|");
    lines.push(`| ${span} | ${cell(g.routineHash ? g.routineHash.slice(0, 12) : `not lifted: ${g.error ?? "?"}`)} | ${cell(g.signature ?? "—")} | ${verified} |`);
  }
  return lines.join("\n") + "\n";
}
