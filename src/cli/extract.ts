/**
 * `searchlift extract`: list a packaged client's JavaScript modules, or write them under a folder.
 */
import type { Command } from "commander";
import { resolve } from "node:path";
import { terminalSafe as safe } from "../safe-text.js";
import { resolveCliInput, type InputFlags } from "./input-options.js";

export function registerExtract(program: Command): void {
  program
    .command("extract")
    .description("list or write the JavaScript modules of a packaged client (Bun, Node SEA, npm package, script, or carved)")
    .argument("<input>", "executable, npm package folder or .tgz, script, or a version (2.1.112, claude-code@latest)")
    .option("--list", "list the modules (the default when --out is not given)")
    .option("--json", "print the listing as one JSON object")
    .option("-o, --out <dir>", "write every module under DIR by virtual path, plus manifest.json")
    .option("--force", "replace DIR if it holds an earlier extract (never a file, nor a folder searchlift did not write)")
    .action(async (arg: string, opts: InputFlags & { list?: boolean; json?: boolean; out?: string; force?: boolean }) => {
      // The stage is loaded when the command runs (start-up is part of every command's time); an executable
      // is listed without loading the JavaScript parser (see open-executable.ts).
      // --out is checked before any work (a version is not fetched for an output that would be refused).
      if (opts.out) {
        const [{ refuseUnsafeTarget }, { checkOutput }] = await Promise.all([
          import("../extract/write-modules.js"),
          import("../output-folder.js"),
        ]);
        refuseUnsafeTarget(resolve(opts.out), arg, opts.out);
        checkOutput(opts.out, "extract", !!opts.force);
      }
      const input = await resolveCliInput(arg, "extract", opts);
      const [{ openContainerLazily }, { containerListingText, listingJson }] = await Promise.all([
        import("../extract/open-executable.js"),
        import("../extract/listing.js"),
      ]);
      const c = await openContainerLazily(input);
      try {
        if (opts.out) {
          const { writeModules } = await import("../extract/write-modules.js");
          const { written, bytes } = await writeModules(c, opts.out, !!opts.force);
          if (!opts.list && !opts.json)
            process.stderr.write(`wrote ${written} modules (${bytes} bytes) and manifest.json to ${safe(opts.out)}\n`);
        }
        // Written a piece at a time, as stdout takes them: a listing of many modules is never one string.
        if (opts.json) await writePieces(listingJson(c), "\n");
        else if (opts.list || !opts.out) await writePieces(containerListingText(c), "");
      } finally {
        c.close();
      }
    });
}

/** Write the pieces to stdout, waiting for it to drain after each (a pipe read slowly holds one piece here). */
async function writePieces(pieces: Iterable<string>, end: string): Promise<void> {
  const out = process.stdout;
  for (const piece of pieces)
    if (!out.write(piece))
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off("drain", done);
          out.off("close", done);
          resolve();
        };
        out.on("drain", done);
        out.on("close", done);
      });
  if (end) out.write(end);
}
