/**
 * A routine pack: what is specific to one routine, handed to the stages (lift, verify, diff, track, report) as a
 * parameter, so that they do not import a routine's folder. src/routines/tool-search/index.ts is the one pack so
 * far; the wiring that chooses it (src/clients/claude-code.ts) is above the stages, and a process handed only a
 * pack's module (the verifier's child) loads it from there.
 *
 * The types below speak only of the scorer-module contract's `(query, deferred, { loaded, maxResults })` calls
 * (contract.ts), which every pack's module answers, and of what the stages read: a pack refines them.
 */
import type { Node } from "../ast/pattern.js";
import type { Container, ModuleEntry } from "../extract/types.js";
import type { LocatedRoutine } from "../locate/locate.js";
import type { Signature } from "../locate/signature.js";
import type { CodeTokens, ContractCall, ContractWitness, VerifyCase } from "./contract.js";

/** The report's feature table: what a lifted module's text says, a value per feature. */
export type Semantics = Array<{ feature: string; value: string }>;

/** One feature read from two modules (or measured on them), changed or not. */
export interface SemanticRow {
  feature: string;
  before: string;
  after: string;
  changed: boolean;
}

/** Diff's behaviour catalog: one row's calls, and how their answers read. */
export interface Probe {
  feature: string;
  calls: ContractCall[];
  /** The row's value from the calls' answers (`{ error }` for a call that threw). */
  read: (answers: unknown[]) => string;
  /** The plain-language change, when the value changed ("now …", "no longer …"). */
  sentence: (before: string, after: string, afterAnswers: unknown[], beforeAnswers?: unknown[]) => string;
  /** The row this one measures again through another entry point: when both change alike, one sentence says so. */
  again?: string;
}

/** The routine and its call site as locate found them (pack.signatures): what `liftCode` starts from. */
export interface LocatedRoutines {
  scorer: LocatedRoutine;
  scorerSignature: Signature;
  call?: LocatedRoutine;
  callSignature?: Signature;
}

/** What the lift stage reads of a routine's lifted code. */
export interface LiftedCode {
  /** A classic script setting `globalThis.__searchlift` to the contract's functions over the original code. */
  original: string;
  /** The same, with readable names, as the body of an ES module (no exports of provenance yet). */
  readable: string;
  /** How many computed keys of `readable` pass through the key port. */
  portedKeys: number;
  /** The definitions the code is made of, roots first (`port`: ours, in place of the release's). */
  closure: { definitions: ReadonlyArray<{ module: ModuleEntry; node: Node; name: string; port?: string }> };
  /** Definition key (`<module path>#<name>`) → readable name. */
  names: ReadonlyMap<string, string>;
  /** Host calls cut out. */
  dropped: ReadonlyArray<{ name: string; at: { module: string; line: number; column: number } }>;
  /** How often each dead-code fold changed the readable copy (see src/lift/fold). */
  folded: Record<string, number>;
  /** Tool fields the routine reads that the contract does not name: passed through (`passed`, `within`, and
   *  `inner`, properties read inside a passed field), or refused with the reason. */
  toolFields: { passed: string[]; inner: string[]; within: string[]; refused: Array<{ name: string; why: string }> };
}

export interface RoutinePack {
  /** The routine's name: provenance.routine, the lifted files' base name (`<id>.mjs`, `<id>.d.ts`). */
  id: string;
  /** The path of the program that verifies a lift of this routine in a process of its own: a file of the pack's
   *  that calls verify-process.ts's runVerifierProgram with it (no module is loaded by a name handed over). */
  verifier: string;
  /** Its name in sentences and module headers ("tool search"). */
  title: string;
  /** Signature ids, in the signatures folder: the routine itself and the call site its ports come from. */
  signatures: { routine: string; call: string };
  /** The routine's code lifted from a container: located code, ports and adapter (rejects with LiftError).
   *  Async, so that the lifting code is loaded only by the stage that lifts, not by the verifier. */
  liftCode(container: Container, found: LocatedRoutines): Promise<LiftedCode>;
  /** The lifted module's interface in one line, for its header ("searchTools / … , defaults, provenance"). */
  contractSummary: string;
  /** The names the lifted module exports, in order. */
  exports: readonly string[];
  /** The declarations (.d.ts text) written beside every lifted module. */
  declarations(): string;
  /** The verification corpus: `count` cases, the same for the same count and fields; with `toolFields` (fields the
   *  routine reads that the contract does not name, and `field.property` for a property read inside one), the same
   *  cases with values for them on some tools. */
  corpus(count: number, toolFields?: readonly string[]): VerifyCase[];
  /** The report's feature table: what a lifted module's text says (weights, caps, features), read without running it. */
  semantics(moduleText: string): Semantics;
  /** Two such readings side by side, a row per feature, changed or not. */
  semanticDiff(before: Semantics, after: Semantics): SemanticRow[];
  /** For diff: the inputs one module reads and the other does not (tool fields beyond the contract), from the
   *  two modules' text, as rows and sentences. */
  inputChanges?(before: string, after: string): { rows: SemanticRow[]; sentences: string[] };
  /** Diff's behaviour catalog: probes from the numbers in both modules' code, and their rows. */
  probes(numbers: readonly number[]): Probe[];
  /** `throws`: the sentences of rows where a call throws on one side, said after the result changes. */
  probeRows(probes: Probe[], before: unknown[], after: unknown[]): { rows: SemanticRow[]; sentences: string[]; throws?: string[] };
  /** Diff's witness search: candidate calls, the kind that makes two witnesses the same, the tools to keep, one sentence each. */
  witnessCandidates(tokens: CodeTokens): Iterable<ContractCall>;
  witnessKind(w: ContractWitness): string;
  /** The tools a witness's answers name (shrinking keeps these first). */
  witnessFocus(w: ContractWitness): string[];
  witnessSummary(w: ContractWitness): string;
  /** Calls made from a witness that can say the rule behind it, and the rule's sentence from their answers. */
  witnessRule?(w: ContractWitness): { calls: ContractCall[]; say(before: unknown[], after: unknown[]): string | null } | null;
}
