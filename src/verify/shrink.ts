/**
 * The first disagreement of a verification (verify.ts), shrunk greedily to a small case that still disagrees:
 * fewer tools, a shorter query, fewer and shorter tool fields, each candidate run on both sides in the sandbox.
 */
import type { ContractTool as Tool } from "../routines/contract.js";
import { runInSandbox, type SandboxOptions } from "./sandbox.js";
import { callArgs, resultsAgree, type Disagreement, type VerifyCase, type VerifyOptions } from "./verify.js";

// ---------------------------------------------------------------------------------------------------------
// Shrinking

/** Smaller variants of a case, biggest reductions first. */
export function shrinkCandidates(c: VerifyCase): VerifyCase[] {
  const out: VerifyCase[] = [];
  const loaded = c.loaded ?? [];
  const withDeferred = (deferred: Tool[]) => ({ ...c, deferred });
  const withLoaded = (l: Tool[]) => ({ ...c, loaded: l });
  // Tools: keep a single deferred tool, drop loaded tools, then remove chunks (halves … singles).
  if (c.deferred.length > 1) for (const t of c.deferred) out.push(withDeferred([t]));
  if (loaded.length > 0) out.push(withLoaded([]));
  for (const [list, make] of [
    [c.deferred, withDeferred],
    [loaded, withLoaded],
  ] as const) {
    for (const chunk of chunkSizes(list.length)) {
      for (let i = 0; i < list.length; i += chunk) {
        if (chunk === list.length && list === loaded) continue; // already: loaded = []
        out.push(make([...list.slice(0, i), ...list.slice(i + chunk)]));
      }
    }
  }
  if (c.maxResults !== undefined) {
    const { maxResults: _m, ...rest } = c;
    out.push(rest);
  }
  // Query: drop whitespace-separated tokens, comma-separated entries, then chunks of characters.
  for (const q of shorterQueries(c.query)) out.push({ ...c, query: q });
  // Tool fields, once there are few tools left.
  if (c.deferred.length + loaded.length <= 8) {
    const fieldVariants = (t: Tool): Tool[] => {
      const v: Tool[] = [];
      for (const k of ["description", "searchHint", "aliases", "mcpInfo", "isMcp"] as const) {
        if (t[k] !== undefined) {
          const { [k]: _drop, ...rest } = t;
          v.push(rest);
        }
      }
      // Fields the contract does not name (provenance.toolFields), which the corpus gives some tools.
      for (const k of Object.keys(t)) {
        if (CONTRACT_KEYS.has(k)) continue;
        const { [k]: _drop, ...rest } = t;
        v.push(rest as Tool);
      }
      for (const k of ["description", "searchHint"] as const) {
        const s = t[k];
        if (s !== undefined && s.length > 1) for (const shorter of shorterText(s)) v.push({ ...t, [k]: shorter });
      }
      if (t.aliases && t.aliases.length > 1) t.aliases.forEach((_, i) => v.push({ ...t, aliases: t.aliases!.filter((_a, j) => j !== i) }));
      if (t.mcpInfo?.toolName !== undefined) v.push({ ...t, mcpInfo: { serverName: t.mcpInfo.serverName } });
      return v;
    };
    c.deferred.forEach((t, i) => {
      for (const v of fieldVariants(t)) out.push(withDeferred(c.deferred.map((x, j) => (j === i ? v : x))));
    });
    loaded.forEach((t, i) => {
      for (const v of fieldVariants(t)) out.push(withLoaded(loaded.map((x, j) => (j === i ? v : x))));
    });
  }
  return out;
}

/** The contract's Tool fields: any other key of a tool is one of a release's own (provenance.toolFields). */
const CONTRACT_KEYS: ReadonlySet<string> = new Set(["name", "description", "searchHint", "aliases", "mcpInfo", "isMcp"]);

function chunkSizes(n: number): number[] {
  const sizes: number[] = [];
  for (let k = Math.ceil(n / 2); k >= 1; k = k === 1 ? 0 : Math.ceil(k / 2)) if (!sizes.includes(k)) sizes.push(k);
  return sizes;
}

function shorterQueries(q: string): string[] {
  const out = new Set<string>();
  const tokens = q.split(/(\s+)/); // keep separators at odd indices
  const words = tokens.filter((_, i) => i % 2 === 0);
  if (words.filter((w) => w !== "").length > 1) {
    // Remove chunks of words (with the separator before them).
    const n = words.length;
    for (const chunk of chunkSizes(n)) {
      if (n / chunk > 64) continue;
      for (let i = 0; i < n; i += chunk) {
        const kept: string[] = [];
        for (let w = 0; w < n; w++) {
          if (w >= i && w < i + chunk) continue;
          if (kept.length > 0) kept.push(tokens[2 * w - 1] ?? " ");
          kept.push(words[w]!);
        }
        out.add(kept.join(""));
      }
    }
  }
  const m = /^(\s*select:\s*)(.*)$/is.exec(q);
  if (m && m[2]!.includes(",")) {
    const entries = m[2]!.split(",");
    for (const chunk of chunkSizes(entries.length)) {
      if (entries.length / chunk > 64) continue;
      for (let i = 0; i < entries.length; i += chunk) out.add(m[1]! + [...entries.slice(0, i), ...entries.slice(i + chunk)].join(","));
    }
  }
  for (const s of shorterText(q)) out.add(s);
  out.delete(q);
  return [...out];
}

/** Remove chunks of characters (code points), halves first, at most 64 candidates per chunk size. */
function shorterText(s: string): string[] {
  const cps = [...s];
  const out: string[] = [];
  for (const chunk of chunkSizes(cps.length)) {
    if (cps.length / chunk > 64) continue;
    for (let i = 0; i < cps.length; i += chunk) out.push([...cps.slice(0, i), ...cps.slice(i + chunk)].join(""));
  }
  return out;
}

export async function shrinkDisagreement(
  original: string,
  emittedScript: string,
  start: Disagreement,
  sandbox: SandboxOptions,
  opts: VerifyOptions,
): Promise<Disagreement & { steps: number; rounds: number }> {
  const maxRounds = opts.maxShrinkRounds ?? 200;
  const maxCandidates = opts.maxShrinkCandidates ?? 600;
  const deadline = performance.now() + (opts.shrinkTimeMs ?? 120_000);
  let cur = start;
  let steps = 0;
  let rounds = 0;
  const seen = new Set<string>([JSON.stringify(start.case)]);
  while (rounds < maxRounds && performance.now() < deadline) {
    // A case already tried agreed then and agrees now: results depend on the case only.
    const cands: VerifyCase[] = [];
    for (const c of shrinkCandidates(cur.case)) {
      if (cands.length >= maxCandidates) break;
      const k = JSON.stringify(c);
      if (seen.has(k)) continue;
      seen.add(k);
      cands.push(c);
    }
    if (cands.length === 0) break;
    rounds++;
    const calls = cands.map((c) => ({ fn: cur.fn, args: callArgs(c) }));
    const [ro, re] = await Promise.all([runInSandbox(original, calls, sandbox), runInSandbox(emittedScript, calls, sandbox)]);
    const i = cands.findIndex((_, k) => !resultsAgree(ro.results[k]!, re.results[k]!));
    if (i < 0) break;
    cur = { case: cands[i]!, fn: cur.fn, original: ro.results[i]!, emitted: re.results[i]! };
    steps++;
  }
  return { ...cur, steps, rounds };
}
