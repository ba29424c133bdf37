/**
 * `searchlift lift`: locate the tool search in an input, lift it into the contract's module
 * (docs/scorer-module-contract.md), check it is pure, verify it against the original code
 * in the sandbox, and write it — atomically — under <out>/<client>/<version>/<platform>/.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { openContainerAsync } from "../extract/open-container.js";
import type { Container, ModuleEntry } from "../extract/types.js";
import { ExitCode, SearchliftError } from "../errors.js";
import { locateRoutines, type RoutineResult } from "../locate/locate.js";
import { sharedModuleText } from "../locate/partial-parse.js";
import { lineColumn, moduleHtmlComment } from "../ast/parse-module.js";
import { hasUseStrict } from "./closure.js";
import { loadSignatures } from "../locate/signature.js";
import { VERSION } from "../version.js";
import { pathInside, writeFilesInside } from "../safe-write.js";
import { jsLiteral, lineCommentText } from "../safe-text.js";
import { LiftError } from "./lift-error.js";
import { impurities } from "./purity.js";
import { sha256InBackground } from "../file-digests.js";
import { releaseInfo, type ReleaseInfo } from "../inputs/release-info.js";
import type { LiftedCode, RoutinePack } from "../routines/pack.js";
import type { VerifyResult } from "../verify/verify.js";
import { VerifyBudgetExceeded, type Verifier } from "../verify/verify-process.js";
import { verifierPool } from "../verify/verifier-pool.js";
import { layoutModule } from "./layout.js";
import { readerOrder } from "./reader-order.js";
import { helperNotes } from "./helper-notes.js";
import {
  agreementText,
  outcomeCounts,
  recordAgreement,
  recordedAgreement,
  returnedEnough,
  sharedVerification,
  VERIFIED_SHARE,
  verificationKey,
  type Agreement,
} from "../verify/shared-verification.js";
import type { OnProgress } from "../progress.js";

export interface LiftOptions {
  out: string;
  verify: boolean;
  /** Corpus size for verification (the contract's promise is checked on at least 2,000). */
  cases?: number;
  /** Time budget for the whole verification, in seconds (default DEFAULT_VERIFY_TIMEOUT_S). */
  verifyTimeoutS?: number;
  signaturesDir?: string;
  /** Progress events (library API: src/progress.ts). */
  onProgress?: OnProgress;
  /** The routine lifted (the wiring chooses it: src/clients/claude-code.ts). */
  pack: RoutinePack;
  /** The input file's sha256, when the caller has it already (check keys its cache by it): not hashed again. */
  inputSha256?: string;
  /** A folder of recorded verifications (shared-verification.ts): one of the same program is reused, a new one recorded. */
  verifications?: string;
}

/** Generous: a real release verifies in about 5 s on an idle 2-core machine; a whole verified lift took up to 2 min at load 6. */
export const DEFAULT_VERIFY_TIMEOUT_S = 300;

export interface LiftResult extends ReleaseInfo {
  input: string;
  module: string;
  declarations: string;
  /** The accepted verification with its counts (shared-verification.ts, Agreement); null without one (--no-verify). */
  verified: Agreement | null;
  signature: string;
  dropped: string[];
  /** Computed keys that pass through the key port (key-port.ts). */
  portedKeys: number;
  /** Tool fields the routine reads that the contract does not name, passed through (provenance.toolFields), then
   *  properties it reads inside a contract field that the contract does not name there (`mcpInfo.nameKey`). */
  toolFields: string[];
  /** Such fields read but not passed (a name that is not plain, or too many), with why. */
  toolFieldsRefused: Array<{ name: string; why: string }>;
  /** Routines found by their anchors whose statements no signature variant knows, and how they differ. */
  newShape?: NewShape[];
}

/** A routine lifted whole although parts of it match no known variant: those parts, as the closest variant has them. */
export interface NewShape {
  routine: string;
  closest: string;
  missing: string[];
}

/** This process's verifiers (verify/verifier-pool.ts). */
const verifiers = verifierPool();

export async function liftInput(input: string, opts: LiftOptions): Promise<LiftResult> {
  // The verifier makes its corpus while the container opens: a .tgz is decompressed whole, a second or more.
  const verifier = opts.verify ? verifiers.verifierFor(opts.pack.verifier, opts.cases ?? 2000) : undefined;
  try {
    const c = await openContainerAsync(input);
    try {
      return await liftContainer(c, { ...opts, verifier });
    } finally {
      c.close();
    }
  } finally {
    verifier?.cancel();
  }
}

async function liftContainer(c: Container, opts: LiftRun): Promise<LiftResult> {
  const file = hashedFile(c);
  const inputHash =
    opts.inputSha256 && file === c.input ? { result: Promise.resolve(opts.inputSha256), cancel() {} } : sha256InBackground(file);
  try {
    return await liftWith(c, opts, inputHash.result);
  } finally {
    inputHash.cancel();
  }
}

/** A lift that failed once the release was known: the error says which release it was. */
export class LiftFailure extends SearchliftError {
  constructor(
    cause: SearchliftError,
    readonly release: ReleaseInfo,
  ) {
    super(cause.message, cause.exitCode, cause.file);
  }
}

/** A lift's options, with the verifier started for it (when it verifies). */
interface LiftRun extends LiftOptions {
  verifier: Verifier | undefined;
}

async function liftWith(c: Container, opts: LiftRun, inputSha256: Promise<string>): Promise<LiftResult> {
  const info = releaseInfo(c);
  try {
    return await liftRelease(c, opts, inputSha256, info);
  } catch (e) {
    throw e instanceof SearchliftError && !(e instanceof LiftFailure) ? new LiftFailure(e, info) : e;
  }
}

async function liftRelease(c: Container, opts: LiftRun, inputSha256: Promise<string>, info: ReleaseInfo): Promise<LiftResult> {
  const pack = opts.pack;
  const ids = pack.signatures;
  const all = loadSignatures(opts.signaturesDir, [ids.routine, ids.call]);
  const scorerSignature = all.find((s) => s.id === ids.routine);
  const callSignature = all.find((s) => s.id === ids.call);
  if (!scorerSignature || !callSignature) throw new SearchliftError(`the ${pack.id} signatures are missing`, ExitCode.usage);
  const [scorer, call] = locateRoutines(c, [scorerSignature, callSignature]);
  const notLiftable = (message: string) => new SearchliftError(`cannot lift: ${message}`, ExitCode.notLiftable, c.input);
  if (scorer!.result.status !== "found") throw notLiftable(`${ids.routine} is ${scorer!.result.status}${closestText(scorer!.result)}`);
  let code;
  try {
    // Without call(), the scorer alone is still lifted first: what stops it is the more useful message.
    if (call!.result.status !== "found") {
      await pack.liftCode(c, { scorer: scorer!, scorerSignature });
      throw notLiftable(`${ids.call} is ${call!.result.status}`);
    }
    code = await pack.liftCode(c, { scorer: scorer!, scorerSignature, call: call!, callSignature });
  } catch (e) {
    if (e instanceof LiftError) throw notLiftable(e.message);
    throw e;
  }
  const original = originalAsRun(c, code.closure, () => code.original, notLiftable);
  // The readable copy as a person reads it: the contract first, helpers after with what is known of them
  // (reader-order.ts), lines of at most 100 columns (layout.ts).
  const about = helperNotes(code, [scorerSignature, callSignature], opts.signaturesDir);
  const readable = await layoutModule(readerOrder(code.readable, { exports: pack.exports, about }));
  const signature = `${ids.routine}@${scorer!.result.variant} + ${ids.call}@${call!.result.variant}`;
  opts.onProgress?.({ stage: "lift", message: `${info.client} ${info.version} (${info.platform}): ${signature}` });
  // New fields, and properties read inside a contract field that it does not name there (`mcpInfo.nameKey`).
  const toolFields = [...code.toolFields.passed, ...code.toolFields.within];
  if (toolFields.length > 0)
    opts.onProgress?.({ stage: "lift", message: `reads tool fields the contract does not name: ${toolFields.join(", ")}` });
  const used = [...new Set(code.closure.definitions.map((d) => d.module))];
  const sources = used.map((m) => ({ name: m.path, start: m.start, end: m.end, sha256: moduleSha256(c, m) }));
  const provenanceBase = {
    client: info.client,
    version: info.version,
    platform: info.platform,
    routine: pack.id,
    signature,
    input: { file: inputName(c), sha256: await inputSha256 },
    modules: sources,
    generator: `searchlift ${VERSION}`,
    // Only when there are some: every other module stays as it was.
    ...(toolFields.length > 0 ? { toolFields } : {}),
  };

  const compose = (verified: unknown) =>
    header(pack, provenanceBase, verified) +
    readable +
    PROVENANCE_MARK +
    `${jsLiteral({ ...provenanceBase, verified }, 2)};\n\nexport { ${pack.exports.join(", ")} };\n`;

  const draft = compose("pending");
  const impure = checkedImpurities(draft, c.input);
  if (impure.length) {
    const first = impure[0]!;
    throw new SearchliftError(
      `cannot lift: the emitted module uses ${first.what} at ${first.line}:${first.column}`,
      ExitCode.notLiftable,
      c.input,
    );
  }

  const verified = opts.verifier
    ? await verifyDraft(
        opts.verifier,
        { original: original(), draft, lifted: readable, toolFields: [...toolFields, ...code.toolFields.inner] },
        opts,
        c.input,
      )
    : null;
  const text = compose(verified ?? "skipped (--no-verify)");

  // The parts were checked by releaseInfo; the resolved folder is checked again here.
  const dir = pathInside(opts.out, info.client, info.version, info.platform);
  const module = join(dir, `${pack.id}.mjs`);
  const declarations = join(dir, `${pack.id}.d.ts`);
  writeFilesInside(opts.out, dir, [
    [module, text],
    [declarations, pack.declarations()],
  ]);
  opts.onProgress?.({ stage: "lift", message: `wrote ${module}` });
  return {
    input: c.input,
    ...info,
    module,
    declarations,
    verified,
    signature,
    dropped: code.dropped.map((d) => `${d.name} at ${d.at.module}:${d.at.line}:${d.at.column}`),
    portedKeys: code.portedKeys,
    toolFields,
    toolFieldsRefused: code.toolFields.refused,
    ...newShapes([scorer!.result, call!.result]),
  };
}

function newShapes(results: RoutineResult[]): { newShape?: NewShape[] } {
  const shapes = results.flatMap((r) => (r.changed ? [{ routine: r.id, closest: r.changed.variant, missing: r.changed.missing }] : []));
  return shapes.length ? { newShape: shapes } : {};
}

/** For an absent routine: what came closest, so that the user learns where the search nearly succeeded. */
function closestText(r: RoutineResult): string {
  const c = r.closest;
  if (!c) return " (no function of its shape calls the search tool's code)";
  return ` (closest: ${c.module}:${c.line}:${c.column}, ${c.matched} of ${c.of} parts of variant ${c.variant})`;
}

/** The purity check of a draft; a draft that does not even parse is the lift's fault, refused like an impure one. */
function checkedImpurities(draft: string, input: string): ReturnType<typeof impurities> {
  try {
    return impurities(draft);
  } catch (e) {
    throw new SearchliftError(`cannot lift: the emitted module does not parse (${(e as Error).message})`, ExitCode.notLiftable, input);
  }
}

/**
 * The faithful copy of the release's code, to run as the release's runtime runs it: in strict mode when its
 * code runs so (an ES module; CommonJS under "use strict"; see StatementParser.strictAt), else in sloppy mode,
 * while the lifted module is always strict — a difference that shows on the corpus is then a disagreement,
 * not hidden. Refused: code that mixes both (one script cannot run each part as the release does), and
 * `<!--` in an ES module, which acorn reads as operators but the runtime refuses to load (the release never
 * ran it). The copy itself is made when verification asks for it.
 */
function originalAsRun(
  c: Container,
  closure: LiftedCode["closure"],
  original: () => string,
  refuse: (message: string) => SearchliftError,
): () => string {
  const modes = new Map<boolean, string>();
  for (const d of closure.definitions) {
    if (d.port) continue; // our own code, in place of the release's
    if (hasUseStrict(d.node)) continue; // strict wherever it runs: a class method copied out says so itself
    const { text, parser } = sharedModuleText(c, d.module);
    const at = parser.goal === "module" ? moduleHtmlComment(text, d.node) : -1;
    if (at >= 0) {
      const { line, column } = lineColumn(text, at);
      throw refuse(
        `${d.module.path}:${line}:${column} holds "<!--" in an ES module, which the runtime refuses to load (an HTML-like comment)`,
      );
    }
    const strict = parser.strictAt(d.node);
    if (strict === null) throw refuse(`cannot tell whether ${d.name} in ${d.module.path} runs in strict mode`);
    if (!modes.has(strict)) modes.set(strict, d.name);
  }
  if (modes.size > 1)
    throw refuse(
      `the routine's code runs partly in strict mode (${modes.get(true)}) and partly in sloppy mode (${modes.get(false)}); verification cannot run both as the release does`,
    );
  return modes.has(true) ? () => `"use strict";\n${original()}` : original;
}

/** The two sides: the release's own code, and the draft module, whose behaviour is its lifted code's. */
interface Sides {
  original: string;
  draft: string;
  lifted: string;
  /** Tool fields beyond the contract's that the corpus gives values (provenance.toolFields), and the properties read
   *  inside them (`annotations.category`). */
  toolFields: readonly string[];
}

/** Run the draft against the release's own code on the corpus; any doubt or disagreement is an error. */
async function verifyDraft(verifier: Verifier, sides: Sides, opts: LiftOptions, input: string): Promise<Agreement> {
  const cases = opts.cases ?? 2000;
  const key = verificationKey(opts.pack.id, cases, sides.original, sides.lifted);
  const recorded = key && opts.verifications ? recordedAgreement(opts.verifications, key) : null;
  if (recorded) {
    verifier.cancel();
    const message = `the same program as a release verified before: ${agreementText(recorded)}`;
    opts.onProgress?.({ stage: "verify", message, done: recorded.cases, total: recorded.cases });
    return recorded;
  }
  const budgetS = opts.verifyTimeoutS ?? DEFAULT_VERIFY_TIMEOUT_S;
  const message = `verifying on ${cases} cases`;
  // The cases run on both sides so far, as the verifier tells them (every CASES_EVERY cases, verify.ts); the
  // last count is the outcome's, said below.
  const onCases = (done: number, total: number) => {
    if (done < total) opts.onProgress?.({ stage: "verify", message, done, total });
  };
  const { outcome, shared } = sharedVerification(key, () =>
    verifier.run(sides.original, sides.draft, budgetS * 1000, sides.toolFields, opts.onProgress ? onCases : undefined),
  );
  if (shared) verifier.cancel();
  opts.onProgress?.(
    shared
      ? { stage: "verify", message: `the same program as another release lifted in this run: its verification on ${cases} cases` }
      : { stage: "verify", message, done: 0, total: cases },
  );
  let v: VerifyResult;
  try {
    v = await outcome;
  } catch (e) {
    if (e instanceof VerifyBudgetExceeded)
      throw new SearchliftError(
        `verification stopped: it did not finish within ${budgetS} s (--verify-timeout)`,
        ExitCode.verifyTimeout,
        input,
      );
    throw new SearchliftError(`cannot verify: ${(e as Error).message}`, ExitCode.notLiftable, input);
  }
  const agreement = accepted(v, input);
  if (key && opts.verifications) recordAgreement(opts.verifications, key, agreement);
  opts.onProgress?.({ stage: "verify", message: `${v.agreed}/${v.cases} cases agree`, done: v.cases, total: v.cases });
  return agreement;
}

/** A verification's agreement, or the error that says why it does not prove the lift. */
function accepted(v: VerifyResult, input: string): Agreement {
  const refused = verificationRefused(v);
  if (refused) throw new SearchliftError(refused.message, refused.exitCode, input);
  return { cases: v.cases, agreed: v.agreed, bothReturned: v.bothReturned, bothThrew: v.bothThrew };
}

/** The file that identifies the release: the input itself, or for a package folder the program in it. */
function hashedFile(c: Container): string {
  return statSync(c.input).isDirectory() ? c.file : c.input;
}

/** The input by name, never by absolute path (which would carry a home folder or a user name into the module). */
function inputName(c: Container): string {
  const file = hashedFile(c);
  return file === c.input ? basename(c.input) : `${basename(c.input)}/${relative(c.input, file).split(sep).join("/")}`;
}

const PROVENANCE_MARK = "\nconst provenance = ";

/**
 * The code of a lifted module without what describes its origin (the header comments, the
 * provenance object): what two releases share when only minified names changed.
 */
export function liftedCode(moduleText: string): string {
  const start = moduleText.search(/^(?!\/\/)(?=\S)/m);
  const end = moduleText.indexOf(PROVENANCE_MARK);
  return moduleText.slice(Math.max(0, start), end < 0 ? undefined : end).trimEnd() + "\n";
}

/** The header's Verified line: "agrees with the original on 2000/2000 corpus cases (1965 returned normally on both sides, 35 threw on both)". */
function verifiedLine(a: Agreement): string {
  return `agrees with the original on ${a.agreed}/${a.cases} corpus cases (${outcomeCounts(a)})`;
}

function header(
  pack: RoutinePack,
  p: {
    client: string;
    version: string;
    platform: string;
    signature: string;
    input: { file: string; sha256: string };
    modules: Array<{ name: string }>;
    toolFields?: string[];
  },
  verified: unknown,
): string {
  const v = typeof verified === "object" && verified ? verifiedLine(verified as Agreement) : String(verified);
  // What the module is, in plain lines, then where it comes from.
  return [
    `// ${p.client} ${p.version} (${p.platform}) — ${pack.title}, lifted by searchlift ${VERSION}.`,
    `// The release's own code with readable names, pure: no imports, no host objects.`,
    `// Verified: ${v}.`,
    `// Contract: ${pack.contractSummary}.`,
    `// Read from the top: the contract's functions and the adapter they share, then the release's code,`,
    `// its entry points first and its helpers after, each with what is known of it.`,
    "//",
    `// Matched ${p.signature} in ${lineCommentText(p.input.file)} (sha256 ${p.input.sha256}).`,
    `// From: ${lineCommentText(p.modules.map((m) => m.name).join(", "))}.`,
    ...(p.toolFields ? [`// Reads tool fields the contract does not name, passed through as given: ${p.toolFields.join(", ")}.`] : []),
    "",
    "",
  ].join("\n");
}

/**
 * The sha256 of a module's stored bytes, read a window at a time into one small buffer: on a fresh
 * buffer of the module's size (six megabytes) the page faults cost several times the hash itself, and
 * hashing the decoded text encodes it into such a buffer first.
 */
function moduleSha256(c: Container, m: ModuleEntry): string {
  const hash = createHash("sha256");
  const window = (hashWindow ??= Buffer.allocUnsafe(1 << 20));
  for (let at = m.start; at < m.end; at += window.length) hash.update(c.readRange(at, Math.min(window.length, m.end - at), window));
  return hash.digest("hex");
}
let hashWindow: Buffer | undefined;

/**
 * Why a verification does not make the lift "verified", or null when it does. It does when every case
 * agreed and at least VERIFIED_SHARE of them returned normally on both sides (an error on both sides agrees
 * case by case, but compares no behaviour). Otherwise, in this order:
 * - stopped early (exit 15): the run ended before every case ran;
 * - inconclusive (exit 16): a sandbox limit stopped the original on some call (nothing can be compared there);
 * - failed (exit 10): some case differed; the smallest failing case is shown;
 * - inconclusive (exit 16): too few cases returned normally on both sides.
 * Every message but the first carries the counts.
 */
export function verificationRefused(v: VerifyResult): { message: string; exitCode: ExitCode } | null {
  if (v.stopped) return { message: `verification stopped after ${v.cases} cases: ${v.stopped}`, exitCode: ExitCode.verifyTimeout };
  const why = v.firstOriginalError ? ` (first: ${v.firstOriginalError.slice(0, 160)})` : "";
  const counts = outcomeCounts(v);
  if (v.limitHits.original > 0) {
    return {
      message: `verification inconclusive: the original code hit a sandbox limit on ${v.limitHits.original} calls and failed on ${v.originalFailed}/${v.cases} cases${why}; ${counts}`,
      exitCode: ExitCode.inconclusive,
    };
  }
  if (v.differed > 0 || v.firstDisagreement) {
    const d = v.firstDisagreement;
    const smallest = d
      ? `; smallest failing case for ${d.fn}: ${JSON.stringify(d.case)} → original ${JSON.stringify(d.original)}, lifted ${JSON.stringify(d.emitted)}`
      : "";
    return { message: `verification failed: ${v.agreed}/${v.cases} cases agree (${counts})${smallest}`, exitCode: ExitCode.disagreement };
  }
  if (!returnedEnough(v.bothReturned, v.cases)) {
    const failed = v.originalFailed > 0 ? `the original code failed on ${v.originalFailed}/${v.cases} cases${why}; ` : "";
    return {
      message: `verification inconclusive: ${failed}only ${v.bothReturned}/${v.cases} cases returned normally on both sides (${counts}), and "verified" needs at least ${VERIFIED_SHARE.text}`,
      exitCode: ExitCode.inconclusive,
    };
  }
  return null;
}
