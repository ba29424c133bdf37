/**
 * `searchlift diff`: what changed in the tool search between two inputs — code, weights and features, behaviour.
 */
import type { Command } from "commander";
import { resolveCliInput, type InputFlags } from "./input-options.js";
import { printJson, progressLine } from "./output.js";
import { cliRoutinePack } from "./routine.js";

export function registerDiff(program: Command): void {
  program
    .command("diff")
    .description("what changed in the tool search between two inputs: code, weights and features, behaviour on a built-in corpus")
    .argument("<a>", "before: executable, npm package, script, a version (2.1.111), or a lifted tool-search.mjs")
    .argument("<b>", "after: the same kinds")
    .option("-o, --out <dir>", "keep the lifted modules under DIR/a and DIR/b (default: a temporary folder, removed)")
    .option("--json", "print one JSON object")
    .action(async (argA: string, argB: string, opts: InputFlags & { out?: string; json?: boolean }) => {
      const [{ diff }, { formatDiff }, { checkOutput }] = await Promise.all([
        import("../api/diff.js"),
        import("../diff/diff.js"),
        import("../output-folder.js"),
      ]);
      // --out first: nothing is fetched or lifted for an output that would be refused.
      if (opts.out) checkOutput(opts.out, "diff");
      const [a, b] = [await resolveCliInput(argA, "diff", opts), await resolveCliInput(argB, "diff", opts)];
      const tty = process.stderr.isTTY && !opts.json;
      const r = await diff(a, b, {
        pack: await cliRoutinePack(),
        ...(opts.out ? { out: opts.out } : {}),
        ...(tty ? { onProgress: progressLine } : {}),
      });
      if (tty) process.stderr.write("\r\x1b[K");
      if (opts.json) printJson(r);
      else process.stdout.write(formatDiff(r));
    });
}
