/**
 * The tool-search routine pack (see ../pack.ts): Claude Code's keyword search over deferred tools, lifted
 * into the scorer-module contract (docs/scorer-module-contract.md).
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import type { RoutinePack } from "../pack.js";
import { defaultCorpus, withToolFields, type CorpusCase } from "./corpus.js";
import { probeRows, toolSearchProbes } from "./probes.js";
import { inputChanges, moduleSemantics, semanticDiff } from "./semantics.js";
import { witnessCandidates } from "./witness-candidates.js";
import { witnessRule } from "./witness-rules.js";
import { witnessFocus, witnessKind, witnessSummary } from "./witness-summary.js";

/** The shipped folder of the routine's signatures, which also holds the lifted module's declarations. */
const SIGNATURES = new URL("../../../signatures/tool-search/", import.meta.url);

let declarations: string | undefined;
/** The last corpus made without fields: a verifier makes it before it knows the fields, then adds their values. */
let lastCorpus: { count: number; cases: CorpusCase[] } | undefined;

function corpus(count: number, toolFields: readonly string[] = []): CorpusCase[] {
  if (lastCorpus?.count !== count) lastCorpus = { count, cases: defaultCorpus(1, count) };
  return withToolFields(lastCorpus.cases, toolFields);
}

export const toolSearchPack: RoutinePack = {
  id: "tool-search",
  // Beside this file, with its extension: verifier.js in dist/, as verify-process.js was.
  verifier: fileURLToPath(new URL(`verifier${extname(import.meta.url)}`, import.meta.url)),
  title: "tool search",
  signatures: { routine: "tool-search/scorer", call: "tool-search/call" },
  liftCode: async (container, found) => (await import("./tool-search-code.js")).toolSearchCode(container, found),
  contractSummary: "searchTools / scoreTools / toolSearch(query, deferred, { loaded, maxResults }), defaults, provenance",
  exports: ["searchTools", "scoreTools", "toolSearch", "defaults", "provenance"],
  declarations: () => (declarations ??= readFileSync(new URL("lifted-module.d.ts", SIGNATURES), "utf8")),
  corpus,
  semantics: moduleSemantics,
  semanticDiff,
  inputChanges,
  probes: toolSearchProbes,
  probeRows,
  witnessCandidates: (tokens) => witnessCandidates(tokens),
  witnessKind,
  witnessFocus,
  witnessSummary,
  witnessRule,
};
