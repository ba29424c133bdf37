/**
 * What the probes (probes.ts, rule-probes.ts) are made of: a probe's shape, the contract calls it makes, the tools
 * they search, and how an answer reads — a list of names, scores, or the error a call threw.
 */
import type { ContractCall } from "../contract.js";
import type { Probe } from "../pack.js";
import type { Tool } from "./corpus.js";

export type { Probe };

export const mcp = (server: string, tool: string, description: string, searchHint?: string): Tool => ({
  name: `mcp__${server}__${tool}`,
  description,
  isMcp: true,
  mcpInfo: { serverName: server, toolName: tool },
  ...(searchHint ? { searchHint } : {}),
});

export const call = (fn: ContractCall["fn"], query: string, deferred: Tool[], loaded: Tool[] = []): ContractCall => ({
  fn,
  query,
  deferred,
  loaded,
});

export const isError = (v: unknown): v is { error: string } =>
  typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { error?: unknown }).error === "string";

export const thrown = (xs: unknown[]) => xs.find(isError);

export const has = (v: unknown, name: string) => Array.isArray(v) && v.includes(name);

/** An answer as a sentence shows it: names, or for scoreTools each name with its score. */
export const shown = (v: unknown) =>
  Array.isArray(v)
    ? v.length
      ? v
          .map((x) =>
            typeof x === "object" && x !== null
              ? `${String((x as { name?: unknown }).name)} ${String((x as { score?: unknown }).score)}`
              : String(x),
          )
          .join(", ")
      : "nothing"
    : isError(v)
      ? `throws (${v.error})`
      : String(v);
