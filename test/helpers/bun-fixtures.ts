/**
 * Bun standalone executables built at test time from samples/bun-app with real Bun releases,
 * cached under cacheDir("fixtures", "bun", …) by a hash of everything that shapes the output:
 * the sample files, the entry points, the flags, the target and the Bun version.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir, npmPackMember } from "./cache.js";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, "..", "..");
export const SAMPLES = join(REPO, "samples", "bun-app");

/** The Bun from devDependencies (1.4.x), or an older release unpacked from npm for this host. */
export function bunBinary(version?: string): string {
  if (!version) return join(REPO, "node_modules", ".bin", "bun");
  const bin = npmPackMember(`@oven/bun-linux-x64@${version}`, "package/bin/bun");
  chmodSync(bin, 0o755);
  return bin;
}

export function bunVersion(bin: string): string {
  return execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
}

export interface BunBuild {
  /** Release to build with; default: the devDependency. */
  version?: string;
  /** `--target` value (e.g. bun-darwin-arm64); default: the host. */
  target?: string;
  flags?: string[];
  /** Entry points relative to samples/bun-app; the first names the executable. */
  entries?: string[];
  /** Outfile basename: the entry module's virtual name. */
  name?: string;
}

export interface BuiltFixture {
  path: string;
  bunVersion: string;
  /** Outfile basename = the entry module's name under the virtual root. */
  name: string;
}

function sampleHash(): string {
  const h = createHash("sha256");
  for (const f of readdirSync(SAMPLES).sort()) {
    h.update(f)
      .update("\0")
      .update(readFileSync(join(SAMPLES, f)));
  }
  return h.digest("hex");
}

export function buildBun(opts: BunBuild = {}): BuiltFixture {
  const bin = bunBinary(opts.version);
  const version = bunVersion(bin);
  const entries = opts.entries ?? ["main.js"];
  const name = opts.name ?? "app";
  const flags = opts.flags ?? [];
  const key = createHash("sha256")
    .update(JSON.stringify({ version, target: opts.target ?? "host", flags, entries, name, samples: sampleHash() }))
    .digest("hex")
    .slice(0, 16);
  const dir = cacheDir("fixtures", "bun", key);
  const done = join(dir, "built.json");
  if (existsSync(done)) return JSON.parse(readFileSync(done, "utf8")) as BuiltFixture;
  const tmp = join(dir, `.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  // Build inside a private copy of the samples: Bun 1.0.x writes the outfile into the working
  // directory whatever path it is given, and nothing may land in the repository.
  for (const f of readdirSync(SAMPLES)) copyFileSync(join(SAMPLES, f), join(tmp, f));
  const args = ["build", "--compile", ...entries, "--outfile", name, ...flags];
  if (opts.target) args.push(`--target=${opts.target}`);
  try {
    execFileSync(bin, args, { cwd: tmp, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    const err = e as { stderr?: Buffer; stdout?: Buffer };
    throw new Error(`bun ${version} ${args.join(" ")} failed: ${String(err.stderr ?? "")}${String(err.stdout ?? "")}`, { cause: e });
  }
  // Windows targets get ".exe" appended; sourcemap builds also leave a .map beside the output.
  const out = [name, `${name}.exe`].map((f) => join(tmp, f)).find((f) => existsSync(f) && statSync(f).isFile());
  if (!out) throw new Error(`bun ${version} wrote no executable into ${tmp}`);
  const final = join(dir, out.slice(tmp.length + 1));
  renameSync(out, final);
  rmSync(tmp, { recursive: true, force: true });
  const built: BuiltFixture = { path: final, bunVersion: version, name };
  writeFileSync(done, JSON.stringify(built));
  return built;
}

/** A fat (universal) Mach-O made of the given thin Mach-O files, each slice aligned to 2^14. */
export function fatMacho(slices: string[]): string {
  const key = createHash("sha256");
  for (const s of slices) key.update(readFileSync(s));
  const dir = cacheDir("fixtures", "fat", key.digest("hex").slice(0, 16));
  const out = join(dir, "universal");
  if (existsSync(out)) return out;
  const ALIGN = 14;
  const header = Buffer.alloc(8 + 20 * slices.length);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(slices.length, 4);
  const parts: Buffer[] = [header];
  let at = 1 << ALIGN;
  slices.forEach((s, i) => {
    const body = readFileSync(s);
    const o = 8 + 20 * i;
    header.writeUInt32BE(body.readUInt32LE(4), o); // cputype from the slice header
    header.writeUInt32BE(body.readUInt32LE(8), o + 4); // cpusubtype
    header.writeUInt32BE(at, o + 8);
    header.writeUInt32BE(body.length, o + 12);
    header.writeUInt32BE(ALIGN, o + 16);
    const used = parts.reduce((n, p) => n + p.length, 0);
    parts.push(Buffer.alloc(at - used), body);
    at = Math.ceil((at + body.length) / (1 << ALIGN)) * (1 << ALIGN);
  });
  writeFileSync(out + ".tmp", Buffer.concat(parts));
  renameSync(out + ".tmp", out);
  return out;
}
