/**
 * The queries `check` asks. Given ones belong to every tool of the server; made ones belong to the tool they
 * are made from: its name's words, its description's first words, its hint, and `select:` with its full and
 * its bare name — the ways an agent reaches for a tool it has been told exists.
 */
import { readFileSync } from "node:fs";
import { ExitCode, SearchliftError } from "../errors.js";
import type { ClientTool } from "./naming.js";

export interface Query {
  text: string;
  /** Full names of the tools this query is meant to find (a tool none of its queries finds is unfound). */
  owners: string[];
}

/** How many of a description's first words make its query (an agent's query is a few words). */
const DESCRIPTION_WORDS = 5;

/** The words of a tool name: split at `_`, `-`, `.` and camelCase humps, lower-cased. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

function firstWords(text: string, n: number): string {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean)
    .slice(0, n)
    .join(" ")
    .toLowerCase();
}

/** The queries made from one tool's own words. */
export function toolQueries(t: ClientTool): string[] {
  const qs = [
    nameWords(t.mcpInfo.toolName).join(" "),
    firstWords(t.description, DESCRIPTION_WORDS),
    t.searchHint?.trim() ?? "",
    `select:${t.name}`,
    `select:${t.mcpInfo.toolName}`,
  ];
  return qs.filter((q) => q.length > 0);
}

/** Queries made for each deferred tool; a text made for several tools is asked once, for all of them. */
export function defaultQueries(tools: ClientTool[]): Query[] {
  const byText = new Map<string, Query>();
  for (const t of tools.filter((x) => !x.alwaysLoad)) {
    for (const text of toolQueries(t)) {
      const q = byText.get(text) ?? { text, owners: [] };
      if (!q.owners.includes(t.name)) q.owners.push(t.name);
      byText.set(text, q);
    }
  }
  return [...byText.values()];
}

/** Queries the user gave (--query, --queries FILE): each belongs to every deferred tool. */
export function givenQueries(texts: string[], tools: ClientTool[]): Query[] {
  const owners = tools.filter((t) => !t.alwaysLoad).map((t) => t.name);
  return [...new Set(texts.map((t) => t.trim()).filter(Boolean))].map((text) => ({ text, owners }));
}

/** A queries file: one query a line; blank lines are skipped. */
export function readQueriesFile(path: string): string[] {
  try {
    return readFileSync(path, "utf8").split(/\r?\n/);
  } catch (e) {
    throw new SearchliftError(`cannot read the queries file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.unreadable, path);
  }
}
