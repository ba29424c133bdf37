/**
 * The three names of a release — client, version, platform — and how versions compare. Each name becomes a
 * folder name (<out>/<client>/<version>/<platform>/, the release cache, the lift cache, track's and history's
 * records), so each has one strict form, checked here and nowhere else. Precedence is the `semver` package's,
 * so every ordering in searchlift agrees with npm's.
 */
import semver from "semver";
import { ExitCode, SearchliftError } from "./errors.js";

/** An npm package name without its scope; `.` and `..` cannot match (the first character is alphanumeric). */
const CLIENT = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** A semver version as npm writes it, bounded so that it stays a short folder name. */
const VERSION = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?(?:\+[0-9A-Za-z.-]{1,64})?$/;
const OSES = ["linux", "darwin", "win32"];
/** Node's process.arch values a client may be built for, plus `unknown` for a machine type we do not name. */
const ARCHES = ["x64", "arm64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "unknown"];

/** Every platform name: `<os>-<arch>` (linux also `-musl`), `npm` for a plain script, `unknown`. */
export const PLATFORMS: ReadonlySet<string> = new Set([
  "npm",
  "unknown",
  ...OSES.flatMap((os) => ARCHES.flatMap((arch) => (os === "linux" ? [`${os}-${arch}`, `${os}-${arch}-musl`] : [`${os}-${arch}`]))),
]);

/** The version of an input that does not say which it is (release-info.ts); a folder name like any other. */
export const UNKNOWN_VERSION = "unknown";

export const isClientName = (s: string): boolean => CLIENT.test(s);
export const isPlatform = (s: string): boolean => PLATFORMS.has(s);

/** A version exactly as npm writes it (`2.1.112`, `1.0.0-beta.1`, `1.0.0+build.5`): no `v`, no spaces. */
export function isVersion(s: string): boolean {
  return VERSION.test(s) && semver.valid(s) !== null;
}

/** A version, or the `unknown` an input without one is named by: what a lift's release may carry. */
export function isVersionOrUnknown(s: string): boolean {
  return isVersion(s) || s === UNKNOWN_VERSION;
}

/** Whether text a person typed reads as one version (`2.1.112`, `v2.1.112`, ` 2.1.112 `); normalizeVersion gives its form. */
export function readsAsVersion(s: string): boolean {
  return semver.valid(s.trim()) !== null;
}

/** The version without a leading `v` or build metadata: how the registry names it. */
export function normalizeVersion(s: string): string {
  const v = semver.parse(s.trim());
  if (!v) throw new SearchliftError(`not a version: ${s}`, ExitCode.usage);
  return v.version;
}

/** Semver precedence: negative when a < b. Unparsable strings sort first, among themselves by text. */
export function compareVersions(a: string, b: string): number {
  const x = semver.valid(a);
  const y = semver.valid(b);
  if (!x || !y) return x ? 1 : y ? -1 : a < b ? -1 : a > b ? 1 : 0;
  return semver.compare(x, y);
}
