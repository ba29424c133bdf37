/**
 * Library `check`: will Claude Code find an MCP server's tools? Ranks them with lifted modules (see `lift`), or with
 * releases given as every command's inputs are: versions, `latest`, ranges, folders of releases, release files and
 * package folders, `installed` — each lifted and verified once into check's lift cache, as the CLI's `--releases`.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { runCheck, type CheckInput, type CheckResult } from "../check/check.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { resolveApiInputs, type InputOptions } from "./inputs.js";
import type { ProgressOptions } from "../progress.js";

export type { CheckInput, CheckResult };
/** --explain on missed tools and --suggest's measured edits (`explain` and `suggest` in CheckInput). */
export type { MissedItem } from "../check/check.js";
export type { MissedExplained, MissedTerm } from "../check/explain-missed.js";
export type { Edit, EditKind, ExpectationSuggestions, Suggestion } from "../check/suggest.js";
export type { ClientTool, ListedTool } from "../check/naming.js";
export type { Query } from "../check/queries.js";
export type { Expectation, ExpectationSpec, ExpectationResult, ExpectationOutcome } from "../check/expectations.js";
/** Expectations as the CLI reads them: `"QUERY=>TOOL@N"`, a YAML or JSON file, and resolved against the server's tools. */
export { parseExpect, readExpectationsFile, resolveExpectations } from "../check/expectations.js";
export type { Baseline, BaselineItem, BaselineCell, SavedCheck } from "../check/baseline.js";
/** A --baseline file: a saved check's JSON, or a tools file. */
export { readBaselineFile } from "../check/baseline.js";
/** A server's tool (as `tools/list` gives it) named as the client names it; the queries check makes up for tools. */
export { clientTool } from "../check/naming.js";
export { defaultQueries } from "../check/queries.js";

/** A check whose releases are named as inputs rather than given as lifted modules. */
export type CheckReleasesInput = Omit<CheckInput, "modules"> & {
  /**
   * As `--releases` takes them (versions, `latest`, `installed`, release files, package folders, lifted
   * tool-search.mjs files), and as `track` takes more: ranges (`2.1.110-2.1.112`) and folders of releases, each
   * release in them ranked on its own.
   */
  releases: string[];
};

export interface CheckOptions extends ProgressOptions, InputOptions {
  /** Where lifted releases are kept (default ~/.cache/searchlift/check, the CLI's --lift-cache). */
  liftCache?: string;
}

export async function check(given: CheckInput | CheckReleasesInput, options: CheckOptions = {}): Promise<CheckResult> {
  let input: CheckInput;
  if ("releases" in given) {
    const { releases, ...rest } = given;
    input = { ...rest, modules: await releaseModulesOf(releases, options) };
  } else input = given;
  const n = input.modules.length;
  options.onProgress?.({
    stage: "check",
    message: `ranking ${count(input.tools.length, "tool")} on ${count(input.queries.length, "query", "queries")} with ${count(n, "release")}`,
    done: 0,
    total: n,
  });
  const r = await runCheck(input, options.onProgress);
  options.onProgress?.({
    stage: "check",
    message:
      `${r.unfound.length} tool${r.unfound.length === 1 ? "" : "s"} unfound` +
      (r.expectations.length ? `, ${r.summary.expectations.met} of ${r.expectations.length} expectations met` : ""),
    done: n,
    total: n,
  });
  return r;
}

/** "1 query", "2 queries". */
function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The lifted module of each release `args` name. Ranges and folders of releases become their releases through the
 * library's resolver (inputs.ts, as for `track`); the rest go as they are to check's own (releases.ts), which reads a
 * release lifted before back without the registry.
 */
async function releaseModulesOf(args: string[], options: CheckOptions): Promise<string[]> {
  const [{ liftedModuleAt, releaseModules }, { readVersionSpec }] = await Promise.all([
    import("../check/releases.js"),
    import("../inputs/version-spec.js"),
  ]);
  const several = (arg: string) =>
    !liftedModuleAt(arg) &&
    (existsSync(arg) ? statSync(arg).isDirectory() && !existsSync(join(arg, "package.json")) : readVersionSpec(arg)?.kind === "range");
  const named: string[] = [];
  for (const arg of args)
    named.push(...(several(arg) ? await resolveApiInputs([arg], "check", options, { ranges: true, folders: true }) : [arg]));
  if (!named.length) throw new SearchliftError(`no release to check with in ${args.length ? args.join(", ") : "releases"}`, ExitCode.usage);
  return releaseModules(named, {
    log: (message) => options.onProgress?.({ stage: "check", message }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.releaseCache ? { cache: options.releaseCache } : {}),
    ...(options.liftCache ? { liftCache: options.liftCache } : {}),
  });
}
