/**
 * Every failure a user can cause is a SearchliftError: the CLI prints its message on one line
 * and exits with its code. Anything else reaching the top level is a bug (exit 1).
 */
import { terminalSafe } from "./safe-text.js";

export const ExitCode = {
  ok: 0,
  internal: 1,
  usage: 2,
  /** The input does not exist or cannot be read. */
  unreadable: 3,
  /** The input was read but holds no JavaScript we can find (unknown format, empty, no JS). */
  unrecognized: 4,
  /** The input looks like a known container but its structure is broken (truncated, out-of-range, overlapping). */
  malformed: 5,
  /** The output location is refused (exists without --force) or cannot be written. */
  output: 6,
  /** locate: a requested routine is not in the input (a result, reported as "absent"). */
  absent: 7,
  /** locate: a routine matched in more than one place. */
  ambiguous: 8,
  /** lift: the routine cannot be lifted (not found, or code the stage cannot classify). */
  notLiftable: 9,
  /** lift: the lifted module disagrees with the original code on the corpus. */
  disagreement: 10,
  /** fetch: the version, or a build of it for the requested platform, is not published. */
  notPublished: 11,
  /** fetch: npm is missing or failed (registry unreachable, authentication, a bad response). */
  npmFailed: 12,
  /** fetch: a downloaded tarball's sha512 differs from the registry's dist.integrity. */
  integrity: 13,
  /** diff: a lifted module is refused by the static check, or in the sandbox throws when evaluated, lacks the
   *  contract's exports, or throws or times out when called. */
  brokenModule: 14,
  /**
   * lift, track: verification was stopped: it did not finish within its time budget (--verify-timeout),
   * or the original code timed out on call after call (a loop would hold the run for hours).
   */
  verifyTimeout: 15,
  /**
   * lift, track: verification proves nothing: fewer than 3/4 of the cases returned normally on both sides
   * (agreeing by both failing proves nothing), or a sandbox limit (memory, time, a crash) stopped the
   * original on some case.
   */
  inconclusive: 16,
  /** track: some inputs were not lifted (the timeline is still written; stderr says how many and which). */
  trackIncomplete: 17,
  /** check: the MCP server given with --server or --url failed to start or could not be reached, did not answer in time, or
   *  listed no tools; or a --tools catalog is empty. */
  serverFailed: 18,
  /** check --fail-on-unfound: some tool is returned by none of its own queries on some release; --fail-on-expect: some
   *  expectation is missed on some release (results). */
  unfound: 19,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class SearchliftError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly file?: string,
  ) {
    super(message);
    this.name = "SearchliftError";
  }
}

/**
 * A structural problem in a container: offsets or lengths that do not fit. Its message may quote the input
 * (a section name, a module path), so whatever would break or forge a line is escaped here, once for all.
 */
export class MalformedInput extends SearchliftError {
  constructor(file: string, message: string) {
    super(terminalSafe(message), ExitCode.malformed, file);
  }
}

/** An input of no kind searchlift reads; its message, like MalformedInput's, is made one inert line. */
export class UnrecognizedInput extends SearchliftError {
  constructor(file: string, message: string) {
    super(terminalSafe(message), ExitCode.unrecognized, file);
  }
}
