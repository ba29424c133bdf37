/**
 * `searchlift history [RANGE]`: every release of the tool search's history fetched, lifted, verified and
 * explained into a timeline folder and its changelog, in bounded disk (src/history/history.ts).
 */
import type { Command } from "commander";
import { ExitCode } from "../errors.js";
import { messageLine, terminalSafe as safe } from "../safe-text.js";
import { positiveInteger, positiveSeconds } from "./options.js";
import { printJson } from "./output.js";
import { cliProgress } from "./progress.js";
import { cliRoutinePack } from "./routine.js";

interface HistoryFlags {
  out: string;
  platform?: string;
  cache?: string;
  releaseCache?: string;
  jobs?: number;
  window?: number;
  verify: boolean;
  keep?: boolean;
  cached?: boolean;
  changelog?: string;
  json?: boolean;
  quiet?: boolean;
  verifyTimeout?: number;
}

export function registerHistory(program: Command): void {
  program
    .command("history")
    .description("the tool search's whole history: every release fetched, lifted, verified and explained, with a changelog")
    .argument(
      "[range]",
      'versions as track reads them (2.1.100-2.1.112, ">=2.1.300", a version, latest); default: every release from 2.0.70',
    )
    .option("-o, --out <dir>", "the timeline folder (timeline.json, .md, .html, changelog.md, modules/)", "./history")
    .option("--platform <p>", "the native build taken after 2.1.112 (default: this host's)")
    .option("--cache <dir>", "lift cache, shared with track (default ~/.cache/searchlift/track)")
    .option("--release-cache <dir>", "where releases are downloaded (default ~/.cache/searchlift/releases)")
    .option("--jobs <n>", "lifts at once (default: one per core)", positiveInteger)
    .option("--window <n>", "releases downloaded ahead of the lifts at most (default 3)", positiveInteger)
    .option("--no-verify", "do not verify each lift against its release")
    .option("--keep", "keep the tarballs this run downloads (default: each is deleted once its lift is recorded)")
    .option("--cached", "offline: only the releases the release cache holds; nothing is asked of the registry")
    .option("--changelog <file>", "also write the changelog to FILE (docs/tool-search-changelog.md)")
    .option("--json", "print the run's summary as JSON")
    .option("-q, --quiet", "no progress lines on stderr (notes, warnings and errors still)")
    .option("--verify-timeout <seconds>", "time budget for verifying each lift (default 300)", positiveSeconds)
    .action(async (range: string | undefined, opts: HistoryFlags) => {
      const { checkOutput } = await import("../output-folder.js");
      // --out first: nothing is fetched or lifted for an output that would be refused.
      checkOutput(opts.out, "track");
      const { history } = await import("../api/history.js");
      const progress = cliProgress({ quiet: !!opts.quiet });
      const r = await history({
        pack: await cliRoutinePack(),
        out: opts.out,
        verify: opts.verify,
        command: [
          "searchlift history",
          ...(range ? [JSON.stringify(range)] : []),
          ...(opts.platform ? ["--platform", opts.platform] : []),
          ...(opts.changelog ? ["--changelog", opts.changelog] : []),
        ].join(" "),
        ...(range ? { range } : {}),
        ...(opts.platform ? { platform: opts.platform } : {}),
        ...(opts.cache ? { cache: opts.cache } : {}),
        ...(opts.releaseCache ? { releaseCache: opts.releaseCache } : {}),
        ...(opts.jobs ? { jobs: opts.jobs } : {}),
        ...(opts.window ? { window: opts.window } : {}),
        ...(opts.keep ? { keep: true } : {}),
        ...(opts.cached ? { cached: true } : {}),
        ...(opts.changelog ? { changelog: opts.changelog } : {}),
        ...(opts.verifyTimeout ? { verifyTimeoutS: opts.verifyTimeout } : {}),
        onProgress: progress.onProgress,
      }).finally(() => progress.end());
      const t = r.timeline;
      const lifted = t.releases.length - r.failed.length;
      if (opts.json)
        printJson({
          releases: t.releases.length,
          lifted,
          liftedNow: r.lifted,
          recorded: r.recorded,
          downloaded: r.downloaded,
          deleted: r.deleted,
          peakBytes: r.peakBytes,
          groups: t.groups.length,
          changes: t.changes?.length ?? 0,
          skipped: r.skipped,
          failed: r.failed.map((f) => ({ version: f.version, platform: f.platform, error: f.error })),
          seconds: r.times,
          files: r.files,
        });
      else {
        process.stdout.write(
          `${t.releases.length} releases (${r.lifted} lifted now, ${r.recorded} recorded before${r.failed.length ? `, ${r.failed.length} not lifted` : ""}), ${t.groups.length} groups, ${t.changes?.length ?? 0} change points\n`,
        );
        if (r.downloaded)
          process.stdout.write(
            `downloaded ${r.downloaded}, deleted ${r.deleted} after lifting (at most ${(r.peakBytes / 1e6).toFixed(0)} MB at once)\n`,
          );
        process.stdout.write(`wrote ${safe(r.files.changelog)} and the timeline beside it\n`);
      }
      if (r.skipped.length)
        process.stderr.write(
          `searchlift: ${r.skipped.length} version${r.skipped.length === 1 ? "" : "s"} skipped: ${r.skipped.map((s) => `${safe(s.version)} (${messageLine(s.reason)})`).join(", ")}\n`,
        );
      if (r.kept)
        process.stderr.write(
          `searchlift: ${safe(r.kept.out)} holds a timeline with ${r.kept.lifted} releases lifted, more than this run's ${lifted}: it is left as it was, and this run's timeline is in ${safe(r.kept.dir)}\n`,
        );
      if (r.failed.length) {
        process.stderr.write(
          `searchlift: ${r.failed.length} of ${t.releases.length} releases not lifted: ${r.failed.map((f) => `${safe(f.version)} (${messageLine(f.error ?? "?")})`).join(", ")}\n`,
        );
        process.exitCode = ExitCode.trackIncomplete;
      }
    });
}
