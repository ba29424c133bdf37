import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageVersion } from "./installs.js";

const dir = mkdtempSync(join(tmpdir(), "installs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function versionOf(text: string) {
  const pkg = join(dir, "pkg");
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, "package.json"), text);
  return packageVersion(pkg);
}

describe("an installed package's package.json", () => {
  it("gives the version of a Claude Code package, or null when it names none that is a version", () => {
    expect(versionOf(JSON.stringify({ name: "@anthropic-ai/claude-code", version: "2.1.112" }))).toBe("2.1.112");
    expect(versionOf(JSON.stringify({ name: "@anthropic-ai/claude-code-linux-x64", version: "2.1.229" }))).toBe("2.1.229");
    for (const version of [undefined, 2, "latest", "../2.1.112"])
      expect(versionOf(JSON.stringify({ name: "@anthropic-ai/claude-code", version }))).toBeNull();
  });

  it("is no Claude Code package (undefined) when missing, not JSON, or of another name or shape", () => {
    expect(packageVersion(join(dir, "none"))).toBeUndefined();
    for (const bad of [
      '{ "name": "@anthropic-ai/claude-code"',
      "null",
      "[]",
      JSON.stringify({ name: "left-pad", version: "1.0.0" }),
      JSON.stringify({ version: "2.1.112" }),
    ])
      expect(versionOf(bad)).toBeUndefined();
  });
});
