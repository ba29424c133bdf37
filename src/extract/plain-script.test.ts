import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acorn from "acorn";
import { afterAll, describe, expect, it } from "vitest";
import { npmPackMember } from "../../test/helpers/cache.js";
import { FileByteSource } from "./byte-source.js";
import { readPlainScript } from "./plain-script.js";

const dir = mkdtempSync(join(tmpdir(), "searchlift-plain-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(name: string, contents: string | Buffer) {
  const file = join(dir, name);
  writeFileSync(file, contents);
  const src = new FileByteSource(file);
  const c = readPlainScript(src, file);
  if (!c) src.close();
  return c;
}

/** A >1 MiB body (past the full-parse limit) that is valid JavaScript. */
function bulk(bytes: number): string {
  const line = "function f0(a, b) { return a.map((x) => x * b).filter(Boolean); }\n";
  return line.repeat(Math.ceil(bytes / line.length));
}

describe("readPlainScript", () => {
  it("reads the real 2.1.112 cli.js: one esm utf8 module spanning the file, and acorn agrees it is a module", () => {
    const file = npmPackMember("@anthropic-ai/claude-code@2.1.112", "package/cli.js");
    const src = new FileByteSource(file);
    const c = readPlainScript(src, file)!;
    expect(c.format).toBe("plain-script");
    expect(c.modules).toHaveLength(1);
    const m = c.modules[0]!;
    expect(m).toMatchObject({
      path: "cli.js",
      kind: "js",
      moduleFormat: "esm",
      encoding: "utf8",
      start: 0,
      end: src.size,
      size: src.size,
      bytecode: false,
    });
    const bytes = readFileSync(file);
    expect(c.read(m).equals(bytes)).toBe(true);
    // The cheap verdict must match the real parser (slow: ~4 s on this machine).
    const program = acorn.parse(c.text(m), { ecmaVersion: "latest", sourceType: "module", allowHashBang: true });
    expect(program.body.some((s) => s.type === "ImportDeclaration")).toBe(true);
    c.close();
  });

  it("tells esm, cjs and none apart in small files by parsing", () => {
    expect(open("a.mjs", 'import x from "y";\nconsole.log(x);\n')!.modules[0]!.moduleFormat).toBe("esm");
    expect(open("b.js", 'const fs = require("fs");\nmodule.exports = fs;\n')!.modules[0]!.moduleFormat).toBe("cjs");
    expect(open("c.js", "console.log(1 + 1);\n")!.modules[0]!.moduleFormat).toBe("none");
    expect(open("d.cjs", "console.log(1 + 1);\n")!.modules[0]!.moduleFormat).toBe("cjs");
    // `require(` inside a string does not make an ESM file CommonJS.
    expect(open("e.js", 'export const s = "require(x)";\n')!.modules[0]!.moduleFormat).toBe("esm");
    // Sloppy-mode script (with): fails as a module, parses as a script.
    const w = open("f.js", "with (Math) { console.log(PI); }\n")!;
    expect(w.notes).toEqual([]);
  });

  it("lists a .js file that does not parse, with a note", () => {
    const c = open("broken.js", "function ( {\n")!;
    expect(c.modules).toHaveLength(1);
    expect(c.modules[0]!.kind).toBe("js");
    expect(c.notes).toHaveLength(1);
    expect(c.notes[0]).toMatch(/^broken\.js does not parse as JavaScript: /);
  });

  it("accepts an extensionless text file with a BOM and #! line only if it parses", () => {
    const c = open("tool", "\uFEFF#!/usr/bin/env node\nconst a = process.argv.slice(2);\nconsole.log(a.join(' '));\n")!;
    expect(c).not.toBeNull();
    expect(c.modules[0]!.encoding).toBe("utf8");
    expect(c.modules[0]!.end).toBe(c.modules[0]!.size);
    expect(open("README", "This is prose. It is text but not a program at all, sorry.\n")).toBeNull();
    // Parses (identifiers, one per line) but does nothing: not a script.
    expect(open("words.txt", "alpha\nbeta\ngamma\n")).toBeNull();
    expect(open("data.json", '[{"a": 1}, {"b": [2, 3]}]\n')).toBeNull();
  });

  it("returns null for binary bytes in the head, even with a .js name", () => {
    expect(open("bin.js", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]))).toBeNull();
    expect(open("empty.js", "")).toBeNull();
  });

  it("records latin1 when the bytes are not valid UTF-8", () => {
    const c = open("latin.js", Buffer.concat([Buffer.from("var s = '"), Buffer.from([0xe9]), Buffer.from("';\n")]))!;
    expect(c.modules[0]!.encoding).toBe("latin1");
    expect(c.text(c.modules[0]!)).toBe("var s = 'é';\n");
  });

  it("decides the format of large files from head tokens, tail and CommonJS idioms (no full parse)", () => {
    const big = bulk(1.5 * 1024 * 1024);
    expect(open("big-esm.js", 'import { a } from "./a.js";\n' + big)!.modules[0]!.moduleFormat).toBe("esm");
    expect(open("big-tail.js", big + "export { f0 };\n")!.modules[0]!.moduleFormat).toBe("esm");
    expect(open("big-cjs.js", big + "module.exports = f0;\n")!.modules[0]!.moduleFormat).toBe("cjs");
    // `import(` and `import.meta` are not static imports; an `import` in a string is not a token.
    expect(open("big-dyn.js", 'const m = import("./x.js"); const s = "import { y } from z";\n' + big)!.modules[0]!.moduleFormat).toBe(
      "none",
    );
    // A large extensionless file is taken on its #! line; without one it is left to the carver.
    expect(open("big-tool", "#!/usr/bin/env node\n" + big)).not.toBeNull();
    expect(open("big-noname", bulk(5 * 1024 * 1024))).toBeNull();
  });
});
