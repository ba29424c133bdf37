/**
 * An npm package's manifest, read as npm and Node read it: which file is the program (`bin`, else `main`), whether
 * Node runs it as CommonJS or as an ES module, and a wrapper package's placeholder bin with the per-platform
 * packages it stands for. Messages quote package.json values, all attacker-controlled, on one escaped line.
 */
import { posix } from "node:path";
import { MalformedInput, UnrecognizedInput } from "../errors.js";
import { isTextHead, looksLikeProgram, parseProgram, stripBom } from "./plain-script.js";
import type { ModuleFormat } from "./types.js";

/**
 * Messages quote package.json values and tar/JSON errors, all attacker-controlled: control
 * characters are escaped and length capped so an error is always one readable line.
 */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === "\n" ? "\\n" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return flat.length > max ? flat.slice(0, max) + "…" : flat;
}

export const malformed = (input: string, message: string) => new MalformedInput(input, oneLine(message));

export const unrecognized = (input: string, message: string) => new UnrecognizedInput(input, oneLine(message));

/** package.json is a few KB; anything past this is not a manifest we should hold in memory. */
export const MAX_MANIFEST = 1024 * 1024;

/** A launcher placeholder is a few hundred bytes; real programs are far larger. */
export const MAX_PLACEHOLDER = 64 * 1024;

/** Node's process.platform values: optionalDependencies named `<name>-<platform>-<arch>` are per-host builds. */
const NODE_PLATFORMS = ["darwin", "linux", "win32", "freebsd", "openbsd", "netbsd", "sunos", "aix", "android"];

export interface Manifest {
  name: string;
  version: string;
  bin?: unknown;
  main?: unknown;
  files?: unknown;
  optionalDependencies?: unknown;
  type?: unknown;
}

// ---------------------------------------------------------------------------------------------
// Choosing the program

export function parseManifest(input: string, bytes: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(stripBom(bytes.toString("utf8")));
  } catch (e) {
    throw malformed(input, `package.json is not valid JSON: ${(e as Error).message}`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw malformed(input, "package.json is not a JSON object");
  const m = json as Record<string, unknown>;
  return { ...m, name: typeof m.name === "string" ? m.name : "", version: typeof m.version === "string" ? m.version : "" };
}

export function label(m: Manifest): string {
  return m.name ? `${m.name}${m.version ? "@" + m.version : ""}` : "the package";
}

/** Package-relative POSIX path (`./bin/x` → `bin/x`); refuses absolute paths and `..` escapes. */
function memberPath(input: string, raw: string, field: string): string {
  const p = posix.normalize(raw.replace(/\\/g, "/"));
  if (p.startsWith("/") || /^[A-Za-z]:/.test(p) || p === ".." || p.startsWith("../") || p === "." || p === "") {
    throw malformed(input, `package.json ${field} "${raw}" does not name a file inside the package`);
  }
  return p.replace(/^\.\//, "");
}

const NOT_A_PROGRAM = /^(readme|license|licence|changelog|changes|history|notice|copying|authors|contributing|security)(\..*)?$/i;

const NON_PROGRAM_EXT = /\.(md|markdown|txt|json|jsonc|d\.ts|d\.mts|d\.cts|ts|map|node|wasm|png|svg|html|css|yml|yaml|lock)$/i;

/** A `files` entry that could be the program: a plain file name (no glob, no directory), not docs/data. */
export function executableLooking(entry: string): boolean {
  if (/[*?{}[\]!]/.test(entry) || entry.endsWith("/")) return false;
  const name = posix.basename(entry);
  if (NOT_A_PROGRAM.test(name) || NON_PROGRAM_EXT.test(name)) return false;
  return !name.includes(".") || /\.(exe|js|mjs|cjs)$/i.test(name);
}

/**
 * The program of a package, in npm's order: `bin` (the entry named like the package when several),
 * `main`, the single executable-looking entry of `files` (platform packages such as
 * `@anthropic-ai/claude-code-linux-x64` list only `claude`), else `index.js`.
 */
export function chooseProgram(input: string, m: Manifest): Program {
  const unscoped = m.name.replace(/^@[^/]*\//, "");
  const exact = (member: string, field: string): Program => ({ member, field, candidates: [member] });
  if (typeof m.bin === "string" && m.bin) return exact(memberPath(input, m.bin, "bin"), "bin");
  if (m.bin && typeof m.bin === "object" && !Array.isArray(m.bin)) {
    const entries = Object.entries(m.bin as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === "string" && e[1] !== "",
    );
    const pick = entries.find(([k]) => k === unscoped) ?? entries[0];
    if (pick) return exact(memberPath(input, pick[1], `bin.${pick[0]}`), `bin.${pick[0]}`);
  }
  if (typeof m.main === "string" && m.main) {
    // Node resolves `main` like require(): as given, with an extension added, or as a folder's index.js.
    const main = memberPath(input, m.main, "main").replace(/\/+$/, "");
    return { member: main, field: "main", candidates: [main, `${main}.js`, `${main}.cjs`, `${main}.mjs`, `${main}/index.js`] };
  }
  if (Array.isArray(m.files)) {
    const cands = m.files.filter((f): f is string => typeof f === "string").filter(executableLooking);
    if (cands.length === 1) return exact(memberPath(input, cands[0]!, "files"), "files");
  }
  return exact("index.js", "default index.js");
}

/** The chosen program: the name to report, and the package paths that may hold it, best first. */
interface Program {
  member: string;
  field: string;
  candidates: string[];
}

// ---------------------------------------------------------------------------------------------
// How Node runs the program: CommonJS or ES module

/** A package.json's "type" as Node reads it for the files it scopes; "invalid": not JSON, which Node refuses. */
export type ScopeType = "module" | "commonjs" | "none" | "invalid";

export function scopeType(bytes: Buffer): ScopeType {
  let json: unknown;
  try {
    json = JSON.parse(stripBom(bytes.toString("utf8")));
  } catch {
    return "invalid";
  }
  const type = json !== null && typeof json === "object" ? (json as { type?: unknown }).type : undefined;
  return type === "module" || type === "commonjs" ? type : "none";
}

/**
 * The "type" that scopes `member`: that of the nearest package.json in its folder or above, up to the
 * package's own (`root`). As Node looks it up, a package.json directly inside a `node_modules` folder ends the
 * search with none. `nested(dir)` is the package.json of a folder below the root (package-relative), if any.
 */
export function memberScope(member: string, root: ScopeType, nested: (dir: string) => ScopeType | undefined): ScopeType {
  for (let dir = posix.dirname(member); dir !== "." && dir !== ""; dir = posix.dirname(dir)) {
    if (posix.basename(dir) === "node_modules") return "none";
    const t = nested(dir);
    if (t !== undefined) return t;
  }
  return root;
}

/**
 * The format Node runs the program in (its ES module loader's rules, Node >= 20.19): `.mjs` an ES module and
 * `.cjs` CommonJS; anything else by the scope's "type" ("module": ES module; "commonjs": CommonJS); with no
 * "type", CommonJS unless the code has module syntax (detect-module; `detected` is plain-script.ts's reading).
 */
export function nodeModuleFormat(member: string, scope: ScopeType, detected: ModuleFormat): ModuleFormat {
  const ext = posix.extname(member).toLowerCase();
  if (ext === ".mjs") return "esm";
  if (ext === ".cjs") return "cjs";
  if (scope === "module") return "esm";
  if (scope === "commonjs") return "cjs";
  return detected === "esm" ? "esm" : "cjs";
}

// ---------------------------------------------------------------------------------------------
// Wrapper packages: a placeholder bin plus optionalDependencies on per-platform packages.

export function platformPackages(m: Manifest): Map<string, string> {
  const out = new Map<string, string>();
  const deps = m.optionalDependencies;
  if (!m.name || !deps || typeof deps !== "object" || Array.isArray(deps)) return out;
  for (const [dep, ver] of Object.entries(deps as Record<string, unknown>)) {
    const rest = dep.startsWith(m.name + "-") ? dep.slice(m.name.length + 1) : null;
    if (rest && NODE_PLATFORMS.some((p) => rest.startsWith(p + "-"))) out.set(dep, typeof ver === "string" ? ver : "");
  }
  return out;
}

function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report !== undefined && report.header?.glibcVersionRuntime === undefined;
}

/** The platform package for this host, as `name@version`. */
export function hostPlatformPackage(m: Manifest, deps: Map<string, string>): string {
  const key = `${m.name}-${process.platform}-${process.arch}`;
  const order = isMusl() ? [key + "-musl", key] : [key];
  const dep = order.find((d) => deps.has(d)) ?? [...deps.keys()][0]!;
  const ver = deps.get(dep) ?? "";
  const exact = /^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(ver) ? ver : m.version;
  return exact ? `${dep}@${exact}` : dep;
}

export function wrapperError(input: string, m: Manifest, deps: Map<string, string>, member: string, why: string): UnrecognizedInput {
  return unrecognized(
    input,
    `${label(m)} is a wrapper: its ${member} ${why}; the program lives in the platform package ${hostPlatformPackage(m, deps)} (open that package instead)`,
  );
}

/** Executable magic: ELF, PE (MZ), Mach-O thin (both widths, both byte orders) and fat. */
function isBinaryExecutable(head: Buffer): boolean {
  if (head.length < 4) return false;
  const be = head.readUInt32BE(0);
  return be === 0x7f454c46 || head.readUInt16BE(0) === 0x4d5a || [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(be);
}

/**
 * A launcher placeholder: small, not an executable, not JavaScript (the 2.1.113+ stub is a shell
 * script that prints "native binary not installed" until postinstall copies the real one over it).
 */
export function isPlaceholder(bytes: Buffer): boolean {
  if (bytes.length > MAX_PLACEHOLDER || isBinaryExecutable(bytes)) return false;
  if (!isTextHead(bytes)) return true;
  const parsed = parseProgram(stripBom(bytes.toString("utf8")));
  return !(parsed.ok && looksLikeProgram(parsed.program));
}
