/**
 * The releases in a folder, for `track DIR`: a versions folder (`~/.local/share/claude/versions/<version>`, one
 * program file each), a folder of release files or package folders, or fetch's release cache
 * (`<cache>/<version>/<platform>/<tarball>.tgz` beside its `release.json`), or one version's folder of it.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_META } from "../fetch/release-cache.js";

/** How deep the cache layout nests tarballs under the folder given: `<version>/<platform>/`. */
const CACHE_DEPTH = 2;

/** Every release file or package folder in `dir`: its own entries, and the tarballs of a release-cache layout. */
export function listReleases(dir: string): string[] {
  return releasesIn(dir, 0);
}

function releasesIn(dir: string, depth: number): string[] {
  const out: string[] = [];
  // Natural order (2.1.9 before 2.1.10): releases next to each other are neighbours in version too.
  for (const name of readdirSync(dir).sort(naturalOrder)) {
    // Dot entries are fetch's and track's temporaries (.tmp-…), and the cache's record is not a release.
    if (name.startsWith(".") || name === RELEASE_META) continue;
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory() && !isPackageFolder(path)) {
      if (depth < CACHE_DEPTH) out.push(...releasesIn(path, depth + 1));
    } else if (depth === 0 || (st.isFile() && name.endsWith(".tgz"))) {
      // Below the top only tarballs: in the cache layout nothing else there is a release.
      out.push(path);
    }
  }
  return out;
}

function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true }) || (a < b ? -1 : a > b ? 1 : 0);
}

function isPackageFolder(dir: string): boolean {
  return statSync(join(dir, "package.json"), { throwIfNoEntry: false })?.isFile() ?? false;
}
