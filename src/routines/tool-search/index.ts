/**
 * The tool-search routine pack (see ../pack.ts): Claude Code's keyword search over deferred tools, lifted
 * into the scorer-module contract (docs/scorer-module-contract.md).
 */
import { readFileSync } from "node:fs";
import type { RoutinePack } from "../pack.js";
import { defaultCorpus } from "./corpus.js";
import { probeRows, toolSearchProbes } from "./probes.js";
import { moduleSemantics, semanticDiff } from "./semantics.js";
import { witnessCandidates } from "./witness-candidates.js";
import { witnessFocus, witnessKind, witnessSummary } from "./witness-summary.js";

/** The shipped folder of the routine's signatures, which also holds the lifted module's declarations. */
const SIGNATURES = new URL("../../../signatures/tool-search/", import.meta.url);

let declarations: string | undefined;

export const toolSearchPack: RoutinePack = {
  id: "tool-search",
  title: "tool search",
  signatures: { routine: "tool-search/scorer", call: "tool-search/call" },
  liftCode: async (container, found) => (await import("./tool-search-code.js")).toolSearchCode(container, found),
  contractSummary: "searchTools / scoreTools / toolSearch(query, deferred, { loaded, maxResults }), defaults, provenance",
  exports: ["searchTools", "scoreTools", "toolSearch", "defaults", "provenance"],
  declarations: () => (declarations ??= readFileSync(new URL("lifted-module.d.ts", SIGNATURES), "utf8")),
  corpus: (count) => defaultCorpus(1, count),
  semantics: moduleSemantics,
  semanticDiff,
  probes: toolSearchProbes,
  probeRows,
  witnessCandidates: (tokens) => witnessCandidates(tokens),
  witnessKind,
  witnessFocus,
  witnessSummary,
};
