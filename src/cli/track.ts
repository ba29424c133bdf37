/**
 * `searchlift track`: lift every release of a set and write the tool search's timeline.
 */
import type { Command } from "commander";
import { statSync } from "node:fs";
import { ExitCode, SearchliftError } from "../errors.js";
import { messageLine, terminalSafe as safe } from "../safe-text.js";
import { resolveCliInputs, type InputFlags } from "./input-options.js";
import { positiveInteger, positiveSeconds } from "./options.js";
import { printJson } from "./output.js";
import { cliProgress } from "./progress.js";
import { cliRoutinePack } from "./routine.js";

export function registerTrack(program: Command): void {
  program
    .command("track")
    .description("lift every release of a set and write the tool search's timeline (default: ~/.local/share/claude/versions)")
    .argument("[inputs...]", "a folder of releases (a versions folder, fetch's cache), release files / packages, versions or ranges")
    .option("-o, --out <dir>", "where timeline.json, timeline.md and timeline.html go", "./timeline")
    .option("--cache <dir>", "lift cache (default ~/.cache/searchlift/track)")
    .option("--jobs <n>", "lifts at once (default: one per core)", positiveInteger)
    .option("--no-verify", "do not verify each lift against its release")
    .option("--json", "print timeline.json instead of a summary")
    .option("--verify-timeout <seconds>", "time budget for verifying each lift (default 300)", positiveSeconds)
    .option("-q, --quiet", "no progress lines on stderr (notes, warnings and errors still)")
    .action(
      async (
        args: string[],
        opts: InputFlags & {
          out: string;
          cache?: string;
          jobs?: number;
          verify: boolean;
          json?: boolean;
          verifyTimeout?: number;
          quiet?: boolean;
        },
      ) => {
        const [{ defaultInputs, track }, { checkOutput }] = await Promise.all([import("../api/track.js"), import("../output-folder.js")]);
        // --out first: nothing is fetched or lifted for an output that would be refused.
        checkOutput(opts.out, "track");
        const progress = cliProgress({ quiet: !!opts.quiet });
        let inputs: string[];
        let note: string | undefined;
        let searched: string | undefined;
        if (args.length === 0) ({ inputs, note, searched } = await defaultInputs());
        else {
          const say = (line: string) => progress.note(`searchlift: ${messageLine(line)}`);
          inputs = await resolveCliInputs(args, "track", { ...opts, cache: undefined }, true, say);
          searched = args.join(", ");
          // A folder stands for the releases in it: how many were found there.
          if (args.length === 1 && inputs.length > 1 && statSync(args[0]!, { throwIfNoEntry: false })?.isDirectory())
            say(`${args[0]}: ${inputs.length} release${inputs.length === 1 ? "" : "s"}`);
        }
        if (note) progress.note(`note: ${messageLine(note)}`);
        if (inputs.length === 0)
          throw new SearchliftError(`no releases to track: none found in ${searched ?? "the inputs given"}`, ExitCode.usage);
        const total = inputs.length;
        progress.onProgress({
          stage: "track",
          message: `${total} release${total === 1 ? "" : "s"} to lift or read from the lift cache`,
          done: 0,
          total,
        });
        const r = await track(inputs, {
          pack: await cliRoutinePack(),
          out: opts.out,
          verify: opts.verify,
          ...(opts.cache ? { cache: opts.cache } : {}),
          ...(opts.jobs ? { jobs: opts.jobs } : {}),
          ...(opts.verifyTimeout ? { verifyTimeoutS: opts.verifyTimeout } : {}),
          onProgress: progress.onProgress,
        });
        progress.end();
        if (opts.json) printJson(r.timeline);
        else {
          const n = r.timeline.releases.length;
          const counts = [
            `${r.lifted} lifted now`,
            `${r.fromCache} from the cache`,
            ...(r.failed.length ? [`${r.failed.length} not lifted`] : []),
          ];
          const g = r.timeline.groups.length;
          process.stdout.write(`${n} release${n === 1 ? "" : "s"} (${counts.join(", ")}), ${g} group${g === 1 ? "" : "s"}:\n`);
          for (const g of r.timeline.groups)
            process.stdout.write(
              `  ${safe(g.first === g.last ? g.first : `${g.first} – ${g.last}`)}: ${g.routineHash ? g.routineHash.slice(0, 12) : `not lifted (${messageLine(g.error ?? "?")})`}\n`,
            );
          process.stdout.write(`wrote ${safe(r.files.json)}, ${safe(r.files.markdown)} and ${safe(r.files.html)}\n`);
        }
        if (r.kept)
          process.stderr.write(
            `searchlift: ${safe(r.kept.out)} holds a timeline with ${r.kept.lifted} releases lifted, more than this run's ${liftedCount(r)}: it is left as it was, and this run's timeline is in ${safe(r.kept.dir)}\n`,
          );
        if (r.failed.length) {
          const which = r.failed.map((f) => `${safe(f.version)} (${safe(f.input)})`).join(", ");
          process.stderr.write(`searchlift: ${r.failed.length} of ${r.timeline.releases.length} releases not lifted: ${which}\n`);
          process.exitCode = ExitCode.trackIncomplete;
        }
      },
    );
}

/** How many releases a track run lifted (now or from the cache). */
function liftedCount(r: { timeline: { releases: unknown[] }; failed: unknown[] }): number {
  return r.timeline.releases.length - r.failed.length;
}
