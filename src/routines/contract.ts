/**
 * The scorer-module contract's call as the stages handle it, whatever the routine: `fn(query, deferred,
 * { loaded, maxResults })` (docs/scorer-module-contract.md). Declared here, below the stages and the packs, so
 * that verify, diff and the pack interface (pack.ts) share these types without importing a routine pack.
 */

/** A tool: a name and the contract's optional fields, and any field a release reads beyond them (passed as
 *  given). A pack refines it (tool search: `Tool` in its lifted-module.d.ts, of the same shape). */
export interface ContractTool {
  name: string;
  description?: string;
  searchHint?: string;
  isMcp?: boolean;
  mcpInfo?: { serverName: string; toolName?: string };
  aliases?: string[];
  [field: string]: unknown;
}

/** The contract's three functions. */
export type ContractFn = "searchTools" | "scoreTools" | "toolSearch";

/** One contract call's inputs: `fn(query, deferred, { loaded, maxResults? })`. */
export interface ContractCall {
  fn: ContractFn;
  query: string;
  deferred: ContractTool[];
  loaded: ContractTool[];
  maxResults?: number;
}

/** A call both modules answered differently, with both answers. */
export interface ContractWitness extends ContractCall {
  before: unknown;
  after: unknown;
}

/** One verification case: a call's inputs, for all three functions; `kind` names the generator that made the query. */
export interface VerifyCase {
  query: string;
  deferred: ContractTool[];
  loaded?: ContractTool[];
  maxResults?: number;
  kind?: string;
}

/** The changed lines' own material, from both modules (the first module's removed lines, then the second's
 *  added ones), without repeats, in the order of the code. */
export interface ChangedCode {
  strings: string[];
  numbers: number[];
  names: string[];
  /** Names read as properties (`x.name`, `x?.name`), those of JavaScript's built-ins (`length`, `slice`,
   *  `toLowerCase`, …) left out: the fields and options the changed code reads. */
  members: string[];
  /** Properties read on a property or a variable (`entry.mcpInfo.nameKey`: `entry.mcpInfo`, `mcpInfo.nameKey`),
   *  the built-ins' left out: where each member is read. */
  paths: string[];
  /** Texts the changed lines test a string against: `s.startsWith(…)` (prefix), `s.endsWith(…)` (suffix),
   *  `s.includes(…)` (part), `s === …` (equal); each a string literal, a constant of the module holding one, or
   *  a template or `+` of those. At most MAX_NAME_TESTS (code-tokens.ts). */
  nameTests: NameTest[];
  /** The changed lines, trimmed, at most MAX_CHANGED_LINES (code-tokens.ts). */
  lines: string[];
}

export interface NameTest {
  test: "prefix" | "suffix" | "part" | "equal";
  text: string;
}

/** What diff reads from the two modules' code (code-tokens.ts), for a pack's witness candidates. */
export interface CodeTokens {
  /** String literals and regex sources (as written), changed lines' first, without repeats. */
  strings: string[];
  /** Numeric constants, changed lines' first. */
  numbers: number[];
  /** Property and identifier names, changed lines' first. */
  names: string[];
  /** How many tokens came from lines that differ between the two modules. */
  changed: number;
  /** The changed lines' tokens alone. */
  changedCode: ChangedCode;
}
