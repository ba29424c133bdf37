/**
 * The options every command taking <input> has for inputs given as versions (`2.1.300`, `latest`, a range):
 * which platform's build and which release cache, as `searchlift fetch`. Resolution itself is
 * src/inputs/resolve-input.ts; its progress goes to stderr, so stdout stays the command's (and --json's) own.
 */
import type { Command } from "commander";
import { existsSync, lstatSync } from "node:fs";
import { ExitCode, SearchliftError } from "../errors.js";
import type { ResolveOptions } from "../inputs/resolve-input.js";
import { messageLine } from "../safe-text.js";

export interface InputFlags {
  platform?: string;
  cache?: string;
  /** track's name for the release cache (its --cache is the lift cache). */
  releaseCache?: string;
}

const PLATFORM_HELP = "for an input given as a version: npm (cli.js, up to 2.1.112) or linux-x64, darwin-arm64, …; default: as fetch";
const CACHE_HELP = "release cache for inputs given as versions (default ~/.cache/searchlift/releases)";

/** The commands taking <input>, and the name of their release-cache option (track's --cache is its lift cache). */
const INPUT_COMMANDS: Record<string, string> = {
  extract: "--cache <dir>",
  locate: "--cache <dir>",
  lift: "--cache <dir>",
  diff: "--cache <dir>",
  track: "--release-cache <dir>",
};

/** Adds --platform and the release-cache option to every command that takes <input>. */
export function addInputOptions(program: Command): void {
  for (const cmd of program.commands) {
    const cacheFlag = INPUT_COMMANDS[cmd.name()];
    if (cacheFlag) cmd.option("--platform <p>", PLATFORM_HELP).option(cacheFlag, CACHE_HELP);
  }
}

/** What resolving says (which file a version became, a download starting): a `searchlift:` line on stderr by default. */
export type Say = (line: string) => void;

const stderrLine: Say = (line) => process.stderr.write(`searchlift: ${messageLine(line)}\n`);

export function resolution(command: string, flags: InputFlags, more: Partial<ResolveOptions> = {}, say: Say = stderrLine): ResolveOptions {
  const cache = flags.releaseCache ?? flags.cache;
  return {
    command,
    ...(flags.platform ? { platform: flags.platform } : {}),
    ...(cache ? { cache } : {}),
    log: say,
    ...more,
  };
}

/** The file one <input> stands for. */
export async function resolveCliInput(arg: string, command: string, flags: InputFlags, say?: Say): Promise<string> {
  // The common case, without loading fetch: a path that exists is the input.
  if (existsSync(arg)) return arg;
  const { resolveInput } = await import("../inputs/resolve-input.js");
  return present(await resolveInput(arg, resolution(command, flags, {}, say)));
}

/** The files several inputs stand for: ranges each of their releases (and for track, folders each release in them). */
export async function resolveCliInputs(args: string[], command: string, flags: InputFlags, folders = false, say?: Say): Promise<string[]> {
  const { resolveInputs } = await import("../inputs/resolve-input.js");
  return (await resolveInputs(args, resolution(command, flags, { ranges: true, folders }, say))).map(present);
}

/**
 * An input that is neither on disk nor a version is refused here, in the same words whichever command was given
 * it (as check's releases), before any work. A link to nothing is a path the user named: the command says what
 * is wrong with it.
 */
function present(file: string): string {
  if (!existsSync(file) && !lstatSync(file, { throwIfNoEntry: false })) throw new SearchliftError(MISSING_INPUT, ExitCode.unreadable, file);
  return file;
}

export const MISSING_INPUT = "no such file or folder, and not a version";
