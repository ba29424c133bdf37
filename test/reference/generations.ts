/**
 * Which generation of Claude Code's tool search a release belongs to, and the rules that generation has.
 *
 * Generations are those of docs/tool-search-history.md (1–11). Each boundary below was pinned by `searchlift
 * track --no-verify` over every release of a range (it groups releases whose lifted code is identical and
 * runs `diff`'s behaviour search at each change), then by lifting the releases on either side with
 * verification (2000/2000) and answering 400 random calls with this reference:
 * - 1 through 2.1.8 (2.0.70, 2.0.76, 2.1.3, 2.1.7 and 2.1.8 lift to the same code); 2 from 2.1.9; 3 from
 *   2.1.14 (there is no 2.1.13); 4, the fast paths (a query that is a name in any case, an `mcp__` prefix),
 *   from 2.1.16; 5, `+term`, from 2.1.19 (track 2.1.7–2.1.63: 2.1.8 → 2.1.9, 2.1.12 → 2.1.14,
 *   2.1.15 → 2.1.16, 2.1.18 → 2.1.19 are its change points in behaviour);
 * - aliases: `select:` and a tool's description look names up by alias too from 2.1.59 (track: 2.1.58 →
 *   2.1.59; 2.1.59–2.1.63 lift to one routine, still generation 5 otherwise);
 * - 6 (searchHint, select lists, a loaded tool found by its exact name) first in 2.1.64 (2.1.61–2.1.63 do
 *   not have it); gone again in 2.1.67 and 2.1.68, which lift to the very routine of 2.1.59–2.1.63
 *   (2.1.67: 400/400 as 5 with aliases, 396/400 as 5 without, 351/400 as 6);
 *   back in 2.1.69 (400/400 as 6), unchanged in behaviour through 2.1.100;
 * - 7 (mcpInfo) first in 2.1.101 (track: 2.1.100 → 2.1.101);
 * - 8 (coarse parts) first in 2.1.113, the first native-only release: 2.1.112 (cli.js) is 7, 2.1.113
 *   (linux-x64) answers 400/400 as 8 and 333/400 as 7;
 * - 2.1.271 `select:` by bare MCP tool name, 2.1.295 the caps (9): change points `diff` reports between
 *   adjacent releases (src/diff/witnesses.test.ts);
 * - the searchHint cut: 2048 characters in 2.1.295, 4096 from 2.1.296 (the only code change between them);
 * - 10: device tools load together from 2.1.317 (2.1.316 answers 400/400 as 9); a tool named Eval beats
 *   REPL's alias from 2.1.318 (2.1.317 not, 2.1.318 and 2.1.319 do; 2.1.316, 2.1.318 and 2.1.319 were
 *   read from lifts without verification); bash/shell pulling device tools and the keyword name lookup
 *   both first in 2.1.323 (track 2.1.319–2.1.325: 2.1.319 | 2.1.321–2.1.322 | 2.1.323–2.1.325, the only
 *   behaviour change 2.1.322 → 2.1.323). Each is needed on its own: 2.1.323 answers 400/400 with both,
 *   398/400 with the lookup alone, 387/400 with bash/shell alone, 385/400 with neither; 2.1.322 answers
 *   400/400 with neither, 398/400 with bash/shell, 387/400 with the lookup (2.1.321: 400/400 with neither);
 * - 11 first in 2.1.326: exact names case and all before other cases (2.1.326–2.1.328 answer 400/400 as 11,
 *   398/400 as 10). Two later changes are not modelled and change nothing the reference's calls reach
 *   (2.1.329–2.1.332 answer 400/400 as 11; track over 2.1.326 and 2.1.328–2.1.332 finds no behaviour
 *   change): parsed names come from the per-session cache first in 2.1.331 (the scorer's variant changes
 *   there; 2.1.330 does not have it), and the description boilerplate clean-up is first in 2.1.332 (2.1.331
 *   does not have it; the paragraph never appears in the reference's inputs, so no rule switch follows).
 *   2.1.334 answers 300/300 as 11 too, and `diff` finds no behaviour change over 2.1.332 → 2.1.333 →
 *   2.1.334 (both out for linux-x64 and linux-arm64 only when pinned): 2.1.333 reads the scorer's word
 *   patterns through a helper that throws on a missing key, and 2.1.334 can add an MCP server's own name to
 *   a tool's coarse parts, behind a flag of the description cache that the contract's client leaves off.
 * Publication dates do not follow version order here (2.1.67 and 2.1.68 were published months after 2.1.69),
 * so the table is by version number.
 */

export interface Rules {
  version: string;
  generation: number;
  /** `select:` takes a comma list, looked up in deferred then all tools (generation 6). */
  selectList: boolean;
  /** Name lookups (a tool's description, `select:` names) match aliases too (from 2.1.59; generation 6
   *  has them, and so do 2.1.67–2.1.68, which otherwise answer as generation 5). */
  aliases: boolean;
  /** `select:` falls back to MCP tools whose bare tool name is the requested name (from 2.1.271). */
  selectBareToolName: boolean;
  /** Query, word, select-name and searchHint caps (from 2.1.295). */
  caps: boolean;
  /** The searchHint cap in characters: 2048 in 2.1.295, 4096 from 2.1.296 (the notes give only the later). */
  hintChars: number;
  /** The client turns keywords into tool names after the search (2.1.323 on, as lifted, this only adds
   *  messages, but it looks names up and can throw on an mcpInfo without toolName). */
  keywordNameLookup: boolean;
  /** Device tools of the remote-devices server load together (from 2.1.317). */
  devicesTogether: boolean;
  /** The words bash and shell pull the device tools in (from 2.1.323). */
  shellPullsDevices: boolean;
  /** Looking up Eval by name or alias, a tool named Eval beats REPL's alias (from 2.1.318). */
  evalOverReplAlias: boolean;
}

/** First release of each generation, newest first. */
const GENERATION_FROM: Array<[string, number]> = [
  ["2.1.326", 11],
  ["2.1.317", 10],
  ["2.1.295", 9],
  ["2.1.113", 8],
  ["2.1.101", 7],
  ["2.1.64", 6],
  ["2.1.19", 5],
  ["2.1.16", 4],
  ["2.1.14", 3],
  ["2.1.9", 2],
  ["2.0.70", 1],
];

export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** Releases that went back to an older generation (built from an older line, by their behaviour). */
const GENERATION_EXCEPTIONS: Record<string, number> = { "2.1.67": 5, "2.1.68": 5 };

/** First release whose name lookups match aliases too (2.1.67–2.1.68, though generation 5, have them). */
const ALIASES_FROM = "2.1.59";

export function generationOf(version: string): number {
  const exception = GENERATION_EXCEPTIONS[version];
  if (exception !== undefined) return exception;
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
    aliases: atLeast(ALIASES_FROM),
    selectBareToolName: atLeast("2.1.271"),
    caps: atLeast("2.1.295"),
    hintChars: atLeast("2.1.296") ? 4096 : 2048,
    keywordNameLookup: atLeast("2.1.323"),
    devicesTogether: atLeast("2.1.317"),
    shellPullsDevices: atLeast("2.1.323"),
    evalOverReplAlias: atLeast("2.1.318"),
  };
}
