import { Command, CommanderError } from "commander";
import { openContainer } from "./container/open-container.js";
import { formatListing, listing } from "./container/listing.js";
import { writeModules } from "./container/write-modules.js";
import { ExitCode, SearchliftError } from "./errors.js";
import { VERSION } from "./version.js";

/** The searchlift command line. Every user-caused failure exits with one line on stderr and a documented code. */
export function buildProgram(): Command {
  const program = new Command("searchlift")
    .description("Lift search routines out of packaged JavaScript clients")
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  program
    .command("extract")
    .description("list or write the JavaScript modules of a packaged client (Bun, Node SEA, npm package, script, or carved)")
    .argument("<input>", "executable, npm package folder or .tgz, or script")
    .option("--list", "list the modules (the default when --out is not given)")
    .option("--json", "print the listing as one JSON object")
    .option("-o, --out <dir>", "write every module under DIR by virtual path, plus manifest.json")
    .option("--force", "replace DIR if it exists")
    .action((input: string, opts: { list?: boolean; json?: boolean; out?: string; force?: boolean }) => {
      const c = openContainer(input);
      try {
        const l = listing(c);
        if (opts.out) {
          const { written, bytes } = writeModules(c, opts.out, !!opts.force);
          if (!opts.list && !opts.json) process.stderr.write(`wrote ${written} modules (${bytes} bytes) and manifest.json to ${opts.out}\n`);
        }
        if (opts.json) process.stdout.write(JSON.stringify(l, null, 2) + "\n");
        else if (opts.list || !opts.out) process.stdout.write(formatListing(l));
      } finally {
        c.close();
      }
    });

  return program;
}

export async function main(argv: string[]): Promise<void> {
  // A closed pipe (`searchlift … | head`) is not an error.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
  });
  try {
    await buildProgram().parseAsync(argv);
  } catch (e) {
    process.exitCode = report(e);
  }
}

function report(e: unknown): number {
  if (e instanceof CommanderError) {
    // Commander has already printed its message; help and version exit 0.
    return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (e instanceof SearchliftError) {
    process.stderr.write(`searchlift: ${e.file ? e.file + ": " : ""}${oneLine(e.message)}\n`);
    return e.exitCode;
  }
  const err = e as Error;
  process.stderr.write(`searchlift: internal error: ${oneLine(err?.message ?? String(e))}\n`);
  if (process.env.SEARCHLIFT_DEBUG) process.stderr.write(`${err?.stack}\n`);
  return ExitCode.internal;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, " ").trim();
}
