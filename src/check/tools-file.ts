/**
 * Tools read from a file: a `tools/list` result (`{ "tools": [ … ] }`, optionally with `"serverName"`) or a
 * bare array of tools. Every tool needs a non-empty string name; description and _meta are optional.
 */
import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import { ExitCode, SearchliftError } from "../errors.js";
import { checkShape } from "../schemas/json.js";
import type { ListedTool } from "./naming.js";

export interface ToolsFile {
  tools: ListedTool[];
  /** The file's own `serverName`, when it names one. */
  serverName?: string;
}

/** One listed tool as the client reads it: other fields are dropped, and a _meta that is not an object. */
const listedToolSchema = z.object({
  name: z.string().check(z.minLength(1)),
  description: z.optional(z.string()),
  _meta: z.optional(z.unknown()),
});

/** The list's own shape; each tool is checked apart, to say which one is wrong (a baseline reads the same). */
export const toolsListSchema = z.union([
  z.array(z.unknown()),
  z.looseObject({ tools: z.array(z.unknown()), serverName: z.optional(z.unknown()) }),
]);

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
  const r = checkShape(toolsListSchema, value);
  if (!r.ok) throw bad("no tools array");
  const list = Array.isArray(r.value) ? r.value : r.value.tools;
  const tools = list.map((t, i) => listedTool(t, (why) => bad(`tool ${i + 1}: ${why}`)));
  const serverName =
    !Array.isArray(r.value) && typeof r.value.serverName === "string" && r.value.serverName ? r.value.serverName : undefined;
  return { tools, ...(serverName ? { serverName } : {}) };
}

/** One listed tool, checked: what the client would read from it. `bad` is told which field is wrong. */
export function listedTool(t: unknown, bad: (why: string) => Error): ListedTool {
  const r = checkShape(listedToolSchema, t);
  if (!r.ok) throw bad(r.why);
  const { name, description, _meta: meta } = r.value;
  return {
    name,
    ...(description !== undefined ? { description } : {}),
    ...(meta && typeof meta === "object" && !Array.isArray(meta) ? { _meta: meta as Record<string, unknown> } : {}),
  };
}
