import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import * as tar from "tar";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { npmPack, npmPackMember } from "../../test/helpers/cache.js";
import { ExitCode, MalformedInput, SearchliftError, UnrecognizedInput } from "../errors.js";
import { openContainer, openContainerAsync } from "./open-container.js";
import type { Container } from "./types.js";

const work = mkdtempSync(join(tmpdir(), "searchlift-npm-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Every temporary file the reader makes goes under os.tmpdir(); point it at a private folder so
// the tests can prove nothing is left behind (on success after close(), and on every error).
let scratch: string;
const savedTmp = process.env.TMPDIR;
beforeEach(() => {
  scratch = mkdtempSync(join(work, "tmp-"));
  process.env.TMPDIR = scratch;
});
afterEach(() => {
  process.env.TMPDIR = savedTmp;
  if (savedTmp === undefined) delete process.env.TMPDIR;
});
const leftovers = () => readdirSync(scratch);

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Write files under a fresh folder: { "package/package.json": "...", ... }. */
function tree(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(work, "pkg-"));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
  return root;
}

/** A .tgz of `files` with entries in the given order (so package.json can come last, as in platform packages). */
function tgz(files: Record<string, string | Buffer>, order = Object.keys(files)): string {
  const root = tree(files);
  const file = join(work, `p-${Math.random().toString(36).slice(2)}.tgz`);
  tar.c({ gzip: true, file, cwd: root, sync: true, portable: true }, order);
  return file;
}

/** A .tgz of `entries` exactly as given, repeats included (tar.c would collapse those): ustar by hand. */
function rawTgz(entries: Array<[string, string | Buffer]>): string {
  const blocks: Buffer[] = [];
  for (const [name, body] of entries) {
    const data = Buffer.from(body);
    const header = Buffer.alloc(512);
    header.write(name, 0, 100, "utf8");
    header.write("0000644\0", 100);
    header.write("0000000\0", 108);
    header.write("0000000\0", 116);
    header.write(data.length.toString(8).padStart(11, "0") + "\0", 124);
    header.write("00000000000\0", 136);
    header.write("        ", 148);
    header.write("0", 156);
    header.write("ustar\0" + "00", 257);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  const file = join(work, `raw-${Math.random().toString(36).slice(2)}.tgz`);
  writeFileSync(file, gzipSync(Buffer.concat(blocks)));
  return file;
}

function thrown(f: () => unknown): SearchliftError {
  try {
    f();
  } catch (e) {
    if (e instanceof SearchliftError) return e;
    throw e;
  }
  throw new Error("expected a SearchliftError");
}

const MANIFEST = (m: object) => JSON.stringify({ name: "demo", version: "1.0.0", ...m });
const SCRIPT = 'import { x } from "./x.js";\nexport const y = x + 1;\nconsole.log(y);\n';
/** Over the carver's 256-byte minimum. */
const BIG_SCRIPT = SCRIPT + "console.log(y * 2);\n".repeat(20);

describe("real releases", () => {
  for (const version of ["2.0.70", "2.1.112"]) {
    it(`@anthropic-ai/claude-code@${version} .tgz: package/cli.js, one esm module, bytes equal to the tarball member`, async ({
      annotate,
    }) => {
      const file = npmPack(`@anthropic-ai/claude-code@${version}`);
      const want = execFileSync("tar", ["-xzOf", file, "package/cli.js"], { maxBuffer: 64 * 1024 * 1024 });
      const t = performance.now();
      const c = openContainer(file);
      await annotate(`open ${version} .tgz: ${(performance.now() - t).toFixed(0)} ms`);
      expect(c.format).toBe("npm-package");
      expect(c.input).toBe(file);
      expect(c.file).not.toBe(file);
      expect(c.file.startsWith(scratch)).toBe(true);
      expect(c.entry).toBe("package/cli.js");
      expect(c.modules).toHaveLength(1);
      const m = c.modules[0]!;
      expect(m).toMatchObject({
        path: "package/cli.js",
        kind: "js",
        moduleFormat: "esm",
        encoding: "utf8",
        start: 0,
        end: want.length,
        size: want.length,
      });
      expect(sha(c.read(m))).toBe(sha(want));
      expect(c.notes.join("\n")).toContain(`@anthropic-ai/claude-code@${version}: cli.js (from bin.claude)`);
      c.close();
      expect(existsSync(c.file)).toBe(false);
      expect(leftovers()).toEqual([]);
    });

    it(`@anthropic-ai/claude-code@${version} unpacked folder: same module, ranges in the folder's cli.js`, () => {
      const cli = npmPackMember(`@anthropic-ai/claude-code@${version}`, "package/cli.js");
      npmPackMember(`@anthropic-ai/claude-code@${version}`, "package/package.json");
      const dir = dirname(cli);
      const c = openContainer(dir);
      expect(c.format).toBe("npm-package");
      expect(c.input).toBe(dir);
      expect(c.file).toBe(cli);
      expect(c.modules.map((m) => [m.path, m.moduleFormat, m.start, m.end])).toEqual([
        ["package/cli.js", "esm", 0, readFileSync(cli).length],
      ]);
      c.close();
      expect(existsSync(cli)).toBe(true); // a folder's files are the user's: never removed
    });
  }

  it("@anthropic-ai/claude-code@2.1.113 (wrapper) names the platform package for this host, leaving nothing behind", () => {
    const file = npmPack("@anthropic-ai/claude-code@2.1.113");
    const e = thrown(() => openContainer(file));
    expect(e).toBeInstanceOf(UnrecognizedInput);
    expect(e.exitCode).toBe(ExitCode.unrecognized);
    const host = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
    expect(e.message).toContain(`the program lives in the platform package ${host}`);
    if (process.platform === "linux" && process.arch === "x64") expect(e.message).toMatch(/claude-code-linux-x64(-musl)?@2\.1\.113/);
    expect(e.message).toContain("bin/claude.exe is a placeholder");
    expect(e.message).not.toContain("\n");
    expect(leftovers()).toEqual([]);

    // The same package unpacked to a folder.
    const dir = join(work, "wrapper");
    mkdirSync(dir, { recursive: true });
    execFileSync("tar", ["-xzf", file, "-C", dir]);
    const e2 = thrown(() => openContainer(join(dir, "package")));
    expect(e2).toBeInstanceOf(UnrecognizedInput);
    expect(e2.message).toBe(e.message);
  });

  it("platform package @anthropic-ai/claude-code-linux-x64@2.1.124 .tgz: the Bun binary keeps its format, member unpacked whole", async ({
    annotate,
  }) => {
    const file = npmPack("@anthropic-ai/claude-code-linux-x64@2.1.124");
    const t = performance.now();
    const c = openContainer(file);
    await annotate(`open linux-x64 2.1.124 .tgz (248 MB member): ${(performance.now() - t).toFixed(0)} ms`);
    expect(c.format).toBe("bun-elf");
    expect(c.input).toBe(file);
    expect(c.notes).toContain("program of @anthropic-ai/claude-code-linux-x64@2.1.124: claude (from files), a bun-elf container");
    expect(statSync(c.file).size).toBe(248109696); // the tar header's size for package/claude
    c.close();
    expect(leftovers()).toEqual([]);
  });
});

describe("synthetic packages", () => {
  it("bin map: prefers the entry named like the unscoped package name", () => {
    const dir = tree({
      "package.json": JSON.stringify({
        name: "@scope/mytool",
        version: "2.0.0",
        bin: { helper: "bin/helper.js", mytool: "./bin/main.mjs" },
      }),
      "bin/helper.js": "console.log('helper');\n",
      "bin/main.mjs": SCRIPT,
    });
    const c = openContainer(dir);
    expect(c.format).toBe("npm-package");
    expect(c.file).toBe(join(dir, "bin", "main.mjs"));
    expect(c.modules.map((m) => [m.path, m.moduleFormat])).toEqual([["package/bin/main.mjs", "esm"]]);
    expect(c.notes[0]).toBe("program of @scope/mytool@2.0.0: bin/main.mjs (from bin.mytool)");
    c.close();
  });

  it("bin map without a matching name: the first entry; bin string; main only", () => {
    const first = tree({
      "package.json": MANIFEST({ bin: { a: "a.js", b: "b.js" } }),
      "a.js": "console.log(1);\n",
      "b.js": "console.log(2);\n",
    });
    expect(openContainer(first).file).toBe(join(first, "a.js"));
    const str = tree({
      "package.json": MANIFEST({ bin: "cli.cjs", main: "lib.js" }),
      "cli.cjs": "module.exports = 1;\n",
      "lib.js": "x();\n",
    });
    expect(openContainer(str).modules[0]!.moduleFormat).toBe("cjs");
    const main = tree({ "package.json": MANIFEST({ main: "lib/index.js" }), "lib/index.js": SCRIPT });
    const c = openContainer(main);
    expect(c.modules[0]!.path).toBe("package/lib/index.js");
    expect(c.notes[0]).toContain("(from main)");
  });

  it("main resolved as Node does: added extension, or a folder's index.js (folder and .tgz)", () => {
    const noExt = { "package/package.json": MANIFEST({ main: "lib/cli" }), "package/lib/cli.js": SCRIPT };
    const folder = { "package/package.json": MANIFEST({ main: "./lib/" }), "package/lib/index.js": SCRIPT };
    for (const files of [noExt, folder]) {
      const want = Object.keys(files)[1]!;
      const d = openContainer(join(tree(files), "package"));
      expect(d.modules[0]!.path).toBe(want);
      const t = openContainer(tgz(files));
      expect(t.modules[0]!.path).toBe(want);
      expect(t.file.endsWith(want.slice(want.lastIndexOf("/")))).toBe(true);
      t.close();
    }
    expect(leftovers()).toEqual([]);
  });

  it("neither bin nor main: the single executable-looking `files` entry, else index.js", () => {
    const plat = tree({
      "package.json": MANIFEST({ files: ["tool", "README.md", "LICENSE.md"] }),
      tool: "#!/usr/bin/env node\nconsole.log(process.argv);\n",
      "README.md": "# hi\n",
    });
    expect(openContainer(plat).file).toBe(join(plat, "tool"));
    const idx = tree({ "package.json": MANIFEST({}), "index.js": SCRIPT });
    expect(openContainer(idx).file).toBe(join(idx, "index.js"));
  });

  it("a program that is not a script keeps its container format, with a note naming package and member", () => {
    // An unknown binary holding a NUL-framed program: the carver takes it; the package reader must not relabel it.
    const bin = Buffer.concat([
      Buffer.from([0xde, 0xad, 0xbe, 0xef, 2, 1, 1, 0]),
      Buffer.alloc(1000, 0x01),
      Buffer.from([0]),
      Buffer.from(BIG_SCRIPT),
      Buffer.from([0]),
      Buffer.alloc(500, 0x02),
    ]);
    const file = tgz({ "package/package.json": MANIFEST({ name: "demo-linux-x64", files: ["demo"] }), "package/demo": bin }, [
      "package/demo",
      "package/package.json",
    ]);
    const c = openContainer(file);
    expect(c.format).toBe("carved");
    expect(c.notes).toContain("program of demo-linux-x64@1.0.0: demo (from files), a carved container");
    expect(c.read(c.modules[0]!).toString()).toBe(BIG_SCRIPT);
    c.close();
    expect(leftovers()).toEqual([]);
  });

  it("errors about the unpacked member name the .tgz and the member, not the temporary copy", () => {
    // A member that claims to be an ELF but is cut short: the ELF reader refuses it.
    const bad = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(40)]);
    const file = tgz({ "package/package.json": MANIFEST({ bin: "bin/tool" }), "package/bin/tool": bad });
    const e = thrown(() => openContainer(file));
    expect(e.file).toBe(file);
    expect(e.message.startsWith("bin/tool: ")).toBe(true);
    expect(e.message).not.toContain(scratch);
    expect(leftovers()).toEqual([]);
  });

  it(".tgz with package.json after the member, member in a subfolder: exact bytes, temp file removed on close", () => {
    const body = Buffer.from(SCRIPT + "// é ☕\n".repeat(50_000)); // > 1 MiB of streamed data
    const file = tgz({
      "package/dist/cli.js": body,
      "package/package.json": MANIFEST({ bin: { demo: "dist/cli.js" } }),
      "package/other.js": "x();\n",
    });
    const c = openContainer(file);
    expect(c.format).toBe("npm-package");
    expect(c.input).toBe(file);
    expect(c.modules[0]).toMatchObject({ path: "package/dist/cli.js", start: 0, end: body.length, encoding: "utf8", moduleFormat: "esm" });
    expect(c.read(c.modules[0]!).equals(body)).toBe(true);
    expect(leftovers()).toHaveLength(1);
    c.close();
    expect(leftovers()).toEqual([]);
  });

  it("reads the copy npm installs, however the archive orders package.json, repeats and programs", () => {
    const script = (tag: string) => Buffer.from(`${SCRIPT}// ${tag}\n`);
    const opened = (entries: Array<[string, string | Buffer]>) => {
      const c = openContainer(rawTgz(entries));
      try {
        return c.read(c.modules[0]!).toString("utf8");
      } finally {
        c.close();
      }
    };
    // The platform layout: the program first, package.json after it; a later copy replaces the first.
    expect(
      opened([
        ["package/tool", script("first")],
        ["package/tool", script("last")],
        ["package/package.json", MANIFEST({ bin: "tool" })],
      ]),
    ).toContain("// last");
    // A later package.json names another program, which the archive held before it.
    expect(
      opened([
        ["package/package.json", MANIFEST({ bin: "a.js" })],
        ["package/b.js", script("b")],
        ["package/a.js", script("a")],
        ["package/package.json", MANIFEST({ bin: "b.js" })],
      ]),
    ).toContain("// b");
    // Many executable-looking files before package.json: the program is still found, past them.
    const many: Array<[string, string | Buffer]> = Array.from({ length: 7 }, (_, i) => [`package/tool${i}`, script(`tool${i}`)]);
    expect(opened([...many, ["package/package.json", MANIFEST({ bin: "tool6" })]])).toContain("// tool6");
    expect(leftovers()).toEqual([]);
    // Cut inside the program, package.json never read: malformed, nothing left behind.
    const whole = rawTgz([
      ["package/tool", Buffer.from(SCRIPT.repeat(20_000))],
      ["package/package.json", MANIFEST({ bin: "tool" })],
    ]);
    const cut = join(work, "cut-first.tgz");
    writeFileSync(cut, readFileSync(whole).subarray(0, 2000));
    expect(thrown(() => openContainer(cut))).toBeInstanceOf(MalformedInput);
    expect(leftovers()).toEqual([]);
  });

  it("wrapper recognised by structure: placeholder bin + platform optionalDependencies; an installed real program opens with a note", () => {
    const manifest = MANIFEST({
      name: "@acme/tool",
      version: "3.1.4",
      bin: { tool: "bin/tool.exe" },
      optionalDependencies: {
        "@acme/tool-linux-x64": "3.1.4",
        "@acme/tool-linux-x64-musl": "3.1.4",
        "@acme/tool-darwin-arm64": "3.1.4",
        "@acme/tool-win32-x64": "3.1.4",
      },
    });
    const placeholder = tgz({
      "package/package.json": manifest,
      "package/bin/tool.exe": 'echo "tool: native binary not installed" >&2\nexit 1\n',
    });
    const e = thrown(() => openContainer(placeholder));
    expect(e).toBeInstanceOf(UnrecognizedInput);
    expect(e.message).toMatch(
      /^@acme\/tool@3\.1\.4 is a wrapper: its bin\/tool\.exe is a placeholder; the program lives in the platform package @acme\/tool-/,
    );
    expect(leftovers()).toEqual([]);
    const missing = tgz({ "package/package.json": manifest });
    expect(thrown(() => openContainer(missing)).message).toContain("bin/tool.exe is missing");

    const installed = tree({ "package.json": manifest, "bin/tool.exe": "#!/usr/bin/env node\nrequire('child_process').spawnSync('x');\n" });
    const c = openContainer(installed);
    expect(c.format).toBe("npm-package");
    expect(c.notes.some((n) => /native program may live in @acme\/tool-/.test(n))).toBe(true);
  });

  it("folders without a program: one-line UnrecognizedInput", () => {
    const empty = tree({ "README.md": "nothing here\n" });
    const e = thrown(() => openContainer(empty));
    expect(e).toBeInstanceOf(UnrecognizedInput);
    expect(e.message).toBe("not an npm package: no package.json / no JavaScript");
    const noBin = tree({ "package.json": MANIFEST({ bin: "cli.js" }) });
    expect(thrown(() => openContainer(noBin)).message).toBe(
      "demo@1.0.0: its program cli.js (from bin) is not in the package — no JavaScript",
    );
  });

  it("broken manifests and archives: MalformedInput/UnrecognizedInput, never a raw error, nothing left behind", () => {
    const badJson = tree({ "package.json": "{ nope", "index.js": SCRIPT });
    expect(thrown(() => openContainer(badJson))).toBeInstanceOf(MalformedInput);
    const escape = tree({ "package.json": MANIFEST({ bin: "../../etc/passwd" }) });
    expect(thrown(() => openContainer(escape)).message).toMatch(/does not name a file inside the package/);
    const huge = tgz({ "package/package.json": MANIFEST({ pad: "x".repeat(2 * 1024 * 1024) }) });
    expect(thrown(() => openContainer(huge)).message).toMatch(/refusing more than/);

    const good = tgz({ "package/package.json": MANIFEST({ bin: "cli.js" }), "package/cli.js": Buffer.from(SCRIPT.repeat(20_000)) });
    const bytes = readFileSync(good);
    const cut = join(work, "cut.tgz");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const e = thrown(() => openContainer(cut));
    expect(e).toBeInstanceOf(MalformedInput);
    expect(leftovers()).toEqual([]);

    const notTar = join(work, "x.gz");
    writeFileSync(notTar, execFileSync("gzip", ["-c"], { input: "just text, not a tarball\n".repeat(100) }));
    expect(thrown(() => openContainer(notTar))).toBeInstanceOf(UnrecognizedInput);
    expect(leftovers()).toEqual([]);
  });

  it("refuses a package whose program is itself a package, beyond a small depth", () => {
    let inner = tgz({ "package/package.json": MANIFEST({ bin: "cli.js" }), "package/cli.js": SCRIPT });
    // One level of nesting is fine (a package shipping its real program as a .tgz).
    const one = tgz({ "package/package.json": MANIFEST({ bin: "inner.tgz" }), "package/inner.tgz": readFileSync(inner) });
    const c = openContainer(one);
    expect(c.modules[0]!.path).toBe("package/cli.js");
    c.close();
    for (let i = 0; i < 3; i++)
      inner = tgz({ "package/package.json": MANIFEST({ bin: "inner.tgz" }), "package/inner.tgz": readFileSync(inner) });
    expect(thrown(() => openContainer(inner))).toBeInstanceOf(MalformedInput);
    expect(leftovers()).toEqual([]);
  });
});

describe("openContainerAsync (zlib on libuv's pool, the file fed in reused buffers)", () => {
  /** What opening `file` gives: each module's path and digest, or the error's kind, exit code and message. */
  async function outcome(open: () => Container | Promise<Container>): Promise<unknown> {
    try {
      const c = await open();
      try {
        return c.modules.map((m) => [m.path, sha(c.read(m))]);
      } finally {
        c.close();
      }
    } catch (e) {
      if (!(e instanceof SearchliftError)) throw e;
      return { kind: e.constructor.name, exitCode: e.exitCode, message: e.message };
    }
  }

  it("opens what openContainer opens, and refuses cut and damaged archives as it does, leaving nothing behind", async () => {
    // Incompressible text, so that the archive takes several reads of a megabyte.
    const noise = randomBytes(4_000_000).toString("base64").replace(/.{76}/g, "// $&\n");
    const good = tgz({ "package/package.json": MANIFEST({ bin: "cli.js" }), "package/cli.js": `${SCRIPT}${noise}\n` });
    const bytes = readFileSync(good);
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    const variant = (name: string, b: Buffer) => {
      const file = join(work, name);
      writeFileSync(file, b);
      return file;
    };
    const flipped = Buffer.from(bytes);
    for (let i = 0; i < 64; i++) flipped[Math.floor(bytes.length / 2) + i]! ^= 0xff;
    const inputs = [
      good,
      variant("cut-early.tgz", bytes.subarray(0, 3000)),
      variant("cut-late.tgz", bytes.subarray(0, bytes.length - 5000)),
      variant("cut-at-read.tgz", bytes.subarray(0, 2 * 1024 * 1024)),
      variant("flipped.tgz", flipped),
    ];
    const seen = [];
    for (const file of inputs) {
      const sync = await outcome(() => openContainer(file));
      expect(await outcome(() => openContainerAsync(file))).toEqual(sync);
      expect(leftovers()).toEqual([]);
      seen.push(sync);
    }
    expect(seen[0]).toEqual([["package/cli.js", sha(Buffer.from(`${SCRIPT}${noise}\n`))]]);
    for (const s of seen.slice(1)) expect(s).toMatchObject({ kind: "MalformedInput", exitCode: ExitCode.malformed });
  });
});
