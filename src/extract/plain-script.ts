import { basename, extname } from "node:path";
import * as acorn from "acorn";
import "../ast/acorn-warm.js"; // before any parse: see acorn-warm.ts
import type { ByteSource } from "./byte-source.js";
import { rangeContainer } from "./container.js";
import type { Container, Encoding, ModuleFormat } from "./types.js";

/** Names that are scripts by convention: listed even when they do not parse. */
const SCRIPT_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);
/** Bytes of the head checked for text-ness before anything else (binaries fail here, cheaply). */
const HEAD_BYTES = 64 * 1024;
/**
 * acorn parses ~3-4 MB/s on a 13 MB bundle (3.5 s for cli.js), far over budget; a full parse is
 * only done where it is cheap or where it is the only evidence the file is JavaScript.
 */
const FULL_PARSE_LIMIT_TRUSTED = 1024 * 1024;
const FULL_PARSE_LIMIT_OTHER = 4 * 1024 * 1024;
/** Head tokenized, and tail searched, for top-level import/export in files too large to parse. */
const TOKEN_PREFIX_BYTES = 256 * 1024;
const TAIL_BYTES = 4096;
/** Chunk size for whole-file passes (UTF-8 check, CommonJS hints) so no big buffer is held. */
const CHUNK = 8 * 1024 * 1024;

const CJS_HINT = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.[\w$]+\s*=/;
const TAIL_EXPORT = /(?:^|[;}\s])export\s*(?:\{|\*|default\b|const\b|let\b|var\b|function\b|class\b|async\b)/;
const SHEBANG_RUNTIME = /^#![^\n]*\b(?:node|bun|deno|nodejs)\b/;

export function isScriptName(name: string): boolean {
  return SCRIPT_EXTENSIONS.has(extname(name).toLowerCase());
}

/**
 * Whether bytes look like text: no NUL, and control bytes (other than tab, newlines, form feed,
 * vertical tab, escape) under 1% — minified JS may carry a few raw ones in string literals.
 */
export function isTextHead(head: Buffer): boolean {
  let control = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i]!;
    if (b === 0) return false;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0b && b !== 0x0c && b !== 0x1b) control++;
    else if (b === 0x7f) control++;
  }
  return control * 100 <= head.length;
}

export type ParseResult =
  { ok: true; program: acorn.Program; sourceType: "module" | "script" } | { ok: false; message: string; pos: number };

/** Parse as a module, then as a script (sloppy-mode code such as `with` or octal literals). */
export function parseProgram(text: string): ParseResult {
  const base = { ecmaVersion: "latest", allowHashBang: true, allowReturnOutsideFunction: false } as const;
  let moduleErr: { message: string; pos: number };
  try {
    return { ok: true, program: acorn.parse(text, { ...base, sourceType: "module" }), sourceType: "module" };
  } catch (e) {
    moduleErr = syntaxError(e);
  }
  try {
    return { ok: true, program: acorn.parse(text, { ...base, sourceType: "script" }), sourceType: "script" };
  } catch (e) {
    const scriptErr = syntaxError(e);
    // The attempt that got further points at the real problem.
    return { ok: false, ...(scriptErr.pos >= moduleErr.pos ? scriptErr : moduleErr) };
  }
}

function syntaxError(e: unknown): { message: string; pos: number } {
  if (e instanceof SyntaxError) {
    const pos = (e as SyntaxError & { pos?: number }).pos;
    return { message: e.message, pos: typeof pos === "number" ? pos : 0 };
  }
  // acorn only throws SyntaxError; anything else (e.g. stack overflow on absurd nesting) is treated as "does not parse".
  return { message: e instanceof Error ? e.message : String(e), pos: 0 };
}

export function hasImportExport(program: acorn.Program): boolean {
  return program.body.some((s) => s.type === "ImportDeclaration" || s.type.startsWith("Export"));
}

/** Expression statements that only state a value: word lists, numbers, JSON arrays, base64 blobs. */
const INERT_EXPRESSIONS = new Set([
  "Identifier",
  "Literal",
  "BinaryExpression",
  "LogicalExpression",
  "SequenceExpression",
  "TemplateLiteral",
  "UnaryExpression",
  "MemberExpression",
  "ThisExpression",
  "ArrayExpression",
  "ObjectExpression",
]);

/**
 * Whether a parsed program does something a program does. Plain word lists, base64 blobs and
 * numbers also parse (as identifier or literal expression statements); they are not JavaScript
 * worth reporting.
 */
export function looksLikeProgram(program: acorn.Program): boolean {
  return program.body.some((s) => {
    switch (s.type) {
      case "ExpressionStatement": {
        return !INERT_EXPRESSIONS.has(s.expression.type);
      }
      case "EmptyStatement":
      case "LabeledStatement":
      case "BlockStatement":
      case "DebuggerStatement":
        return false;
      default:
        return true;
    }
  });
}

/** Strip a byte-order mark so a `#!` line after it still counts as a hashbang. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Top-level `import`/`export` among the tokens of `prefix` (tokens, so strings and comments do not
 * count). ESM bundles lead with their imports; a token cut at the prefix end is expected.
 */
function topLevelImportExport(prefix: string): boolean {
  for (const sourceType of ["module", "script"] as const) {
    let depth = 0;
    let prev: string | null = null;
    let pendingImport = false;
    try {
      for (const tok of acorn.tokenizer(prefix, { ecmaVersion: "latest", sourceType, allowHashBang: true })) {
        const label = tok.type.label;
        if (pendingImport) {
          if (label !== "(" && label !== ".") return true; // not import() or import.meta
          pendingImport = false;
        }
        if (depth === 0 && prev !== "." && label === "export") return true;
        if (depth === 0 && prev !== "." && label === "import") pendingImport = true;
        if (label === "{" || label === "${" || label === "(" || label === "[") depth++;
        else if (label === "}" || label === ")" || label === "]") depth = Math.max(0, depth - 1);
        prev = label;
      }
      return false;
    } catch {
      // Module-only lexical errors (octal escapes…) end the module pass; retry as a script.
    }
  }
  return false;
}

function formatByExtension(name: string): ModuleFormat {
  const ext = extname(name).toLowerCase();
  return ext === ".mjs" ? "esm" : ext === ".cjs" ? "cjs" : "none";
}

/**
 * How Node runs a file on its own (no package.json known; npm-package.ts applies a package's "type"): `.mjs`
 * as an ES module and `.cjs` as CommonJS whatever they hold; any other name as an ES module when it has
 * module syntax (Node's detect-module, on from 20.19 and 22.7), else as CommonJS — "cjs" where a CommonJS
 * idiom shows, "none" where nothing does (parse-module.ts, runtimeGoal, parses both as a script).
 */
function formatOf(name: string, moduleSyntax: boolean, cjsHint: boolean): ModuleFormat {
  const byName = formatByExtension(name);
  if (byName !== "none") return byName;
  return moduleSyntax ? "esm" : cjsHint ? "cjs" : "none";
}

/** One pass over the file in chunks: strict UTF-8 validity and whether any CommonJS idiom appears. */
function scanWhole(src: ByteSource): { utf8: boolean; cjsHint: boolean } {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let utf8 = true;
  let cjsHint = false;
  let carry = "";
  for (let pos = 0; pos < src.size; pos += CHUNK) {
    const len = Math.min(CHUNK, src.size - pos);
    const bytes = src.read(pos, len);
    let text: string;
    if (utf8) {
      try {
        text = decoder.decode(bytes, { stream: pos + len < src.size });
      } catch {
        utf8 = false;
        text = bytes.toString("latin1");
      }
    } else text = bytes.toString("latin1");
    // Keep a little of the previous chunk so an idiom split across chunks is still seen.
    if (!cjsHint && CJS_HINT.test(carry + text)) cjsHint = true;
    carry = text.slice(-64);
    if (!utf8 && cjsHint) break;
  }
  return { utf8, cjsHint };
}

/**
 * A plain script: a .js/.mjs/.cjs file, or any text file that parses as JavaScript. null if the
 * file is not a script (binary bytes in the head, or a non-script name that does not parse).
 */
export function readPlainScript(src: ByteSource, input: string): Container | null {
  if (src.size === 0) return null;
  // The file's own name decides (for a package member, input is the .tgz and src.path the member).
  const name = basename(src.path);
  const byName = isScriptName(name);
  const head = src.read(0, Math.min(src.size, HEAD_BYTES));
  if (!isTextHead(head)) return null;
  const headText = stripBom(head.toString("latin1"));
  const shebangRuntime = SHEBANG_RUNTIME.test(headText);

  // A script name or a `#!…node` line is evidence enough; otherwise only a parse proves it is JavaScript.
  const trusted = byName || shebangRuntime;
  const fullParseLimit = trusted ? FULL_PARSE_LIMIT_TRUSTED : FULL_PARSE_LIMIT_OTHER;
  if (!trusted && src.size > fullParseLimit) return null; // too costly to prove here; the carver will try it

  const { utf8, cjsHint } = scanWhole(src);
  const encoding: Encoding = utf8 ? "utf8" : "latin1";
  const notes: string[] = [];
  let moduleFormat: ModuleFormat;

  if (src.size <= fullParseLimit) {
    const text = stripBom(src.read(0, src.size).toString(encoding));
    const parsed = parseProgram(text);
    if (parsed.ok) {
      if (!trusted && !looksLikeProgram(parsed.program)) return null;
      moduleFormat = formatOf(name, parsed.sourceType === "module" && hasImportExport(parsed.program), cjsHint);
    } else {
      if (!trusted) return null;
      notes.push(`${name} does not parse as JavaScript: ${parsed.message}`);
      moduleFormat = formatOf(name, false, cjsHint);
    }
  } else {
    // Large: text-ness and the tokens of the head decide; the syntax of the whole is not verified.
    const prefix = stripBom(src.read(0, Math.min(src.size, TOKEN_PREFIX_BYTES)).toString(encoding));
    const tail = src.read(src.size - TAIL_BYTES, TAIL_BYTES).toString(encoding);
    const esm = topLevelImportExport(prefix) || TAIL_EXPORT.test(tail);
    moduleFormat = formatOf(name, esm, cjsHint);
  }

  return rangeContainer(src, {
    input,
    format: "plain-script",
    runtime: null,
    entry: name,
    notes,
    modules: [
      {
        path: name,
        kind: "js",
        loader: "js",
        moduleFormat,
        encoding,
        size: src.size,
        bytecode: false,
        start: 0,
        end: src.size,
      },
    ],
  });
}
