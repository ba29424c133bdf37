/**
 * The searchlift command line: one file per command, each registering itself on the program. Every
 * user-caused failure exits with one line on stderr and a documented code (src/errors.ts). Each command
 * loads its own stage when it runs: start-up is part of every measured command.
 */
import { Command } from "commander";
import { VERSION } from "../version.js";
import { registerCheck } from "./check.js";
import { registerDiff } from "./diff.js";
import { registerExtract } from "./extract.js";
import { registerFetch } from "./fetch.js";
import { registerHistory } from "./history.js";
import { addInputOptions } from "./input-options.js";
import { registerLift } from "./lift.js";
import { registerLocate } from "./locate.js";
import { report } from "./output.js";
import { registerTrack } from "./track.js";
import { registerWhere } from "./where.js";

export function buildProgram(): Command {
  const program = new Command("searchlift")
    .description("Lift search routines out of packaged JavaScript clients")
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const register of [
    registerExtract,
    registerLocate,
    registerLift,
    registerTrack,
    registerHistory,
    registerFetch,
    registerDiff,
    registerCheck,
  ])
    register(program);
  addInputOptions(program);
  registerWhere(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // Set by `track` for its lifts: a lift (and its verifier) must not outlive a killed track.
  if (process.env.SEARCHLIFT_EXIT_WITH_PARENT === "1") (await import("../exit-with-parent.js")).exitWithParent();
  // A closed pipe (`searchlift … | head`) is not an error.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
  });
  try {
    await buildProgram().parseAsync(argv);
  } catch (e) {
    process.exitCode = report(e);
    // The command has failed: work still under way (check's other release being lifted) has nothing left to
    // give, so the process ends once what it wrote to stdout is out, not when that work ends. Its files are
    // written whole or not at all, and its verifier and sandboxes end with this process.
    process.stdout.write("", () => process.exit());
  }
}
