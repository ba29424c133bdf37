/**
 * locate on synthetic tool-search programs (samples/tool-search/), one per generation, placed among
 * look-alikes. The truth comes from the samples and the source maps, never from locate itself:
 * each routine and role is named in the sample source; acorn finds it there; the bundlers' source
 * maps (decoded by test/helpers/sourcemap.ts) say what each name became and where the routine's
 * name landed in the output. Three builds per sample:
 *   esbuild  — bundled ESM, identifiers mangled, whitespace removed (a plain script; the split
 *              program as several ESM files in one hand-made container);
 *   bun-exe  — `bun build --compile` of the esbuild output (a Bun executable; chunks when split);
 *   bun-min  — `bun build --compile --minify` straight from the sources (how the real releases
 *              are built).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parse } from "acorn";
import { buildSync, version as esbuildVersion } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { openContainer } from "../src/index.js";
import type { Container } from "../src/index.js";
import { locate, type RoutineResult } from "../src/locate/locate.js";
import { loadSignatures } from "../src/locate/signature.js";
import { ExitCode } from "../src/errors.js";
import { cacheDir } from "./helpers/cache.js";
import { decodeMappings, identifierAt, LineIndex, type SourceMapV3 } from "./helpers/sourcemap.js";
import { memoryContainer } from "./helpers/memory-container.js";
import { runCli } from "./helpers/cli.js";

const REPO = resolve(import.meta.dirname, "..");
const SAMPLES = join(REPO, "samples", "tool-search");
const BUN = join(REPO, "node_modules", ".bin", "bun");
const SIGNATURES = loadSignatures();
const IDS = ["tool-search/call", "tool-search/defer-policy", "tool-search/mode", "tool-search/name-parser", "tool-search/scorer"] as const;
type RoutineId = (typeof IDS)[number];

// ---------------------------------------------------------------------------------------------
// What each sample holds, as written (see samples/tool-search/README.md).

/** A routine in the sample source: a function declaration by name, or `call` of an object literal. */
type Where = { fn: string } | { object: string; key: string };
interface Expected {
  variant: string;
  /** Sample file (relative to samples/tool-search) holding the routine. */
  file: string;
  where: Where;
  /** role → the identifier's name in the sample source (unique inside the routine). */
  roles: Record<string, string>;
}
interface Sample {
  name: string;
  /** Entry point relative to samples/tool-search. */
  entry: string;
  split?: boolean;
  routines: Partial<Record<RoutineId, Expected>>;
}

const scorerRoles = (fn: string, deferred = "deferredTools") => ({
  searchTools: fn,
  query: "query",
  deferredTools: deferred,
  maxResults: "maxResults",
  terms: "terms",
  term: "term",
  score: "score",
  tool: "tool",
});
const callRoles = (scorer: string, deferred: string, all: string, select: boolean, policy?: string) => ({
  input: "input",
  query: "query",
  maxResults: "maxResults",
  searchTools: scorer,
  deferredTools: deferred,
  allTools: all,
  ...(select ? { selectMatch: "selectMatch" } : {}),
  ...(policy ? { isDeferredTool: policy } : {}),
});
const autoPercentRoles = {
  getToolSearchMode: "getToolSearchMode",
  value: "value",
  autoPercent: "autoPercent",
  parseAutoPercent: "parseAutoPercent",
  isAutoValue: "isAutoValue",
};
const optIn = (file: string): Expected => ({
  variant: "opt-in",
  file,
  where: { fn: "getToolSearchMode" },
  roles: { getToolSearchMode: "getToolSearchMode", isTruthy: "isEnvTruthy" },
});
const policy = (file: string, variant: string, options = false): Expected => ({
  variant,
  file,
  where: { fn: "isDeferredTool" },
  roles: { isDeferredTool: "isDeferredTool", tool: "tool", ...(options ? { options: "options" } : {}) },
});
const partsParser = (file: string, variant: string, tool: string, coarse = false): Expected => ({
  variant,
  file,
  where: { fn: "parseToolName" },
  roles: {
    parseToolName: "parseToolName",
    tool,
    parts: "mcpParts",
    words: "builtinWords",
    ...(coarse ? { coarseParts: "wholeNames" } : {}),
  },
});

const SAMPLE_LIST: Sample[] = [
  {
    name: "mcp-name-substring",
    entry: "mcp-name-substring.js",
    routines: {
      "tool-search/scorer": {
        variant: "mcp-name-substring",
        file: "mcp-name-substring.js",
        where: { fn: "searchMcpTools" },
        roles: { ...scorerRoles("searchMcpTools", "mcpTools"), nameKey: "nameKey", description: "description" },
      },
      "tool-search/call": {
        variant: "single-select",
        file: "mcp-name-substring.js",
        where: { object: "mcpSearchTool", key: "call" },
        roles: { ...callRoles("searchMcpTools", "mcpTools", "tools", true), selectedName: "selectedName" },
      },
      "tool-search/mode": optIn("mcp-name-substring.js"),
    },
  },
  {
    name: "mcp-server-actions",
    entry: "mcp-server-actions.js",
    routines: {
      "tool-search/scorer": {
        variant: "mcp-server-actions",
        file: "mcp-server-actions.js",
        where: { fn: "searchMcpTools" },
        roles: { ...scorerRoles("searchMcpTools", "mcpTools"), parsedName: "parsed" },
      },
      "tool-search/call": {
        variant: "single-select",
        file: "mcp-server-actions.js",
        where: { object: "mcpSearchTool", key: "call" },
        roles: { ...callRoles("searchMcpTools", "mcpTools", "allTools", true), selectedName: "selectedName" },
      },
      "tool-search/name-parser": {
        variant: "server-actions",
        file: "mcp-server-actions.js",
        where: { fn: "parseMcpToolName" },
        roles: { parseToolName: "parseMcpToolName", tool: "toolName", server: "serverName", actions: "actionWords" },
      },
      "tool-search/mode": optIn("mcp-server-actions.js"),
    },
  },
  ...(
    [
      ["name-parts", "name-parts", "single-select", "name-string", "name", "should-defer", "auto-percent"],
      ["required-terms", "required-terms", "single-select", "name-string", "name", "gated-should-defer", "auto-percent"],
      ["search-hint", "search-hint", "select-list", "tool-object", "tool", "always-load", "auto-percent"],
      ["coarse-parts", "coarse-parts", "select-list", "coarse-parts", "tool", "always-load", "flag-default"],
    ] as const
  ).map(([name, scorer, call, parser, parserArg, defer, mode]): Sample => {
    const file = `${name}.js`;
    return {
      name,
      entry: file,
      routines: {
        "tool-search/scorer": {
          variant: scorer,
          file,
          where: { fn: "searchDeferredTools" },
          roles: { ...scorerRoles("searchDeferredTools"), parsedName: "parsed" },
        },
        "tool-search/call": {
          variant: call,
          file,
          where: { object: "toolSearchTool", key: "call" },
          roles: {
            ...callRoles("searchDeferredTools", "deferred", "allTools", true, "isDeferredTool"),
            ...(call === "single-select" ? { selectedName: "requested" } : {}),
          },
        },
        "tool-search/name-parser": partsParser(file, parser, parserArg, parser === "coarse-parts"),
        "tool-search/defer-policy": policy(file, defer),
        "tool-search/mode": {
          variant: mode,
          file,
          where: { fn: "getToolSearchMode" },
          roles: mode === "flag-default" ? { ...autoPercentRoles, featureFlag: "featureFlag" } : autoPercentRoles,
        },
      },
    };
  }),
  {
    name: "session-cache",
    entry: "session-cache.js",
    routines: {
      "tool-search/scorer": {
        variant: "session-cache",
        file: "session-cache.js",
        where: { fn: "searchDeferredTools" },
        roles: { ...scorerRoles("searchDeferredTools"), parsedName: "parsed", sessionCache: "session" },
      },
      "tool-search/call": {
        variant: "capped-query",
        file: "session-cache.js",
        where: { object: "toolSearchTool", key: "call" },
        roles: {
          ...callRoles("searchDeferredTools", "deferred", "allTools", false),
          capQuery: "capQuery",
          selectPattern: "SELECT_PATTERN",
        },
      },
      "tool-search/name-parser": partsParser("session-cache.js", "coarse-parts", "tool", true),
      "tool-search/defer-policy": policy("session-cache.js", "guidance", true),
      "tool-search/mode": {
        variant: "flag-default",
        file: "session-cache.js",
        where: { fn: "getToolSearchMode" },
        roles: { ...autoPercentRoles, featureFlag: "featureFlag" },
      },
    },
  },
  { name: "decoys-only", entry: "decoys-only.js", routines: {} },
  {
    name: "split",
    entry: "split/main.js",
    split: true,
    routines: {
      "tool-search/scorer": {
        variant: "search-hint",
        file: "split/scorer.js",
        where: { fn: "searchDeferredTools" },
        roles: { ...scorerRoles("searchDeferredTools"), parsedName: "parsed" },
      },
      "tool-search/call": {
        variant: "select-list",
        file: "split/tool.js",
        where: { object: "toolSearchTool", key: "call" },
        roles: callRoles("searchDeferredTools", "deferred", "allTools", true, "isDeferredTool"),
      },
      "tool-search/name-parser": partsParser("split/scorer.js", "tool-object", "tool"),
      "tool-search/defer-policy": policy("split/policy.js", "always-load"),
      "tool-search/mode": { variant: "auto-percent", file: "split/main.js", where: { fn: "getToolSearchMode" }, roles: autoPercentRoles },
    },
  },
];

// ---------------------------------------------------------------------------------------------
// The sample source: where each routine is, by acorn over our own files.

interface Original {
  file: string; // absolute
  start: number;
  end: number;
  /** Offset of the function's name (or the property key). */
  nameAt: number;
  name: string;
}

const sourceText = new Map<string, string>();
function readSource(file: string): string {
  let t = sourceText.get(file);
  if (t === undefined) sourceText.set(file, (t = readFileSync(file, "utf8")));
  return t;
}

type AnyNode = { type: string; start: number; end: number; [k: string]: any };
function walkAll(n: AnyNode, visit: (n: AnyNode) => void): void {
  visit(n);
  for (const v of Object.values(n)) {
    if (Array.isArray(v)) for (const c of v) if (c && typeof c.type === "string") walkAll(c, visit);
    if (v && typeof v === "object" && typeof v.type === "string") walkAll(v, visit);
  }
}

function findOriginal(file: string, where: Where): Original {
  const text = readSource(file);
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module" }) as unknown as AnyNode;
  const hits: Original[] = [];
  walkAll(ast, (n) => {
    if ("fn" in where && n.type === "FunctionDeclaration" && n.id?.name === where.fn)
      hits.push({ file, start: n.start, end: n.end, nameAt: n.id.start, name: where.fn });
    if ("object" in where && n.type === "VariableDeclarator" && n.id.name === where.object && n.init?.type === "ObjectExpression") {
      for (const p of n.init.properties)
        if (p.key?.name === where.key) hits.push({ file, start: p.start, end: p.end, nameAt: p.key.start, name: where.key });
    }
  });
  if (hits.length !== 1) throw new Error(`${relative(REPO, file)}: ${JSON.stringify(where)} found ${hits.length} times in the sample`);
  return hits[0]!;
}

/** Identifier nodes named `name` inside [start, end) that are bindings or references (not property names). */
function occurrences(file: string, name: string, start: number, end: number): number[] {
  const ast = parse(readSource(file), { ecmaVersion: "latest", sourceType: "module" }) as unknown as AnyNode;
  const skip = new Set<AnyNode>();
  const out: number[] = [];
  walkAll(ast, (n) => {
    if (n.type === "MemberExpression" && !n.computed) skip.add(n.property);
    if ((n.type === "Property" || n.type === "MethodDefinition") && !n.computed && !n.shorthand) skip.add(n.key);
    if (n.type === "Identifier" && n.name === name && n.start >= start && n.end <= end && !skip.has(n)) out.push(n.start);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Builds and source maps.

interface Generated {
  /** The container module path, or the file for esbuild output. */
  key: string;
  text: string;
  lines: LineIndex;
  segments: ReturnType<typeof decodeMappings>;
  /** Absolute path of each map source. */
  sources: string[];
}

/** One bundler step: generated files with maps, indexed by original position. */
class Stage {
  private byOrigin = new Map<string, Array<{ gen: Generated; offset: number; name?: string }>>();
  constructor(readonly files: Generated[]) {
    for (const g of files) {
      for (const s of g.segments) {
        const src = g.sources[s.source];
        if (src === undefined) continue;
        const k = `${src}\0${s.line}\0${s.col}`;
        let list = this.byOrigin.get(k);
        if (!list) this.byOrigin.set(k, (list = []));
        const entry: { gen: Generated; offset: number; name?: string } = { gen: g, offset: g.lines.offset(s.genLine, s.genCol) };
        if (s.name !== undefined) entry.name = s.name;
        list.push(entry);
      }
    }
  }

  /** Generated positions of an original (file, offset). */
  forward(file: string, offset: number, fileText: string): Array<{ gen: Generated; offset: number; name?: string }> {
    const { line, col } = new LineIndex(fileText).position(offset);
    return this.byOrigin.get(`${file}\0${line}\0${col}`) ?? [];
  }

  /** Generated positions of segments carrying `name` whose origin lies in [start, end) of `file`. */
  named(file: string, fileText: string, name: string, start: number, end: number) {
    const li = new LineIndex(fileText);
    const out: Array<{ gen: Generated; offset: number }> = [];
    for (const [k, list] of this.byOrigin) {
      const [src, line, col] = k.split("\0");
      if (src !== file) continue;
      const off = li.offset(Number(line), Number(col));
      if (off < start || off >= end) continue;
      for (const e of list) if (e.name === name) out.push(e);
    }
    return out;
  }
}

/** `rebase`: the sources were built from a copy at `sourceRoot` of the folder `rebase`. */
function generated(key: string, text: string, mapFile: string, sourceRoot: string, rebase?: string): Generated {
  const map = JSON.parse(readFileSync(mapFile, "utf8")) as SourceMapV3;
  const sources = map.sources.map((s) => (rebase ? resolve(rebase, relative(sourceRoot, resolve(sourceRoot, s))) : resolve(sourceRoot, s)));
  for (const s of sources) if (!existsSync(s)) throw new Error(`${mapFile}: source ${s} does not exist`);
  return { key, text, lines: new LineIndex(text), segments: decodeMappings(map), sources };
}

function sampleHash(): string {
  const h = createHash("sha256");
  const visit = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) visit(p);
      else h.update(relative(SAMPLES, p)).update("\0").update(readFileSync(p));
    }
  };
  visit(SAMPLES);
  return h.digest("hex");
}

function bunVersion(): string {
  return execFileSync(BUN, ["--version"], { encoding: "utf8" }).trim();
}

interface EsbuildOut {
  dir: string;
  /** Generated .js files (absolute), entry first. */
  files: string[];
}

/** esbuild: bundle, ESM, identifiers mangled, whitespace removed, external source maps. */
function esbuildSample(s: Sample, hash: string): EsbuildOut {
  // The maps name sources relative to the output, so a build made from another checkout (a CI run
  // sharing this cache) would point at that checkout's samples: the checkout is part of the key.
  const key = createHash("sha256")
    .update(JSON.stringify({ esbuildVersion, hash, samples: SAMPLES, entry: s.entry, split: !!s.split, v: 1 }))
    .digest("hex")
    .slice(0, 16);
  const dir = join(cacheDir("fixtures", "tool-search", "esbuild"), `${s.name}-${key}`);
  const done = join(dir, "files.json");
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    buildSync({
      entryPoints: [join(SAMPLES, s.entry)],
      bundle: true,
      format: "esm",
      platform: "node",
      minifyIdentifiers: true,
      minifyWhitespace: true,
      sourcemap: "external",
      logLevel: "silent",
      ...(s.split ? { splitting: true, outdir: dir, chunkNames: "chunk-[hash]" } : { outfile: join(dir, `${s.name}.js`) }),
    });
    const entry = s.split ? "main.js" : `${s.name}.js`;
    const files = [
      entry,
      ...readdirSync(dir)
        .filter((f) => f.endsWith(".js") && f !== entry)
        .sort(),
    ];
    writeFileSync(done, JSON.stringify(files));
  }
  const files = (JSON.parse(readFileSync(done, "utf8")) as string[]).map((f) => join(dir, f));
  return { dir, files };
}

/** `keyOf`: the module path a generated file has in the container (default: the file itself). */
function esbuildStage(out: EsbuildOut, keyOf: (file: string) => string = (f) => f): Stage {
  return new Stage(out.files.map((f) => generated(keyOf(f), readFileSync(f, "utf8"), `${f}.map`, dirname(f))));
}

interface BunOut {
  exe: string;
  /** The folder that was copied and built. */
  from: string;
  /** Directory the map sources are relative to. */
  root: string;
  dir: string;
}

/** `bun build --compile` of `entry` inside a private copy of `from`, cached by inputs and flags. */
function bunCompile(label: string, from: string, entry: string, flags: string[]): BunOut {
  const h = createHash("sha256").update(JSON.stringify({ v: bunVersion(), entry, flags, n: 1 }));
  const visit = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) visit(p);
      else h.update(relative(from, p)).update("\0").update(readFileSync(p));
    }
  };
  visit(from);
  const dir = join(cacheDir("fixtures", "tool-search", "bun"), `${label}-${h.digest("hex").slice(0, 16)}`);
  const root = join(dir, "src");
  const exe = join(root, "app");
  if (!existsSync(join(dir, "built.json"))) {
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    const copy = (a: string, b: string) => {
      mkdirSync(b, { recursive: true });
      for (const f of readdirSync(a)) {
        if (statSync(join(a, f)).isDirectory()) copy(join(a, f), join(b, f));
        else copyFileSync(join(a, f), join(b, f));
      }
    };
    copy(from, join(tmp, "src"));
    const args = ["build", "--compile", ...flags, entry, "--outfile", "app", "--sourcemap=external"];
    const r = spawnSync(BUN, args, { cwd: join(tmp, "src"), encoding: "utf8" });
    if (r.status !== 0) throw new Error(`bun ${args.join(" ")}: ${r.stderr}${r.stdout}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    writeFileSync(join(dir, "built.json"), JSON.stringify({ args }));
  }
  return { exe, root, dir, from };
}

/** The Bun executable's JS modules with the maps Bun wrote beside it (`app.map`, `<chunk>.js.map`). */
function bunStage(c: Container, out: BunOut): Stage {
  const files: Generated[] = [];
  for (const m of c.modules.filter((m) => m.kind === "js")) {
    const base = basename(m.path);
    const map = join(out.root, base === "app" ? "app.map" : `${base}.map`);
    files.push(generated(m.path, c.text(m), map, out.root, out.from));
  }
  return new Stage(files);
}

// ---------------------------------------------------------------------------------------------
// Truth: where each expected routine is in a build, and what its roles are called there.

interface Truth {
  module: string;
  start: number; // byte offset in the module
  end: number;
  line: number;
  column: number;
  roles: Record<string, string>;
}

function one<T>(values: T[], what: string): T {
  const distinct = [...new Set(values)];
  if (distinct.length !== 1) throw new Error(`${what}: expected one value from the source map, got ${JSON.stringify(distinct)}`);
  return distinct[0]!;
}

/** Positions → [(generated file, offset)] through the stages, in order. */
function through(stages: Stage[], file: string, offsets: number[]): Array<{ gen: Generated; offset: number }> {
  let cur = offsets.map((offset) => ({ file, text: readSource(file), offset }));
  let last: Array<{ gen: Generated; offset: number }> = [];
  for (const st of stages) {
    last = cur.flatMap((p) => st.forward(p.file, p.offset, p.text));
    cur = last.map((p) => ({ file: p.gen.key, text: p.gen.text, offset: p.offset }));
  }
  return last;
}

/**
 * `stages` lead from the sample source to the build. The first stage either carries `names`
 * (esbuild: every renamed identifier's segment names its original) or not (Bun: then every
 * occurrence of the identifier in the source is followed, and property keys that a shorthand
 * expands to are set aside).
 */
function truthFor(exp: Expected, stages: Stage[], named: boolean): Truth {
  const file = resolve(SAMPLES, exp.file);
  const orig = findOriginal(file, exp.where);
  const src = readSource(file);
  // The routine's name (function name or `call` key) through every stage.
  const namePos = through(stages, file, [orig.nameAt]);
  const at = one(
    namePos.map((p) => `${p.gen.key}\0${p.offset}`),
    `${exp.file} ${JSON.stringify(exp.where)} position`,
  );
  const [module, offStr] = at.split("\0") as [string, string];
  const gen = namePos[0]!.gen;
  const nameOffset = Number(offStr);
  const prefix = /(?:async\s+)?(?:function\s*)?$/.exec(gen.text.slice(Math.max(0, nameOffset - 40), nameOffset))![0];
  const startChar = nameOffset - prefix.length;
  // The extent: the one function (or method) that starts there, by acorn over the generated text.
  const body = extent(gen.text, startChar, "fn" in exp.where);
  const roles: Record<string, string> = {};
  for (const [role, origName] of Object.entries(exp.roles)) {
    let positions: Array<{ gen: Generated; offset: number }>;
    if (named) {
      const first = stages[0]!.named(file, src, origName, orig.start, orig.end);
      if (first.length === 0) throw new Error(`${exp.file}: no mapped identifier named ${origName} for role ${role}`);
      positions = chain(stages.slice(1), first);
    } else {
      positions = through(stages, file, occurrences(file, origName, orig.start, orig.end));
    }
    // Segments that start at punctuation (Bun maps some of those to an identifier's origin) are not the identifier.
    let ids = positions
      .filter((p) => p.gen.key === module)
      .map((p) => identifierAt(p.gen.text, p.offset))
      .filter((x) => x !== "");
    if (!named && ids.some((x) => x !== origName)) ids = ids.filter((x) => x !== origName); // shorthand keys
    // Bun's --minify inlines a variable used once (`let parts = …; return { parts }`): then no
    // identifier carries it and the role has no name in that build.
    if (!named && ids.length === 0) continue;
    roles[role] = one(ids, `${exp.file} role ${role} (${origName})`);
  }
  const lc = gen.lines.position(startChar);
  return {
    module,
    start: Buffer.byteLength(gen.text.slice(0, startChar), "latin1"),
    end: Buffer.byteLength(gen.text.slice(0, body), "latin1"),
    line: lc.line + 1,
    column: lc.col + 1,
    roles,
  };
}

function chain(stages: Stage[], from: Array<{ gen: Generated; offset: number }>): Array<{ gen: Generated; offset: number }> {
  let cur = from;
  for (const st of stages) cur = cur.flatMap((p) => st.forward(p.gen.key, p.offset, p.gen.text));
  return cur;
}

/** End offset of the function declaration (or object method) starting at `start` of `text`. */
function extent(text: string, start: number, isFunction: boolean): number {
  // Parse the shortest prefix that forms one complete function/method: scan the closing braces.
  for (let at = text.indexOf("}", start); at !== -1; at = text.indexOf("}", at + 1)) {
    const slice = text.slice(start, at + 1);
    try {
      const wrapped = isFunction ? `(${slice})` : `({${slice}})`;
      const ast = parse(wrapped, { ecmaVersion: "latest", sourceType: "module" }) as unknown as AnyNode;
      const e = ast.body[0].expression;
      if (isFunction ? e.type === "FunctionExpression" : e.type === "ObjectExpression" && e.properties.length === 1) return at + 1;
    } catch {
      /* not yet complete */
    }
  }
  throw new Error(`no complete function at ${start}`);
}

// ---------------------------------------------------------------------------------------------
// Checks.

function checkAgainstTruth(sample: Sample, results: RoutineResult[], stages: Stage[], named: boolean) {
  expect(results.map((r) => r.id).sort()).toEqual([...IDS]);
  for (const id of IDS) {
    const r = results.find((x) => x.id === id)!;
    const exp = sample.routines[id];
    if (!exp) {
      expect({ id, status: r.status }).toEqual({ id, status: "absent" });
      continue;
    }
    const t = truthFor(exp, stages, named);
    expect({ id, status: r.status, candidates: r.candidates?.length }).toEqual({ id, status: "found", candidates: undefined });
    expect({ id, module: r.module, variant: r.variant, start: r.start, end: r.end, line: r.line, column: r.column }).toEqual({
      id,
      module: t.module,
      variant: exp.variant,
      start: t.start,
      end: t.end,
      line: t.line,
      column: t.column,
    });
    expect({ id, roles: r.roles }).toEqual({ id, roles: t.roles });
    // Nothing else of the same signature was seen (a look-alike would be reported as a warning).
    expect({ id, warnings: (r.warnings ?? []).filter((w) => w.startsWith("ignored")) }).toEqual({ id, warnings: [] });
  }
}

/** Several ESM files as one container (what a code-split npm package or an extracted folder is). */
function filesContainer(files: string[]): Container {
  const c = memoryContainer(Object.fromEntries(files.map((f) => [f, readFileSync(f, "utf8")])));
  return { ...c, input: dirname(files[0]!), file: dirname(files[0]!), format: "plain-script" };
}

/** The point of the split sample: the scorer and call() were found in different modules. */
function expectScorerAndCallApart(results: RoutineResult[]) {
  const scorer = results.find((r) => r.id === "tool-search/scorer")!;
  const call = results.find((r) => r.id === "tool-search/call")!;
  expect(scorer.module).toBeTruthy();
  expect(call.module).toBeTruthy();
  expect(scorer.module).not.toBe(call.module);
}

const HASH = sampleHash();

describe.each(SAMPLE_LIST)("locate: tool-search sample $name", (sample) => {
  let es: EsbuildOut;
  beforeAll(() => {
    es = esbuildSample(sample, HASH);
  });

  it("esbuild (mangled identifiers): each routine once, right variant, place and roles; decoys not reported", () => {
    const c = sample.split ? filesContainer(es.files) : openContainer(es.files[0]!);
    try {
      if (!sample.split) expect(c.format).toBe("plain-script");
      // A plain script's one module is named by the file.
      const stage = esbuildStage(es, sample.split ? undefined : (f) => basename(f));
      const results = locate(c, SIGNATURES);
      checkAgainstTruth(sample, results, [stage], true);
      if (sample.split) expectScorerAndCallApart(results);
    } finally {
      c.close();
    }
  });

  it("Bun executable built from the esbuild output", () => {
    const out = bunCompile(`${sample.name}-from-esbuild`, es.dir, basename(es.files[0]!), sample.split ? ["--splitting"] : []);
    const c = openContainer(out.exe);
    try {
      expect(c.format).toBe("bun-elf");
      if (sample.split) expect(c.modules.filter((m) => m.kind === "js").length).toBeGreaterThan(2);
      const results = locate(c, SIGNATURES);
      checkAgainstTruth(sample, results, [esbuildStage(es), bunStage(c, out)], true);
      if (sample.split) expectScorerAndCallApart(results);
    } finally {
      c.close();
    }
  });

  it("Bun executable built with --minify from the sources (as the releases are)", () => {
    const out = bunCompile(`${sample.name}-bun-minify`, SAMPLES, sample.entry, ["--minify", ...(sample.split ? ["--splitting"] : [])]);
    const c = openContainer(out.exe);
    try {
      expect(c.format).toBe("bun-elf");
      const st = bunStage(c, out);
      // The map leads back to our own sample files.
      expect(st.files.flatMap((g) => g.sources).every((s) => s.endsWith(".js") && existsSync(s))).toBe(true);
      const results = locate(c, SIGNATURES);
      checkAgainstTruth(sample, results, [st], false);
      if (sample.split) expectScorerAndCallApart(results);
    } finally {
      c.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI: JSON shape and exit codes.

const locateCli = (...args: string[]) => runCli(args, { timeout: 120_000 });

describe("searchlift locate CLI on the samples", () => {
  const byName = (n: string) => SAMPLE_LIST.find((s) => s.name === n)!;

  it("--json: all five found → exit 0, shape { input, routines: [{ id, status, module, start, end, line, column, variant, roles }] }", () => {
    const sample = byName("coarse-parts");
    const es = esbuildSample(sample, HASH);
    const r = locateCli("locate", es.files[0]!, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(ExitCode.ok);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual(["input", "routines"]);
    expect(out.input).toBe(es.files[0]);
    expect(out.routines.map((x: { id: string }) => x.id)).toEqual([...IDS]);
    const stage = esbuildStage(es, (f) => basename(f));
    for (const x of out.routines) {
      for (const k of ["id", "status", "module", "start", "end", "line", "column", "variant", "roles"])
        expect(x, `${x.id}.${k}`).toHaveProperty(k);
      const exp = sample.routines[x.id as RoutineId]!;
      const t = truthFor(exp, [stage], true);
      expect({
        id: x.id,
        status: x.status,
        start: x.start,
        end: x.end,
        line: x.line,
        column: x.column,
        variant: x.variant,
        roles: x.roles,
      }).toEqual({
        id: x.id,
        status: "found",
        start: t.start,
        end: t.end,
        line: t.line,
        column: t.column,
        variant: exp.variant,
        roles: t.roles,
      });
      expect(x.module).toBe(t.module);
    }
  });

  it("routines a generation does not have → exit 7, reported absent without a place", () => {
    const sample = byName("mcp-name-substring");
    const es = esbuildSample(sample, HASH);
    const r = locateCli("locate", es.files[0]!, "--json");
    expect(r.code).toBe(ExitCode.absent);
    const out = JSON.parse(r.stdout);
    const status = Object.fromEntries(out.routines.map((x: { id: string; status: string }) => [x.id, x.status]));
    expect(status).toEqual({
      "tool-search/call": "found",
      "tool-search/defer-policy": "absent",
      "tool-search/mode": "found",
      "tool-search/name-parser": "absent",
      "tool-search/scorer": "found",
    });
    for (const x of out.routines.filter((x: { status: string }) => x.status === "absent")) expect(x.module).toBeUndefined();
    // --routine narrows to the ones present: exit 0.
    expect(locateCli("locate", es.files[0]!, "--routine", "tool-search/scorer", "tool-search/call", "--json").code).toBe(ExitCode.ok);
  });

  it("the scorer twice under two referenced names → exit 8, ambiguous with both candidates", () => {
    // name-parts.js plus a second copy of its scorer, exported (so referenced) under another name.
    const dir = mkdtempSync(join(tmpdir(), "searchlift-ambiguous-"));
    try {
      for (const f of ["helpers.js", "decoys.js"]) copyFileSync(join(SAMPLES, f), join(dir, f));
      const file = join(SAMPLES, "name-parts.js");
      const src = readSource(file);
      const o = findOriginal(file, { fn: "searchDeferredTools" });
      const copy = src.slice(o.start, o.end).replace("searchDeferredTools", "searchDeferredToolsAgain");
      const twin = join(dir, "twin.js");
      writeFileSync(twin, `${src}\nexport ${copy}\n`);
      const outFile = join(dir, "out.js");
      buildSync({
        entryPoints: [twin],
        bundle: true,
        format: "esm",
        platform: "node",
        minifyIdentifiers: true,
        minifyWhitespace: true,
        sourcemap: "external",
        outfile: outFile,
        logLevel: "silent",
      });
      const stage = new Stage([generated(outFile, readFileSync(outFile, "utf8"), `${outFile}.map`, dir)]);
      sourceText.set(twin, readFileSync(twin, "utf8"));
      const expectAt = (fn: string) => {
        const t = truthFor({ variant: "name-parts", file: twin, where: { fn }, roles: {} }, [stage], true);
        return { line: t.line, column: t.column, variant: "name-parts" };
      };
      const r = locateCli("locate", outFile, "--json");
      expect(r.code).toBe(ExitCode.ambiguous);
      const out = JSON.parse(r.stdout);
      const scorer = out.routines.find((x: { id: string }) => x.id === "tool-search/scorer");
      expect(scorer.status).toBe("ambiguous");
      expect(
        scorer.candidates.map((c: { line: number; column: number; variant: string }) => ({
          line: c.line,
          column: c.column,
          variant: c.variant,
        })),
      ).toEqual([expectAt("searchDeferredTools"), expectAt("searchDeferredToolsAgain")]);
      for (const x of out.routines.filter((x: { id: string }) => x.id !== "tool-search/scorer"))
        expect({ id: x.id, status: x.status }).toEqual({ id: x.id, status: "found" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
