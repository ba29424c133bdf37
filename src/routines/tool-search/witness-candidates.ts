/**
 * Candidate calls for the witness search of the tool search (src/diff/witness-search.ts), best first, the same
 * sequence for the same code on every run (the corpus is seeded with WITNESS_SEED). First, the calls built
 * from the changed lines of the two modules (`tokens.changedCode`), which hold the very literals that would
 * find the change:
 * - their numbers as thresholds and caps: query words of a length just below, at and above the number (a new
 *   `term.length > 3`), queries of exactly as many distinct matching words around it (a word cap
 *   `slice(0, 4)`), as many tools around it, and the characters, `select:` names, hints and descriptions
 *   numberCalls tries;
 * - the texts they test names against (`name.startsWith("mcp__remote-devices__device_")`, `includes`, `endsWith`,
 *   `===`): tools named with that prefix, part, suffix or name, MCP-shaped when the name is, asked for by name,
 *   by `select:`, by a word of the name, deferred and loaded, and all such tools together;
 * - the names they compare for equality, in pairs: a tool named one of them holding the other as an alias,
 *   beside a tool named the other (a lookup by name or alias that now prefers one of them);
 * - the properties they read: a tool carrying that field (an unknown one too: `tool.title`), its value made of
 *   words the query holds, as a string, a list and a flag, beside a tool without it; a property read inside a
 *   contract field (`entry.mcpInfo.nameKey`) inside the tool's own object of that field; an object field of the
 *   contract (mcpInfo) holding a text, a flag or a number;
 * - their strings and regexes: as queries, tool names, `select:` names, and joining a tool's name parts; a long
 *   text (a paragraph the code strips from descriptions) inside a description, the query one of its words;
 * - ties: tools that score the same, listed in an order their names do not sort in (a tie-breaker on names).
 * Then, in turn so that any budget gets some of each (the changed code's calls still among them):
 * - the code: string literals, regexes, numbers and names of the two modules (those on changed lines first),
 *   as queries, `select:` names and description words; numbers as caps, tried just below, at and above
 *   (query characters, words, `select:` names, searchHint characters, maxResults);
 * - a grammar of realistic catalogs (MCP tools with and without `toolName`, built-ins with aliases and
 *   searchHints, tools deferred or loaded) and queries built from their names, parts, servers, descriptions,
 *   hints and aliases in several cases, `select:` with full, bare and aliased names and lists, `+required`,
 *   `mcp__` prefixes, long inputs and unicode;
 * - the behaviour catalog and its queries (catalogs.ts);
 * - the verification corpus (corpus.ts).
 */
import type { CodeTokens } from "../../diff/code-tokens.js";
import type { ContractCall } from "../../diff/witness-run.js";
import {
  aliasCalls,
  changedStringCalls,
  fieldCalls,
  longStringCalls,
  nameTestCalls,
  notObjectCalls,
  thresholdCalls,
  tieCalls,
  toolCountCalls,
  wordCapCalls,
} from "./changed-code-calls.js";
import { catalogCalls, corpusCalls, grammarCalls, numberCalls, stringCalls } from "./grammar-calls.js";

/** What the changed lines read and compare, taken in turn: the calls most likely to show a small change. */
function* changedCalls(tokens: CodeTokens): Generator<ContractCall> {
  const c = tokens.changedCode;
  yield* roundRobin([
    [thresholdCalls(c.numbers), 6],
    [wordCapCalls(c.numbers), 6],
    [nameTestCalls(c.nameTests), 9],
    [aliasCalls(c.nameTests, c.members), 6],
    [notObjectCalls(c.members, c.paths), 3],
    [fieldCalls(c.members, c.paths), 6],
    [changedStringCalls(c.strings), 6],
    [longStringCalls(c.strings), 3],
    [numberCalls(c.numbers), 6],
    [toolCountCalls(c.numbers), 3],
    [tieCalls(), 3],
  ]);
}

/** Each source in turn, `perTurn` calls from each, until all are spent. */
function* roundRobin(sources: Array<[Iterator<ContractCall>, number]>): Generator<ContractCall> {
  const live = new Set(sources);
  while (live.size > 0) {
    for (const entry of [...live]) {
      const [s, perTurn] = entry;
      for (let i = 0; i < perTurn; i++) {
        const next = s.next();
        if (next.done) {
          live.delete(entry);
          break;
        }
        yield next.value;
      }
    }
  }
}

/** Calls from the changed code that come before any other (the rest of them join the turns). */
const CHANGED_FIRST = 600;
/** The verification corpus's seed here: fixed, so that the candidates are the same on every run. */
export const WITNESS_SEED = 1;

/** The changed code's calls first, then every source in turn, a few calls from each, until all are spent (the
 *  corpus never is). The catalog's 280-tool calls cost the most, so fewer of them come per turn (all within the
 *  default budget still). The same tokens give the same sequence. */
export function* witnessCandidates(tokens: CodeTokens, seed = WITNESS_SEED): Generator<ContractCall> {
  const changed = changedCalls(tokens);
  for (let i = 0; i < CHANGED_FIRST; i++) {
    const next = changed.next();
    if (next.done) break;
    yield next.value;
  }
  yield* roundRobin([
    [changed, 6],
    [stringCalls(tokens), 12],
    [numberCalls(tokens.numbers), 8],
    [grammarCalls(), 12],
    [catalogCalls(), 4],
    [corpusCalls(seed), 12],
  ]);
}
