/** What a Bun module record's enums say (bun-payload.ts): its loader, by one numbering or the other, its kind, encoding and format. */
import type { Encoding, ModuleFormat, ModuleKind } from "./types.js";

/**
 * `bun.options.Loader` names. The enum was renumbered when `jsonc` was inserted at 7: every
 * loader from `toml` on moved up by one. Which numbering a binary uses is decided in
 * chooseLoaderNumbering below.
 */
export const LOADERS_OLD = [
  "jsx",
  "js",
  "ts",
  "tsx",
  "css",
  "file",
  "json",
  "toml",
  "wasm",
  "napi",
  "base64",
  "dataurl",
  "text",
  "bunsh",
  "sqlite",
  "sqlite_embedded",
  "html",
];
export const LOADERS_NEW = [
  "jsx",
  "js",
  "ts",
  "tsx",
  "css",
  "file",
  "json",
  "jsonc",
  "toml",
  "wasm",
  "napi",
  "base64",
  "dataurl",
  "text",
  "bunsh",
  "sqlite",
  "sqlite_embedded",
  "html",
  "yaml",
  "json5",
  "md",
  "url",
];
export type LoaderNumbering = "old" | "new";

/**
 * Old or new loader numbering. Determined by building a probe that embeds a `.node` file
 * (napi: 9 old, 10 new) with consecutive releases: 1.2.4 is the last old one, 1.2.5 the first
 * new one. So 28/32-byte records (≤1.1.29) are always old and 52-byte records (≥1.3.9) always
 * new; 36-byte records (1.1.30–1.3.8) straddle the change, and there the Bun version decides
 * when the runtime string was found. Without it, the table itself: a `.node` file is napi, and
 * values above 16 exist only in the new enum. With no evidence either way the newer numbering
 * is assumed (it covers more of the 36-byte releases); the two agree on jsx…json (0–6) anyway.
 */
export const NEW_LOADERS_SINCE: [number, number, number] = [1, 2, 5];

export function chooseLoaderNumbering(
  records: Array<{ name: string; loader: number }>,
  recordSize: number,
  bunVersion: () => [number, number, number] | null,
): LoaderNumbering {
  if (recordSize === 28 || recordSize === 32) return "old";
  if (recordSize === 52) return "new";
  const version = bunVersion();
  if (version) {
    for (let i = 0; i < 3; i++) if (version[i] !== NEW_LOADERS_SINCE[i]) return version[i]! > NEW_LOADERS_SINCE[i]! ? "new" : "old";
    return "new";
  }
  for (const r of records) {
    if (r.loader > 16) return "new";
    if (r.name.endsWith(".node") && r.loader === 10) return "new";
    if (r.name.endsWith(".node") && r.loader === 9) return "old";
  }
  return "new";
}

export function kindOf(loader: string, path: string): ModuleKind {
  if (loader === "js" || loader === "jsx" || loader === "ts" || loader === "tsx") return "js";
  if (loader === "napi" || path.endsWith(".node")) return "native-addon";
  return "asset";
}

export function encodingOf(raw: number | null, kind: ModuleKind): Encoding {
  // Before 1.1.22 there is no field: sources were stored as UTF-8 text, assets as raw bytes.
  if (raw === null) return kind === "js" ? "utf8" : "binary";
  if (raw === 1) return "latin1";
  // 2 was declared "utf8, not used yet" in the Zig era and is UTF-16LE since 1.4 — it only ever occurs as the latter.
  if (raw === 2) return "utf16le";
  return "binary";
}

export function formatOf(raw: number | null): ModuleFormat {
  return raw === 1 ? "esm" : raw === 2 ? "cjs" : "none";
}

/** "Bun v1.4.6" → [1, 4, 6]. */
export function parseBunVersion(runtime: string | null): [number, number, number] | null {
  const m = runtime ? /v(\d+)\.(\d+)\.(\d+)/.exec(runtime) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
