import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModuleEntry } from "../extract/types.js";
import type { Signature } from "../locate/signature.js";
import { definitionKey } from "./closure.js";
import { helperNotes } from "./helper-notes.js";

const dir = mkdtempSync(join(tmpdir(), "helper-notes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Only the fields helperNotes reads: the definition's module path and name, and the signature's file.
const definition = { module: { path: "cli.js" } as ModuleEntry, name: "Qx", port: "memoize" };
const code = { closure: { definitions: [definition] }, names: new Map([[definitionKey(definition), "memoizedHelper"]]) };

function noteFrom(text: string): string | undefined {
  const file = join(dir, "sig.json");
  writeFileSync(file, text);
  return helperNotes(code, [{ file } as Signature], dir).get("memoizedHelper");
}

describe("helper notes from a signature's ports", () => {
  it("say what the port stands in for, from its summary", () => {
    const spec = {
      id: "r/s",
      ports: [{ name: "memoize", summary: "A memoizer (keyed by its argument). Replaced by a Map.", anchor: "x" }],
    };
    expect(noteFrom(JSON.stringify(spec))).toBe("The memoize port, in place of a memoizer.");
  });

  it("name only the port when the signature file does not parse or its ports are of another shape", () => {
    for (const bad of ['{ "ports": [', JSON.stringify({ ports: [{ name: "memoize", summary: 7 }] }), JSON.stringify({ ports: {} })])
      expect(noteFrom(bad)).toBe("The memoize port.");
  });
});
