/**
 * A routine pack: what is specific to one routine, handed to the stages (lift, verify, diff, track) as a
 * parameter, so that they do not import a routine's folder. src/routines/tool-search/index.ts is the one
 * pack so far; src/routines/packs.ts lists the packs by id, for a process that receives only the id (the
 * verifier).
 *
 * The shapes below (the lifted code, probes, contract calls, witnesses) are those of the scorer-module
 * contract's `(query, deferred, { loaded, maxResults })` calls, which every pack's module answers.
 */
import type { CodeTokens } from "../diff/code-tokens.js";
import type { ContractCall } from "../diff/witness-run.js";
import type { Witness } from "../diff/witness-search.js";
import type { Container } from "../extract/types.js";
import type { VerifyCase } from "../verify/verify.js";
import type { SemanticRow, Semantics } from "./tool-search/semantics.js";
import type { Probe } from "./tool-search/probe-calls.js";
import type { Routines, ToolSearchCode } from "./tool-search/tool-search-code.js";

export type { Semantics, SemanticRow };

export interface RoutinePack {
  /** The routine's name: provenance.routine, the lifted files' base name (`<id>.mjs`, `<id>.d.ts`). */
  id: string;
  /** Its name in sentences and module headers ("tool search"). */
  title: string;
  /** Signature ids, in the signatures folder: the routine itself and the call site its ports come from. */
  signatures: { routine: string; call: string };
  /** The routine's code lifted from a container: located code, ports and adapter (rejects with LiftError).
   *  Async, so that the lifting code is loaded only by the stage that lifts, not by the verifier. */
  liftCode(container: Container, found: Routines): Promise<ToolSearchCode>;
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
  witnessKind(w: Witness): string;
  /** The tools a witness's answers name (shrinking keeps these first). */
  witnessFocus(w: Witness): string[];
  witnessSummary(w: Witness): string;
  /** Calls made from a witness that can say the rule behind it, and the rule's sentence from their answers. */
  witnessRule?(w: Witness): { calls: ContractCall[]; say(before: unknown[], after: unknown[]): string | null } | null;
}
