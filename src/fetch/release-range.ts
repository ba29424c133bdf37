/**
 * Versions and the range syntax of `searchlift fetch`: an exact version, a dist-tag (`latest`), a hyphen range
 * (`2.1.100-2.1.112`, both ends included), or a semver-style comparator set (`>=2.1.100 <2.1.113`, `||` for
 * alternatives, `*` for all). The `semver` package is not a dependency, so this is a small dotted-number
 * comparison with semver's precedence for prereleases; ranges never match prereleases (none are published).
 */
import { ExitCode, SearchliftError } from "../errors.js";

export interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
}

const VERSION = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(s: string): Version | null {
  const m = VERSION.exec(s.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ? m[4].split(".") : [] };
}

export function isVersion(s: string): boolean {
  return parseVersion(s) !== null;
}

/** The version without a leading `v` or build metadata: how the registry names it. */
export function normalizeVersion(s: string): string {
  const v = parseVersion(s);
  if (!v) throw new SearchliftError(`not a version: ${s}`, ExitCode.usage);
  return `${v.major}.${v.minor}.${v.patch}${v.prerelease.length ? "-" + v.prerelease.join(".") : ""}`;
}

/** Semver precedence: negative when a < b. Unparsable strings sort first. */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return x ? 1 : y ? -1 : 0;
  const d = x.major - y.major || x.minor - y.minor || x.patch - y.patch;
  if (d) return Math.sign(d);
  // A release sorts after its prereleases.
  if (!x.prerelease.length || !y.prerelease.length) return x.prerelease.length === y.prerelease.length ? 0 : x.prerelease.length ? -1 : 1;
  for (let i = 0; i < Math.max(x.prerelease.length, y.prerelease.length); i++) {
    const p = x.prerelease[i];
    const q = y.prerelease[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) {
      const c = Number(p) - Number(q);
      if (c) return Math.sign(c);
    } else if (pn !== qn) return pn ? -1 : 1;
    else if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

type Op = "<" | "<=" | ">" | ">=" | "=";
interface Comparator {
  op: Op;
  version: string;
}

/** What a fetch argument asks for. */
export type ReleaseSpec =
  | { kind: "exact"; version: string }
  | { kind: "tag"; tag: string }
  | { kind: "range"; text: string; sets: Comparator[][] };

/** Parse `latest`, `2.1.112`, `2.1.100-2.1.112`, `>=2.1.100 <2.1.113`, `2.0.70 || >=2.1.110`, `*`. */
export function parseReleaseSpec(text: string): ReleaseSpec {
  const s = text.trim();
  if (!s) throw new SearchliftError("empty version", ExitCode.usage);
  if (isVersion(s) && !/^\d+\.\d+\.\d+-\d+\.\d+\.\d+$/.test(s)) return { kind: "exact", version: normalizeVersion(s) };
  if (/^[A-Za-z][\w.-]*$/.test(s) && !/^v\d/.test(s) && s !== "x") return { kind: "tag", tag: s };
  const sets = s.split("||").map((alt) => parseComparatorSet(alt.trim(), text));
  return { kind: "range", text: s, sets };
}

function parseComparatorSet(alt: string, whole: string): Comparator[] {
  const bad = (why: string) =>
    new SearchliftError(`bad version range "${whole}": ${why} (use latest, 2.1.112, 2.1.100-2.1.112 or ">=2.1.100 <2.1.113")`, ExitCode.usage);
  if (alt === "*" || alt === "" || alt === "x") return [];
  const hyphen = /^(v?\d+\.\d+\.\d+)\s*-\s*(v?\d+\.\d+\.\d+)$/.exec(alt);
  if (hyphen) {
    const [lo, hi] = [normalizeVersion(hyphen[1]!), normalizeVersion(hyphen[2]!)];
    if (compareVersions(lo, hi) > 0) throw bad(`${lo} is after ${hi}`);
    return [
      { op: ">=", version: lo },
      { op: "<=", version: hi },
    ];
  }
  const out: Comparator[] = [];
  // Operators may be followed by spaces (">= 2.1.100").
  for (const m of alt.replace(/(<=|>=|<|>|=)\s+/g, "$1").split(/\s+/)) {
    const c = /^(<=|>=|<|>|=)?(.+)$/.exec(m)!;
    const version = c[2]!;
    if (!isVersion(version)) throw bad(`"${m}" is not a comparator`);
    out.push({ op: (c[1] ?? "=") as Op, version: normalizeVersion(version) });
  }
  return out;
}

/** Whether `version` is in the range (prereleases never are). */
export function satisfies(version: string, spec: Extract<ReleaseSpec, { kind: "range" }>): boolean {
  const v = parseVersion(version);
  if (!v || v.prerelease.length) return false;
  return spec.sets.some((set) =>
    set.every(({ op, version: w }) => {
      const c = compareVersions(version, w);
      return op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : op === ">=" ? c >= 0 : c === 0;
    }),
  );
}
