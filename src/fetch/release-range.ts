/**
 * The version arguments of `searchlift fetch`: an exact version, a dist-tag (`latest`), a hyphen range
 * (`2.1.100-2.1.112`, both ends included), or a semver comparator set (`>=2.1.100 <2.1.113`, `||` for
 * alternatives, `*` for all). Matching is the `semver` package's, as is precedence (release-names.ts); ranges
 * never match prereleases (none are published).
 */
import semver from "semver";
import { ExitCode, SearchliftError } from "../errors.js";
import { compareVersions, normalizeVersion, readsAsVersion } from "../release-names.js";

/** What a fetch argument asks for. */
export type ReleaseSpec =
  { kind: "exact"; version: string } | { kind: "tag"; tag: string } | { kind: "range"; text: string; range: string };

/** Parse `latest`, `2.1.112`, `2.1.100-2.1.112`, `>=2.1.100 <2.1.113`, `2.0.70 || >=2.1.110`, `*`. */
export function parseReleaseSpec(text: string): ReleaseSpec {
  const s = text.trim();
  if (!s) throw new SearchliftError("empty version", ExitCode.usage);
  // `2.1.100-2.1.112` reads as a prerelease to semver; here it is a range, as fetch's help says.
  if (readsAsVersion(s) && !HYPHEN.test(s)) return { kind: "exact", version: normalizeVersion(s) };
  if (/^[A-Za-z][\w.-]*$/.test(s) && !/^v\d/.test(s) && s !== "x") return { kind: "tag", tag: s };
  return {
    kind: "range",
    text: s,
    range: s
      .split("||")
      .map((alt) => comparatorSet(alt.trim(), text))
      .join(" || "),
  };
}

const HYPHEN = /^(v?\d+\.\d+\.\d+)\s*-\s*(v?\d+\.\d+\.\d+)$/;

function comparatorSet(alt: string, whole: string): string {
  const bad = (why: string) =>
    new SearchliftError(
      `bad version range "${whole}": ${why} (use latest, 2.1.112, 2.1.100-2.1.112 or ">=2.1.100 <2.1.113")`,
      ExitCode.usage,
    );
  const hyphen = HYPHEN.exec(alt);
  if (hyphen) {
    const [lo, hi] = [normalizeVersion(hyphen[1]!), normalizeVersion(hyphen[2]!)];
    if (compareVersions(lo, hi) > 0) throw bad(`${lo} is after ${hi}`);
    return `>=${lo} <=${hi}`;
  }
  if (alt === "" || alt === "x") return "*";
  const range = semver.validRange(alt);
  if (range === null) throw bad(`"${alt}" is not a comparator set`);
  return range;
}

/** Whether `version` is in the range (prereleases never are). */
export function satisfies(version: string, spec: Extract<ReleaseSpec, { kind: "range" }>): boolean {
  return semver.valid(version) !== null && semver.satisfies(version, spec.range);
}
