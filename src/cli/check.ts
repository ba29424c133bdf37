/**
 * `searchlift check`: will Claude Code find my MCP tools? Ranks an MCP server's tools with the lifted tool
 * search of one or more releases (src/check/).
 */
import { basename, extname } from "node:path";
import type { Command } from "commander";
import { ExitCode, SearchliftError } from "../errors.js";
import { messageLine } from "../safe-text.js";
import type { ClientTool, ListedTool } from "../check/naming.js";
import { printJson } from "./output.js";
import { cliProgress, type CliProgress } from "./progress.js";

interface CheckFlags {
  tools?: string;
  server?: string;
  url?: string;
  serverName?: string;
  serverTimeout?: string;
  with: string[];
  loaded: string[];
  query: string[];
  queries?: string;
  releases?: string;
  platform?: string;
  cache?: string;
  liftCache?: string;
  json?: boolean;
  markdown?: boolean;
  explain?: boolean;
  suggest?: boolean;
  failOnUnfound?: boolean;
  expect: string[];
  expectations?: string;
  maxRank?: string;
  failOnExpect?: boolean;
  baseline?: string;
  baselineServer?: string;
  baselineUrl?: string;
  quiet?: boolean;
}

const collect = (v: string, prev: string[]) => [...prev, v];

export function registerCheck(program: Command): void {
  program
    .command("check")
    .description("will Claude Code find my MCP tools? rank an MCP server's tools with the tool search of one or more releases")
    .option("--tools <file>", 'the tools: a tools/list result { "tools": [...] } or an array of tools')
    .option("--server <command>", 'the tools of a live MCP server started over stdio: "<command> [args…]"')
    .option("--url <url>", "the tools of a live MCP server reached over streamable HTTP")
    .option("--server-name <name>", "the server's name in Claude Code (default: the server's own, else the tools file's name)")
    .option("--server-timeout <s>", "seconds the server has to list its tools", "30")
    .option(
      "--with <file>",
      'other servers\' tools searched among (a tools file; its "serverName" or file name names it); repeatable',
      collect,
      [],
    )
    .option(
      "--loaded <file>",
      "tools loaded up front, not deferred (a tools file, named as for --with); a tool of the server or of --with named there is loaded too; repeatable",
      collect,
      [],
    )
    .option("--query <text>", "a query to rank with (repeatable; default: queries made from each tool's own words)", collect, [])
    .option("--queries <file>", "queries to rank with, one a line")
    .option(
      "--releases <list>",
      "comma list of versions, latest, installed (the newest Claude Code installed here), inputs or lifted tool-search.mjs (default: installed,latest)",
    )
    .option("--platform <p>", "for releases given as versions: npm or linux-x64, darwin-arm64, …; default: as fetch")
    .option("--cache <dir>", "release cache for releases given as versions (default ~/.cache/searchlift/releases)")
    .option("--lift-cache <dir>", "where lifted releases are kept (default ~/.cache/searchlift/check)")
    .option("--json", "print one JSON object")
    .option("--markdown", "print Markdown (for a PR comment)")
    .option(
      "--explain",
      "each tool's score per query word, and what its name, hint and description add; for a missed tool, which word matched which part and which matched nothing (releases whose module reports scores)",
    )
    .option(
      "--suggest",
      "for each missed expectation, small edits to the tool's name, description or searchHint, with the rank each gives on every release (measured)",
    )
    .option(
      "--expect <QUERY=>TOOL[@N]>",
      "an expectation: QUERY must return TOOL (its name as the server lists it, or as the client names it), at rank N or better; repeatable",
      collect,
      [],
    )
    .option("--expectations <file>", "expectations in a YAML (.yaml, .yml) or JSON file: a list of { query, tool, rank?, releases? }")
    .option(
      "--max-rank <n>",
      "the best rank an expectation without its own allows (default: returned at all, within the release's max_results)",
    )
    .option(
      "--baseline <file>",
      "an earlier catalog to compare with: a tools file (ranked now, as this one) or a saved --json of check; old → new rank per expectation and release",
    )
    .option(
      "--baseline-server <command>",
      'an earlier catalog from a live MCP server started over stdio ("<command> [args…]"), ranked now as --baseline',
    )
    .option("--baseline-url <url>", "an earlier catalog from a live MCP server reached over streamable HTTP, ranked now as --baseline")
    .option("--fail-on-unfound", `exit ${ExitCode.unfound} when a tool is returned by none of its own queries on some release`)
    .option("--fail-on-expect", `exit ${ExitCode.unfound} when an expectation is missed on some release it is judged on`)
    .option("-q, --quiet", "no progress lines on stderr (notes, warnings and errors still)")
    .action(async (opts: CheckFlags) => {
      const progress = cliProgress({ quiet: !!opts.quiet });
      try {
        await runCheckCommand(opts, progress);
      } finally {
        progress.end();
      }
    });
}

async function runCheckCommand(opts: CheckFlags, progress: CliProgress): Promise<void> {
  if ([opts.tools, opts.server, opts.url].filter((x) => x !== undefined).length !== 1) {
    throw new SearchliftError('give the tools with --tools FILE, --server "<command> [args…]" or --url URL (one of them)', ExitCode.usage);
  }
  if ([opts.baseline, opts.baselineServer, opts.baselineUrl].filter((x) => x !== undefined).length > 1)
    throw new SearchliftError("give one baseline: --baseline FILE, --baseline-server or --baseline-url", ExitCode.usage);
  if (opts.json && opts.markdown) throw new SearchliftError("--json and --markdown exclude each other", ExitCode.usage);
  const timeoutS = Number(opts.serverTimeout);
  if (!(timeoutS > 0))
    throw new SearchliftError(`--server-timeout must be a positive number of seconds, not ${opts.serverTimeout}`, ExitCode.usage);
  const [{ clientTool, markLoaded }, { readToolsFile }, q, { releaseModules, DEFAULT_RELEASES }, { check }, fmt, ex, { MAX_FULL_ROWS }] =
    await Promise.all([
      import("../check/naming.js"),
      import("../check/tools-file.js"),
      import("../check/queries.js"),
      import("../check/releases.js"),
      import("../api/check.js"),
      import("../check/format.js"),
      import("../check/expectations.js"),
      import("../check/check.js"),
    ]);
  // Expectations are read before the server is started: a mistake in them costs no server and no release.
  const specs = [...opts.expect.map(ex.parseExpect), ...(opts.expectations ? ex.readExpectationsFile(opts.expectations) : [])];
  const maxRank = opts.maxRank === undefined ? undefined : Number(opts.maxRank);
  if (maxRank !== undefined && !(Number.isInteger(maxRank) && maxRank > 0))
    throw new SearchliftError(`--max-rank must be a whole number, 1 or more, not ${opts.maxRank}`, ExitCode.usage);
  if (!specs.length && (maxRank !== undefined || opts.failOnExpect || opts.suggest))
    throw new SearchliftError(
      `${maxRank !== undefined ? "--max-rank" : opts.failOnExpect ? "--fail-on-expect" : "--suggest"} needs expectations: give --expect or --expectations`,
      ExitCode.usage,
    );
  // Notes (what was chosen, warnings) stay whatever --quiet says; progress is the releases' lifts and the ranking.
  const log = (line: string) => progress.note(`searchlift: ${messageLine(line)}`);
  if (!opts.tools) progress.onProgress({ stage: "check", message: `listing the tools of ${opts.url ?? opts.server}` });
  const listed = opts.tools
    ? await toolsFromFile(opts.tools, readToolsFile)
    : await toolsFromServer(opts.url !== undefined ? { url: opts.url } : { command: opts.server! }, timeoutS, progress);
  const server = opts.serverName ?? listed.serverName ?? listed.fallbackName;
  if (!server) throw new SearchliftError("the server gives no name of its own: name it with --server-name", ExitCode.usage);
  const otherServers = (files: string[]) =>
    files.flatMap((f) => {
      const file = readToolsFile(f);
      return file.tools.map((t) => clientTool(file.serverName ?? fileName(f), t));
    });
  const { tools, competitors } = markLoaded(
    listed.tools.map((t) => clientTool(server, t)),
    otherServers(opts.with),
    otherServers(opts.loaded),
  );
  const expectations = ex.resolveExpectations(specs, tools, maxRank);
  const baselineServer =
    opts.baselineUrl !== undefined
      ? { url: opts.baselineUrl }
      : opts.baselineServer !== undefined
        ? { command: opts.baselineServer }
        : undefined;
  const baseline =
    opts.baseline !== undefined || baselineServer
      ? await baselineInput(opts.baseline ?? baselineServer!, server, otherServers(opts.loaded), timeoutS, progress)
      : undefined;
  const texts = [...opts.query, ...(opts.queries ? q.readQueriesFile(opts.queries) : [])];
  // With expectations, a query is for the tools expected of it; the other given queries are shown, and judge no tool.
  const queries = expectations.length
    ? ex.expectationQueries(expectations, texts)
    : texts.length
      ? q.givenQueries(texts, tools)
      : q.defaultQueries(tools);
  if (!queries.length) throw new SearchliftError("no queries: every given query is blank, or every tool is always loaded", ExitCode.usage);
  const given =
    opts.releases === undefined
      ? DEFAULT_RELEASES
      : opts.releases
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  if (!given.length) throw new SearchliftError("--releases names no release", ExitCode.usage);
  // The sandbox's one-time check, for the ranking, runs while the releases are fetched and lifted.
  void import("../verify/sandbox-node.js").then(({ assertSandboxable }) => assertSandboxable().catch(() => {}));
  const modules = await releaseModules(given, { log, onProgress: progress.onProgress, ...pick(opts, "platform", "cache", "liftCache") });
  const r = await check(
    {
      server,
      tools,
      competitors,
      queries,
      modules,
      log,
      explain: opts.explain === true,
      suggest: opts.suggest === true,
      expectations,
      baseline,
    },
    { onProgress: progress.onProgress },
  );
  // The result on stdout, below a cleared live line.
  progress.end();
  for (const w of r.warnings) log(`warning: ${w}`);
  if (opts.json && r.summary.omittedRows)
    log(
      `${r.summary.omittedRows} rows are left out of the JSON's results (more than ${MAX_FULL_ROWS} query × tool pairs): ` +
        `tools a query is not for that no release returned (summary.omittedRows)`,
    );
  if (opts.json) printJson(fmt.jsonForm(r));
  else process.stdout.write(opts.markdown ? fmt.formatMarkdown(r) : fmt.formatText(r));
  const missed = r.summary.expectations.missed;
  if (opts.failOnExpect && missed) {
    log(`${missed} expectation${missed === 1 ? " is" : "s are"} missed on some release`);
    process.exitCode = ExitCode.unfound;
  }
  if (opts.failOnUnfound && r.unfound.length) {
    log(`${r.unfound.length} tool${r.unfound.length === 1 ? "" : "s"} returned by none of their own queries on some release`);
    process.exitCode = ExitCode.unfound;
  }
}

/**
 * --baseline: a saved check as it is, or the tools of a tools file or of a server (--baseline-server, --baseline-url,
 * listed as the new catalog's server is) named as this server's (the same --loaded applies).
 */
async function baselineInput(from: string | ServerSource, server: string, loaded: ClientTool[], timeoutS: number, progress: CliProgress) {
  const [{ readBaselineFile }, { clientTool, markLoaded }] = await Promise.all([
    import("../check/baseline.js"),
    import("../check/naming.js"),
  ]);
  const named = (tools: ListedTool[]) =>
    markLoaded(
      tools.map((t) => clientTool(server, t)),
      [],
      loaded,
    ).tools;
  if (typeof from !== "string") {
    progress.onProgress({
      stage: "check",
      message: `listing the tools of the baseline server, ${"url" in from ? from.url : from.command}`,
    });
    const listed = await toolsFromServer(from, timeoutS, progress, "the baseline server").catch((e: unknown) => {
      if (!(e instanceof SearchliftError)) throw e;
      // Said of the baseline's server, not the catalog's: "--server: …" is the new catalog's option.
      const message = e.message.replace(/^--(server|url):/, "--baseline-$1:");
      throw new SearchliftError(message, e.exitCode, `baseline ${e.file ?? ("url" in from ? from.url : from.command)}`);
    });
    return { source: "url" in from ? from.url : from.command, kind: "server" as const, tools: named(listed.tools) };
  }
  const b = readBaselineFile(from);
  if (b.kind === "saved") return { source: from, saved: b.saved };
  return { source: from, tools: named(b.file.tools) };
}

type ServerSource = { url: string } | { command: string };

interface Listed {
  tools: ListedTool[];
  serverName?: string;
  fallbackName?: string;
}

/** A tools file's tools; an empty list fails as a server that lists none does (exit 18, the same message). */
async function toolsFromFile(path: string, read: (path: string) => Omit<Listed, "fallbackName">): Promise<Listed> {
  const file = read(path);
  const { NO_TOOLS } = await import("../check/server-tools.js");
  if (!file.tools.length) throw new SearchliftError(NO_TOOLS, ExitCode.serverFailed, path);
  return { ...file, fallbackName: fileName(path) };
}

/** A live server's tools; when it fails, the last lines it wrote on stderr come first (the error's line last). */
async function toolsFromServer(source: ServerSource, timeoutS: number, progress: CliProgress, which = "the MCP server"): Promise<Listed> {
  const { listServerTools, ServerFailed } = await import("../check/server-tools.js");
  try {
    return await listServerTools(source, timeoutS * 1000);
  } catch (e) {
    // One line says it all when the server wrote one; more are its stack trace or its log, shown as its tail.
    if (e instanceof ServerFailed && e.stderrTail.length > 1)
      progress.note(`searchlift: ${which}'s stderr ended with:\n${e.stderrTail.map((l) => `  | ${l}`).join("\n")}`);
    throw e;
  }
}

function fileName(path: string): string {
  return basename(path, extname(path));
}

function pick<K extends keyof CheckFlags>(o: CheckFlags, ...keys: K[]): Partial<Pick<CheckFlags, K>> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<CheckFlags, K>>;
}
