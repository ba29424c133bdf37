/**
 * `searchlift diff`: what changed in the tool search between two inputs — code, weights and features, behaviour.
 */
import type { Command } from "commander";
import { resolveCliInput, type InputFlags } from "./input-options.js";
import { messageLine } from "../safe-text.js";
import { printJson } from "./output.js";
import { cliProgress } from "./progress.js";
import { cliRoutinePack } from "./routine.js";

export function registerDiff(program: Command): void {
  program
    .command("diff")
    .description("what changed in the tool search between two inputs: code, weights and features, behaviour on a built-in corpus")
    .argument("<a>", "before: executable, npm package, script, a version (2.1.111), or a lifted tool-search.mjs")
    .argument("<b>", "after: the same kinds")
    .option("-o, --out <dir>", "keep the lifted modules under DIR/a and DIR/b (default: a temporary folder, removed)")
    .option("--json", "print one JSON object")
    .option("-q, --quiet", "no progress lines on stderr (notes, warnings and errors still)")
    .action(async (argA: string, argB: string, opts: InputFlags & { out?: string; json?: boolean; quiet?: boolean }) => {
      const [{ diff }, { formatDiff }, { checkOutput }] = await Promise.all([
        import("../api/diff.js"),
        import("../diff/diff.js"),
        import("../output-folder.js"),
      ]);
      // --out first: nothing is fetched or lifted for an output that would be refused.
      if (opts.out) checkOutput(opts.out, "diff");
      const progress = cliProgress({ quiet: !!opts.quiet });
      const say = (line: string) => progress.note(`searchlift: ${messageLine(line)}`);
      const [a, b] = [await resolveCliInput(argA, "diff", opts, say), await resolveCliInput(argB, "diff", opts, say)];
      let r;
      try {
        r = await diff(a, b, {
          pack: await cliRoutinePack(),
          ...(opts.out ? { out: opts.out } : {}),
          onProgress: progress.onProgress,
        });
      } finally {
        progress.end();
      }
      if (opts.json) printJson(r);
      else process.stdout.write(formatDiff(r));
    });
}
