/**
 * Tools read from a file: a `tools/list` result (`{ "tools": [ … ] }`, optionally with `"serverName"`) or a
 * bare array of tools. Every tool needs a non-empty string name; description and _meta are optional.
 */
import { readFileSync } from "node:fs";
import { ExitCode, SearchliftError } from "../errors.js";
import type { ListedTool } from "./naming.js";

export interface ToolsFile {
  tools: ListedTool[];
  /** The file's own `serverName`, when it names one. */
  serverName?: string;
}

export function readToolsFile(path: string): ToolsFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new SearchliftError(`cannot read the tools file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, ExitCode.unreadable, path);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new SearchliftError(`not JSON: ${(e as Error).message}`, ExitCode.usage, path);
  }
  const bad = (why: string) =>
    new SearchliftError(
      `not a tools list (${why}): expected { "tools": [ { "name", "description" } ] } or an array of tools`,
      ExitCode.usage,
      path,
    );
  const obj = value as { tools?: unknown; serverName?: unknown };
  const list = Array.isArray(value) ? value : obj && typeof obj === "object" ? obj.tools : undefined;
  if (!Array.isArray(list)) throw bad("no tools array");
  const tools = list.map((t, i) => listedTool(t, () => bad(`tool ${i + 1}`)));
  const serverName = !Array.isArray(value) && typeof obj.serverName === "string" && obj.serverName ? obj.serverName : undefined;
  return { tools, ...(serverName ? { serverName } : {}) };
}

/** One listed tool, checked: what the client would read from it. */
export function listedTool(t: unknown, bad: () => Error): ListedTool {
  const x = t as Record<string, unknown> | null;
  if (!x || typeof x !== "object" || typeof x["name"] !== "string" || !x["name"]) throw bad();
  if (x["description"] !== undefined && typeof x["description"] !== "string") throw bad();
  const meta = x["_meta"];
  return {
    name: x["name"],
    ...(typeof x["description"] === "string" ? { description: x["description"] } : {}),
    ...(meta && typeof meta === "object" && !Array.isArray(meta) ? { _meta: meta as Record<string, unknown> } : {}),
  };
}
