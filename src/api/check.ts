/**
 * Library `check`: will Claude Code find an MCP server's tools? Ranks them with lifted modules (see `lift`).
 */
import { runCheck, type CheckInput, type CheckResult } from "../check/check.js";
import type { ProgressOptions } from "./progress.js";

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

export async function check(input: CheckInput, options: ProgressOptions = {}): Promise<CheckResult> {
  const n = input.modules.length;
  options.onProgress?.({
    stage: "check",
    message: `ranking ${input.tools.length} tools on ${input.queries.length} queries with ${n} release${n === 1 ? "" : "s"}`,
    done: 0,
    total: n,
  });
  const r = await runCheck(input);
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
