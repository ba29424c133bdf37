/**
 * Which generation of Claude Code's tool search a release belongs to, and the rules that generation has.
 *
 * Generations are those of docs/tool-search-history.md (1–11). The boundaries are where the project's own
 * tools saw the code change:
 * - the lifted module's text without its provenance (the key `track` groups releases by), from
 *   `searchlift lift --no-verify` on every Claude Code release in the test cache: 2.0.70 = 2.0.76 = 2.1.3 =
 *   2.1.7 (generation 1); 2.1.10 (2, server and action weights); 2.1.14 (3, name parts); 2.1.19 (4 and 5:
 *   the fast paths and `+term` arrive together as far as the cached releases show); 2.1.64 (6, searchHint,
 *   select lists, aliases); 2.1.112 (7, mcpInfo); 2.1.124, 2.1.200, 2.1.250 (8, coarse parts; only the
 *   client around the scorer changes); 2.1.300 (9); 2.1.317, 2.1.325 (10); 2.1.332 (11);
 * - change points that `diff` reports between adjacent releases (src/diff/witnesses.test.ts): 2.1.270 →
 *   2.1.271 `select:` finds an MCP tool by its bare tool name; 2.1.294 → 2.1.295 the caps appear;
 * - found by this test, then read in the release itself: 2.1.295 cuts searchHints at 2048 characters,
 *   2.1.300 at 4096 (the notes give only 4096); the release between them where it changed is not pinned;
 * - within generation 10, reading the lifted 2.1.317 and 2.1.325: device tools load together from 2.1.317;
 *   the words bash/shell, Eval over REPL's alias and the keyword name lookup from 2.1.325;
 * - the module contract: releases from 2.1.101 read mcpInfo (generation 7).
 * Between two cached releases of different generations the first release is not pinned: the table starts a
 * rule at the first release known to have it, and the test runs only releases on or after a boundary.
 * `track` over the full range would pin them; it was not run here (it fetches every release).
 */

export interface Rules {
  version: string;
  generation: number;
  /** `select:` takes a comma list and looks names up by alias too (from generation 6). */
  selectList: boolean;
  /** `select:` falls back to MCP tools whose bare tool name is the requested name (from 2.1.271). */
  selectBareToolName: boolean;
  /** Query, word, select-name and searchHint caps (from 2.1.295). */
  caps: boolean;
  /** The searchHint cap in characters: 2048 in 2.1.295, 4096 by 2.1.300 (the notes give only the later). */
  hintChars: number;
  /** The client turns keywords into tool names after the search (2.1.325 on, as lifted, this only adds
   *  messages, but it looks names up and can throw on an mcpInfo without toolName). */
  keywordNameLookup: boolean;
  /** Device tools of the remote-devices server load together (from 2.1.317). */
  devicesTogether: boolean;
  /** The words bash and shell pull the device tools in (from 2.1.325). */
  shellPullsDevices: boolean;
  /** Looking up Eval by name or alias, a tool named Eval beats REPL's alias (from 2.1.325). */
  evalOverReplAlias: boolean;
}

/** First release (in the sense above) of each generation, newest first. */
const GENERATION_FROM: Array<[string, number]> = [
  ["2.1.332", 11],
  ["2.1.317", 10],
  ["2.1.295", 9],
  ["2.1.124", 8],
  ["2.1.101", 7],
  ["2.1.64", 6],
  ["2.1.19", 4],
  ["2.1.14", 3],
  ["2.1.10", 2],
  ["2.0.70", 1],
];

export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

export function generationOf(version: string): number {
  for (const [from, g] of GENERATION_FROM) if (compareVersions(version, from) >= 0) return g;
  throw new Error(`no tool search before 2.0.70: ${version}`);
}

export function rulesFor(version: string): Rules {
  const generation = generationOf(version);
  const atLeast = (v: string) => compareVersions(version, v) >= 0;
  return {
    version,
    generation,
    selectList: generation >= 6,
    selectBareToolName: atLeast("2.1.271"),
    caps: atLeast("2.1.295"),
    hintChars: atLeast("2.1.300") ? 4096 : 2048,
    keywordNameLookup: atLeast("2.1.325"),
    devicesTogether: atLeast("2.1.317"),
    shellPullsDevices: atLeast("2.1.325"),
    evalOverReplAlias: atLeast("2.1.325"),
  };
}
