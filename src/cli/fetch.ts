/**
 * `searchlift fetch`: Claude Code releases from the npm registry, checked against its integrity and cached.
 */
import type { Command } from "commander";
import { ExitCode, SearchliftError } from "../errors.js";
import { messageLine, terminalSafe as safe } from "../safe-text.js";
import { printJson } from "./output.js";
import type { ProgressEvent } from "../api/progress.js";

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
    .action(
      async (spec: string | undefined, opts: { platform?: string; cache?: string; list?: boolean; dryRun?: boolean; json?: boolean }) => {
        const [{ fetch }, { listReleases, formatListing }] = await Promise.all([import("../api/fetch.js"), import("../fetch/fetch.js")]);
        if (opts.list) {
          const l = await listReleases({ ...(opts.platform ? { platform: opts.platform } : {}), ...(spec ? { spec } : {}) });
          if (opts.json) printJson(l);
          else process.stdout.write(formatListing(l));
          return;
        }
        if (!spec) throw new SearchliftError("fetch needs latest, a version or a range (or --list)", ExitCode.usage);
        const tty = process.stderr.isTTY && !opts.json;
        const r = await fetch(spec, {
          ...(opts.platform ? { platform: opts.platform } : {}),
          ...(opts.cache ? { cache: opts.cache } : {}),
          dryRun: !!opts.dryRun,
          ...(tty ? { onProgress: (e: ProgressEvent) => process.stderr.write(`${messageLine(e.message)}\n`) } : {}),
          ...(opts.json ? {} : { warn: (m: string) => process.stderr.write(`searchlift: ${messageLine(m)}\n`) }),
        });
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
        else
          for (const x of releases)
            process.stdout.write(
              `${safe(x.version)} ${x.platform} ${safe(x.tarball)}${x.cached ? " (cached)" : opts.dryRun ? " (not fetched: --dry-run)" : ""}\n`,
            );
      },
    );
}
