import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExitCode, SearchliftError } from "../errors.js";
import { readToolsFile } from "./tools-file.js";

const dir = mkdtempSync(join(tmpdir(), "tools-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(value: unknown): ReturnType<typeof readToolsFile> {
  const file = join(dir, "tools.json");
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return readToolsFile(file);
}

function refusal(value: unknown): SearchliftError {
  try {
    read(value);
  } catch (e) {
    if (e instanceof SearchliftError) return e;
    throw e;
  }
  throw new Error("read");
}

describe("a tools file", () => {
  it("a tools/list result or an array: name, description and an object _meta kept, anything else dropped", () => {
    const tool = { name: "report", description: "Build", _meta: { a: 1 }, inputSchema: {} };
    expect(read({ serverName: "acme", tools: [tool, { name: "b", _meta: [1] }] })).toEqual({
      serverName: "acme",
      tools: [{ name: "report", description: "Build", _meta: { a: 1 } }, { name: "b" }],
    });
    expect(read([{ name: "b" }])).toEqual({ tools: [{ name: "b" }] });
  });

  it("a malformed one is refused on one line that says which tool and field, as a usage error", () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { tools: [{ name: "a" }, { description: "no name" }] },
        /^not a tools list \(tool 2: name: Invalid input: expected string, received undefined\): expected/,
      ],
      [[{ name: "a", description: 3 }], /^not a tools list \(tool 1: description: Invalid input: expected string, received number\)/],
      [[{ name: "" }], /^not a tools list \(tool 1: name: Too small/],
      [{ tool: [] }, /^not a tools list \(no tools array\)/],
      ["{", /^not JSON: /],
    ];
    for (const [value, message] of cases) {
      const e = refusal(value);
      expect(e.message).toMatch(message);
      expect(e.message).not.toContain("\n");
      expect(e.exitCode).toBe(ExitCode.usage);
    }
  });
});
