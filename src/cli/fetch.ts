/**
 * `searchlift fetch`: Claude Code releases from the npm registry, checked against its integrity and cached.
 */
import type { Command } from "commander";
import { ExitCode, SearchliftError } from "../errors.js";
import { messageLine, terminalSafe as safe } from "../safe-text.js";
import { printJson } from "./output.js";
import { cliProgress } from "./progress.js";

/** What to do with a fetched tarball. */
const RUNNABLE =
  "A fetched .tgz is an input as it is: lift, diff, track and check take it. To run the release, " +
  "`tar -xzf FILE` gives package/: package/cli.js (node package/cli.js) up to 2.1.112, the executable " +
  "package/claude (claude.exe on Windows) after.";

export function registerFetch(program: Command): void {
  program
    .command("fetch")
    .description("download Claude Code releases with your npm (its registry, proxy and auth), verify their integrity and cache them")
    .argument("[spec]", 'latest, a version (2.1.112), or a range (2.1.100-2.1.112, ">=2.1.100 <2.1.113")')
    .option(
      "--platform <p>",
      "npm (the cli.js package, up to 2.1.112) or linux-x64, darwin-arm64, …; default: npm up to 2.1.112, this host's after",
    )
    .option("--cache <dir>", "release cache (default ~/.cache/searchlift/releases)")
    .option("--list", "list which versions exist for which platform (those in [spec], if given)")
    .option("--dry-run", "resolve and look in the cache, but download nothing")
    .option("--json", "print one JSON object")
    .option("-q, --quiet", "no progress lines on stderr (warnings and errors still)")
    .addHelpText("after", `\n${RUNNABLE}\n`)
    .action(
      async (
        spec: string | undefined,
        opts: { platform?: string; cache?: string; list?: boolean; dryRun?: boolean; json?: boolean; quiet?: boolean },
      ) => {
        const [{ fetch }, { listReleases, formatListing }] = await Promise.all([import("../api/fetch.js"), import("../fetch/fetch.js")]);
        if (opts.list) {
          const l = await listReleases({ ...(opts.platform ? { platform: opts.platform } : {}), ...(spec ? { spec } : {}) });
          // An empty table for a spec is an answer nobody can act on: no such release, as fetching it says.
          if (spec && l.versions.length === 0)
            throw new SearchliftError(
              `no release matches ${spec}${opts.platform ? ` for ${opts.platform}` : ""} (searchlift fetch --list shows every version)`,
              ExitCode.notPublished,
            );
          if (opts.json) printJson(l);
          else process.stdout.write(formatListing(l));
          return;
        }
        if (!spec) throw new SearchliftError("fetch needs latest, a version or a range (or --list)", ExitCode.usage);
        const progress = cliProgress({ quiet: !!opts.quiet });
        let r;
        try {
          r = await fetch(spec, {
            ...(opts.platform ? { platform: opts.platform } : {}),
            ...(opts.cache ? { cache: opts.cache } : {}),
            dryRun: !!opts.dryRun,
            onProgress: progress.onProgress,
            ...(opts.json ? {} : { warn: (m: string) => progress.note(`searchlift: ${messageLine(m)}`) }),
          });
        } finally {
          progress.end();
        }
        const releases = r.releases.map((x) => ({
          version: x.version,
          platform: x.platform,
          package: x.package,
          tarball: x.tarball,
          integrity: x.integrity,
          ...(x.sha256 ? { sha256: x.sha256 } : {}),
          cached: x.cached,
        }));
        if (opts.json) printJson({ releases, ...(r.skipped.length ? { skipped: r.skipped } : {}) });
        else {
          for (const x of releases)
            process.stdout.write(
              `${safe(x.version)} ${x.platform} ${safe(x.tarball)}${x.cached ? " (cached)" : opts.dryRun ? " (not fetched: --dry-run)" : ""}\n`,
            );
          // Said to a person at a terminal; a log or a script has it in --help.
          if (releases.length > 0 && !opts.dryRun && process.stderr.isTTY) progress.note(`note: ${RUNNABLE}`);
        }
      },
    );
}
