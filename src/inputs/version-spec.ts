/**
 * Whether a command-line input that is not an existing path names a Claude Code release instead: `2.1.300`,
 * `claude-code@2.1.300`, `@anthropic-ai/claude-code@2.1.300`, `claude-code-linux-x64@2.1.300` (a platform's build),
 * `latest` (or any dist-tag after `claude-code@`), and ranges (`2.1.290-2.1.300`, `">=2.1.290 <2.1.300"`).
 *
 * Deliberately narrow for bare words: a mistyped file name must still say "cannot read input", so a bare
 * argument is a spec only when it is a version, `latest`, a hyphen range or a comparator set.
 */
import { NATIVE_PLATFORMS } from "../fetch/fetch.js";
import { parseReleaseSpec, type ReleaseSpec } from "../fetch/release-range.js";
import { readsAsVersion } from "../release-names.js";

export interface InputSpec {
  /** The argument as the user typed it. */
  text: string;
  /** What `fetchReleases` is given: the argument without its package prefix. */
  fetchSpec: string;
  kind: ReleaseSpec["kind"];
  /** The platform a `claude-code-<platform>@…` prefix names. */
  platform?: string;
}

const PREFIX = /^(?:@anthropic-ai\/)?claude-code(?:-([a-z0-9]+-[a-z0-9]+(?:-musl)?))?@(.+)$/s;
const HYPHEN_RANGE = /^v?\d+\.\d+\.\d+\s*-\s*v?\d+\.\d+\.\d+$/;
/** A comparator set: only version characters, operators and spaces, with an operator or `||` in it. */
const COMPARATORS = /^(?=.*(?:[<>=~^]|\|\|))[\sv\d.xX*<>=~^|]+$/;
const TAG = /^[A-Za-z][\w.-]*$/;

/** The release `arg` names, or null when it does not read as a version spec (then it is a path). */
export function readVersionSpec(arg: string): InputSpec | null {
  const prefixed = PREFIX.exec(arg.trim());
  const rest = (prefixed ? prefixed[2]! : arg).trim();
  const platform = prefixed?.[1];
  if (platform !== undefined && !(NATIVE_PLATFORMS as readonly string[]).includes(platform)) return null;
  if (!rest) return null;
  let kind: ReleaseSpec["kind"] | null = null;
  if (HYPHEN_RANGE.test(rest) || COMPARATORS.test(rest)) kind = "range";
  else if (readsAsVersion(rest)) kind = "exact";
  else if (rest === "latest" || (prefixed && TAG.test(rest))) kind = "tag";
  if (!kind) return null;
  // The same reading fetch gives it (a bad range is refused there, with fetch's message).
  if (kind !== "range" && parseReleaseSpec(rest).kind !== kind) return null;
  return { text: arg, fetchSpec: rest, kind, ...(platform ? { platform } : {}) };
}
