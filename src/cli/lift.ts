/**
 * `searchlift lift`: each input's tool search as a verified ES module under --out.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { ExitCode, SearchliftError } from "../errors.js";
import { messageLine, terminalSafe as safe } from "../safe-text.js";
import { resolveCliInputs, type InputFlags } from "./input-options.js";
import { positiveInteger, positiveSeconds } from "./options.js";
import { printJson } from "./output.js";
import { cliProgress } from "./progress.js";
import { cliRoutinePack } from "./routine.js";
import { agreementText } from "../verify/shared-verification.js";

/** The corpus size the module contract's promise is checked on. */
const CONTRACT_CASES = 2000;

export function registerLift(program: Command): void {
  program
    .command("lift")
    .description("lift each input's tool search into a verified, pure ES module (the scorer-module contract)")
    .argument(
      "[input...]",
      "executables, npm packages (folder or .tgz), scripts, versions or ranges (default: the newest installed Claude Code)",
    )
    .option("-o, --out <dir>", "output folder", "./lifted")
    .option("--json", "print one JSON object")
    .option("--no-verify", "skip running the lifted module against the original (for speed measurements)")
    .option("--cases <n>", `corpus cases for verification (the contract asks for ${CONTRACT_CASES})`, positiveInteger, CONTRACT_CASES)
    .option("--signatures <dir>", "read signatures from DIR instead of the bundled ones")
    .option("--verify-timeout <seconds>", "stop verifying after this long (exit 15; default 300)", positiveSeconds)
    .option(
      "--verifications <dir>",
      "reuse a verification recorded in DIR for the same program and lifted code (adjacent releases often are), and record new ones there",
    )
    .option(
      "--lift-cache <dir>",
      "lift cache: the same input lifted again by this searchlift is copied from here (default ~/.cache/searchlift/lift)",
    )
    .option("--no-lift-cache", "lift afresh and keep nothing in the lift cache (also SEARCHLIFT_LIFT_CACHE=off)")
    .option("-q, --quiet", "no progress lines on stderr (notes, warnings and errors still)")
    .action(
      async (
        args: string[],
        opts: InputFlags & {
          out: string;
          json?: boolean;
          verify: boolean;
          cases: number;
          signatures?: string;
          verifyTimeout?: number;
          verifications?: string;
          liftCache?: string | false;
          quiet?: boolean;
        },
      ) => {
        // --out first: nothing is fetched or lifted for an output that would be refused.
        (await import("../output-folder.js")).checkOutput(opts.out, "lift");
        if (opts.verifications && existsSync(opts.verifications) && !statSync(opts.verifications).isDirectory())
          throw new SearchliftError(`--verifications: ${opts.verifications} is not a folder`, ExitCode.usage);
        const progress = cliProgress({ quiet: !!opts.quiet });
        const inputs = args.length
          ? await resolveCliInputs(args, "lift", opts, false, (line) => progress.note(`searchlift: ${messageLine(line)}`))
          : [await installedLiftInput((line) => progress.note(`note: ${messageLine(line)}`))];
        await refuseReleaseFolders(inputs);
        if (opts.verify && opts.cases < CONTRACT_CASES)
          process.stderr.write(
            `note: --cases ${opts.cases} is below the contract's ${CONTRACT_CASES}: these lifts are not verified to the contract\n`,
          );
        const [{ lift }, liftCache] = await Promise.all([import("../api/lift.js"), import("../lift/lift-cache.js")]);
        const pack = await cliRoutinePack();
        // A run that sets its own verification (a time bound, recorded verifications, other signatures) lifts afresh.
        const cacheDir =
          opts.liftCache === false ||
          process.env.SEARCHLIFT_LIFT_CACHE === "off" ||
          opts.signatures ||
          opts.verifyTimeout ||
          opts.verifications
            ? null
            : resolve(opts.liftCache ?? liftCache.defaultLiftCache());
        const results: Array<Record<string, unknown>> = [];
        let failure: SearchliftError | null = null;
        for (const [k, input] of inputs.entries()) {
          const which = inputs.length > 1 ? `release ${k + 1} of ${inputs.length}, ` : "";
          try {
            progress.onProgress({ stage: "lift", message: `${which}${input}: reading` });
            const key = cacheDir
              ? await liftCache.liftKey(cacheDir, { input, routine: pack.id, verify: opts.verify, cases: opts.cases })
              : null;
            const kept = key ? liftCache.reuseLift(cacheDir!, key.key, opts.out, input) : null;
            const r =
              kept ??
              (await lift(input, {
                pack,
                out: opts.out,
                verify: opts.verify,
                cases: opts.cases,
                ...(opts.signatures ? { signaturesDir: opts.signatures } : {}),
                ...(opts.verifyTimeout ? { verifyTimeoutS: opts.verifyTimeout } : {}),
                ...(opts.verifications ? { verifications: resolve(opts.verifications) } : {}),
                onProgress: (e) => progress.onProgress({ ...e, message: `${which}${input}: ${e.message}` }),
              }));
            if (key && !kept) liftCache.keepLift(cacheDir!, key.key, r);
            progress.end();
            results.push({
              input,
              version: r.version,
              platform: r.platform,
              client: r.client,
              module: r.module,
              declarations: r.declarations,
              signature: r.signature,
              verified: r.verified ?? "skipped",
              cut: r.dropped,
              portedKeys: r.portedKeys,
              ...(r.newShape ? { newShape: r.newShape } : {}),
              ...(r.toolFields.length > 0 ? { toolFields: r.toolFields } : {}),
              ...(r.toolFieldsRefused.length > 0 ? { toolFieldsRefused: r.toolFieldsRefused } : {}),
              ...(kept ? { cached: true } : {}),
              // The table measured by probes on the module in the sandbox: what each kind of match adds, caps, forms.
              ...(opts.json ? await (await import("../diff/behaviour.js")).moduleTable(r.module, pack) : {}),
            });
            if (!opts.json) {
              const v = r.verified ? `verified: ${agreementText(r.verified)}` : "not verified (--no-verify)";
              process.stdout.write(
                `${safe(input)}: ${r.client} ${r.version} ${r.platform} → ${safe(r.module)} (${safe(r.signature)}; ${v})${kept ? " (cached)" : ""}\n`,
              );
              for (const shape of r.newShape ?? [])
                process.stderr.write(
                  `note: ${shape.routine} has a shape no signature knows; lifted whole. It differs from variant ${shape.closest} in: ${shape.missing.join("; ")}\n`,
                );
              if (r.toolFields.length > 0)
                process.stderr.write(
                  `note: ${safe(input)}: the tool search reads tool fields the contract does not name, passed through as given (provenance.toolFields): ${r.toolFields.join(", ")}\n`,
                );
              for (const f of r.toolFieldsRefused)
                process.stderr.write(
                  `note: ${safe(input)}: the tool search reads the tool field ${safe(JSON.stringify(f.name))}, not passed: ${f.why}\n`,
                );
            }
          } catch (e) {
            progress.end();
            if (!(e instanceof SearchliftError)) throw e;
            failure ??= e;
            // Which release it was, where that could be read before the lift failed.
            const release = "release" in e ? (e as { release: { client: string; version: string; platform: string } }).release : null;
            results.push({
              input,
              ...(release ? { client: release.client, version: release.version, platform: release.platform } : {}),
              error: e.message.replace(/\s*\n\s*/g, " ").trim(),
              exitCode: e.exitCode,
            });
            if (!opts.json) process.stderr.write(`searchlift: ${safe(e.file ?? input)}: ${messageLine(e.message)}\n`);
          }
        }
        if (opts.json) printJson({ results });
        if (failure) process.exitCode = failure.exitCode;
      },
    );
}

/** lift with no input: the newest installed Claude Code, named on stderr. */
async function installedLiftInput(say: (line: string) => void): Promise<string> {
  const { defaultLiftInput } = await import("../inputs/default-inputs.js");
  const { input, note } = await defaultLiftInput();
  say(note);
  return input;
}

/** A folder of releases (a versions folder, fetch's cache) is track's input, not lift's: said before any work. */
async function refuseReleaseFolders(inputs: string[]): Promise<void> {
  for (const input of inputs) {
    if (!statSync(input, { throwIfNoEntry: false })?.isDirectory() || existsSync(join(input, "package.json"))) continue;
    const { listReleases } = await import("../inputs/release-folder.js");
    const n = listReleases(input).length;
    if (n === 0) continue;
    throw new SearchliftError(
      `a folder of ${n} release${n === 1 ? "" : "s"}: lift takes one release (name a file in it), and \`searchlift track ${input}\` lifts them all`,
      ExitCode.usage,
      input,
    );
  }
}
