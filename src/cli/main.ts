import { Command, CommanderError, InvalidArgumentError } from "commander";
import { openContainer } from "../extract/open-container.js";
import { formatListing, listing } from "../extract/listing.js";
import { writeModules } from "../extract/write-modules.js";
import { ExitCode, SearchliftError } from "../errors.js";
import type { RoutineResult } from "../locate/locate.js";
import { VERSION } from "../version.js";

// Each command loads its own stage when it runs: start-up is part of every measured command.

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
    .action(async (input: string, opts: { list?: boolean; json?: boolean; out?: string; force?: boolean }) => {
      const c = openContainer(input);
      try {
        const l = listing(c);
        if (opts.out) {
          const { written, bytes } = await writeModules(c, opts.out, !!opts.force);
          if (!opts.list && !opts.json) process.stderr.write(`wrote ${written} modules (${bytes} bytes) and manifest.json to ${opts.out}\n`);
        }
        if (opts.json) process.stdout.write(JSON.stringify(l, null, 2) + "\n");
        else if (opts.list || !opts.out) process.stdout.write(formatListing(l));
      } finally {
        c.close();
      }
    });

  program
    .command("locate")
    .description("find routines by structural signature (every input kind extract accepts)")
    .argument("<input>", "executable, npm package folder or .tgz, or script")
    .option("-r, --routine <id...>", "only these signature ids (e.g. tool-search/scorer)")
    .option("--signatures <dir>", "read signatures from DIR instead of the bundled ones")
    .option("--json", "print one JSON object")
    .action(async (input: string, opts: { routine?: string[]; signatures?: string; json?: boolean }) => {
      const { locate } = await import("../locate/locate.js");
      const signatures = await selectSignatures(opts.signatures, opts.routine);
      const c = openContainer(input);
      let results: RoutineResult[];
      try {
        results = locate(c, signatures);
      } finally {
        c.close();
      }
      if (opts.json) process.stdout.write(JSON.stringify({ input, routines: results }, null, 2) + "\n");
      else process.stdout.write(formatLocate(input, results));
      process.exitCode = results.some((r) => r.status === "ambiguous")
        ? ExitCode.ambiguous
        : results.some((r) => r.status === "absent")
          ? ExitCode.absent
          : ExitCode.ok;
    });

  program
    .command("lift")
    .description("lift each input's tool search into a verified, pure ES module (the scorer-module contract)")
    .argument("<input...>", "executables, npm packages (folder or .tgz), or scripts")
    .option("-o, --out <dir>", "output folder", "./lifted")
    .option("--json", "print one JSON object")
    .option("--no-verify", "skip running the lifted module against the original (for speed measurements)")
    .option("--cases <n>", "corpus cases for verification", (v) => Number.parseInt(v, 10), 2000)
    .option("--signatures <dir>", "read signatures from DIR instead of the bundled ones")
    .option("--verify-timeout <seconds>", "stop verifying after this long (exit 15; default 300)", positiveSeconds)
    .action(async (inputs: string[], opts: { out: string; json?: boolean; verify: boolean; cases: number; signatures?: string; verifyTimeout?: number }) => {
      if (!Number.isInteger(opts.cases) || opts.cases < 1) throw new SearchliftError("--cases must be a positive integer", ExitCode.usage);
      const { liftInput } = await import("../lift/lift.js");
      const results: Array<Record<string, unknown>> = [];
      let failure: SearchliftError | null = null;
      for (const input of inputs) {
        try {
          const r = await liftInput(input, { out: opts.out, verify: opts.verify, cases: opts.cases, ...(opts.signatures ? { signaturesDir: opts.signatures } : {}), ...(opts.verifyTimeout ? { verifyTimeoutS: opts.verifyTimeout } : {}) });
          results.push({ input, version: r.version, platform: r.platform, client: r.client, module: r.module, declarations: r.declarations, signature: r.signature, verified: r.verified ?? "skipped", cut: r.dropped });
          if (!opts.json) {
            const v = r.verified ? `verified: ${r.verified.agreed}/${r.verified.cases} cases agree` : "not verified (--no-verify)";
            process.stdout.write(`${input}: ${r.client} ${r.version} ${r.platform} → ${r.module} (${r.signature}; ${v})\n`);
          }
        } catch (e) {
          if (!(e instanceof SearchliftError)) throw e;
          failure ??= e;
          // Which release it was, where that could be read before the lift failed.
          const release = "release" in e ? (e as { release: { client: string; version: string; platform: string } }).release : null;
          results.push({ input, ...(release ? { client: release.client, version: release.version, platform: release.platform } : {}), error: oneLine(e.message), exitCode: e.exitCode });
          if (!opts.json) process.stderr.write(`searchlift: ${e.file ?? input}: ${oneLine(e.message)}\n`);
        }
      }
      if (opts.json) process.stdout.write(JSON.stringify({ results }, null, 2) + "\n");
      if (failure) process.exitCode = failure.exitCode;
    });

  program
    .command("track")
    .description("lift every release of a set and write the tool search's timeline (default: ~/.local/share/claude/versions)")
    .argument("[inputs...]", "a folder of releases, or release files / packages")
    .option("-o, --out <dir>", "where timeline.json, timeline.md and timeline.html go", "./timeline")
    .option("--cache <dir>", "lift cache (default ~/.cache/searchlift/track)")
    .option("--jobs <n>", "lifts at once (default: one per core)", (v) => Number.parseInt(v, 10))
    .option("--no-verify", "do not verify each lift against its release")
    .option("--json", "print timeline.json instead of a summary")
    .option("--verify-timeout <seconds>", "time budget for verifying each lift (default 300)", positiveSeconds)
    .action(async (args: string[], opts: { out: string; cache?: string; jobs?: number; verify: boolean; json?: boolean; verifyTimeout?: number }) => {
      const { defaultInputs, listReleases, track } = await import("../track/track.js");
      const { existsSync, statSync } = await import("node:fs");
      const { join } = await import("node:path");
      let inputs = args;
      let note: string | undefined;
      if (inputs.length === 0) ({ inputs, note } = defaultInputs());
      else if (inputs.length === 1 && statSync(inputs[0]!, { throwIfNoEntry: false })?.isDirectory() && !existsSync(join(inputs[0]!, "package.json"))) {
        inputs = listReleases(inputs[0]!);
      }
      if (note) process.stderr.write(`note: ${note}\n`);
      const tty = process.stderr.isTTY && !opts.json;
      const r = await track(inputs, {
        out: opts.out,
        verify: opts.verify,
        ...(opts.cache ? { cache: opts.cache } : {}),
        ...(opts.jobs ? { jobs: opts.jobs } : {}),
        ...(opts.verifyTimeout ? { verifyTimeoutS: opts.verifyTimeout } : {}),
        ...(tty ? { progress: (done: number, total: number, rel: { version: string }) => process.stderr.write(`\rlifted ${done}/${total} (${rel.version})   `) } : {}),
      });
      if (tty) process.stderr.write("\n");
      if (opts.json) process.stdout.write(JSON.stringify(r.timeline, null, 2) + "\n");
      else {
        process.stdout.write(`${r.timeline.releases.length} releases (${r.lifted} lifted now, the rest cached), ${r.timeline.groups.length} groups:\n`);
        for (const g of r.timeline.groups) process.stdout.write(`  ${g.first === g.last ? g.first : `${g.first} – ${g.last}`}: ${g.routineHash ? g.routineHash.slice(0, 12) : `not lifted (${g.error})`}\n`);
        process.stdout.write(`wrote ${r.files.json}, ${r.files.markdown} and ${r.files.html}\n`);
      }
    });

  program
    .command("fetch")
    .description("download Claude Code releases with your npm (its registry, proxy and auth), verify their integrity and cache them")
    .argument("[spec]", 'latest, a version (2.1.112), or a range (2.1.100-2.1.112, ">=2.1.100 <2.1.113")')
    .option("--platform <p>", "npm (the cli.js package, up to 2.1.112) or linux-x64, darwin-arm64, …; default: npm up to 2.1.112, this host's after")
    .option("--cache <dir>", "release cache (default ~/.cache/searchlift/releases)")
    .option("--list", "list which versions exist for which platform (those in [spec], if given)")
    .option("--dry-run", "resolve and look in the cache, but download nothing")
    .option("--json", "print one JSON object")
    .action(async (spec: string | undefined, opts: { platform?: string; cache?: string; list?: boolean; dryRun?: boolean; json?: boolean }) => {
      const { fetchReleases, listReleases, formatListing } = await import("../fetch/fetch.js");
      if (opts.list) {
        const l = await listReleases({ ...(opts.platform ? { platform: opts.platform } : {}), ...(spec ? { spec } : {}) });
        process.stdout.write(opts.json ? JSON.stringify(l, null, 2) + "\n" : formatListing(l));
        return;
      }
      if (!spec) throw new SearchliftError("fetch needs latest, a version or a range (or --list)", ExitCode.usage);
      const tty = process.stderr.isTTY && !opts.json;
      const r = await fetchReleases(spec, {
        ...(opts.platform ? { platform: opts.platform } : {}),
        ...(opts.cache ? { cache: opts.cache } : {}),
        dryRun: !!opts.dryRun,
        ...(tty ? { progress: (m: string) => process.stderr.write(`${m}\n`) } : {}),
        ...(opts.json ? {} : { warn: (m: string) => process.stderr.write(`searchlift: ${oneLine(m)}\n`) }),
      });
      const releases = r.releases.map((x) => ({ version: x.version, platform: x.platform, package: x.package, tarball: x.tarball, integrity: x.integrity, cached: x.cached }));
      if (opts.json) process.stdout.write(JSON.stringify({ releases, ...(r.skipped.length ? { skipped: r.skipped } : {}) }, null, 2) + "\n");
      else for (const x of releases) process.stdout.write(`${x.version} ${x.platform} ${x.tarball}${x.cached ? " (cached)" : opts.dryRun ? " (not fetched: --dry-run)" : ""}\n`);
    });

  program
    .command("diff")
    .description("what changed in the tool search between two inputs: code, weights and features, behaviour on a built-in corpus")
    .argument("<a>", "before: executable, npm package, script, or a lifted tool-search.mjs")
    .argument("<b>", "after: the same kinds")
    .option("-o, --out <dir>", "keep the lifted modules under DIR/a and DIR/b (default: a temporary folder, removed)")
    .option("--json", "print one JSON object")
    .action(async (a: string, b: string, opts: { out?: string; json?: boolean }) => {
      const { diffInputs, formatDiff } = await import("../diff/diff.js");
      const r = await diffInputs(a, b, opts.out ? { out: opts.out } : {});
      process.stdout.write(opts.json ? JSON.stringify(r, null, 2) + "\n" : formatDiff(r));
    });

  return program;
}

function positiveSeconds(v: string): number {
  const n = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v.trim()) || !(n > 0) || n > 86_400) throw new InvalidArgumentError("expected a number of seconds, > 0 and at most 86400");
  return n;
}

async function selectSignatures(dir: string | undefined, ids: string[] | undefined) {
  const { loadSignatures, SignatureError } = await import("../locate/signature.js");
  let all;
  try {
    all = loadSignatures(dir);
  } catch (e) {
    if (e instanceof SignatureError) throw new SearchliftError(`bad signature: ${e.message}`, ExitCode.usage);
    throw new SearchliftError(`cannot read signatures: ${(e as NodeJS.ErrnoException).code ?? e}`, ExitCode.usage, dir);
  }
  if (!ids) return all;
  const unknown = ids.filter((id) => !all.some((s) => s.id === id));
  if (unknown.length) throw new SearchliftError(`unknown routine ${unknown.join(", ")} (known: ${all.map((s) => s.id).join(", ")})`, ExitCode.usage);
  return all.filter((s) => ids.includes(s.id));
}

function formatLocate(input: string, results: RoutineResult[]): string {
  const lines = [`input: ${input}`];
  for (const r of results) {
    if (r.status === "found") {
      lines.push(`${r.id}: found, variant ${r.variant}`, `  ${r.module}:${r.line}:${r.column}  bytes ${r.start}-${r.end}`);
      for (const [role, name] of Object.entries(r.roles ?? {})) lines.push(`  ${role.padEnd(16)} ${name}`);
    } else if (r.status === "ambiguous") {
      lines.push(`${r.id}: ambiguous, ${r.candidates!.length} candidates`);
      for (const c of r.candidates!) lines.push(`  ${c.module}:${c.line}:${c.column}  variant ${c.variant}`);
    } else {
      lines.push(`${r.id}: absent`);
    }
    for (const w of r.warnings ?? []) lines.push(`  warning: ${w}`);
  }
  return lines.join("\n") + "\n";
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
