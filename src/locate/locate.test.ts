import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openContainer } from "../extract/open-container.js";
import { locate } from "./locate.js";
import { compileSignature, type SignatureSpec } from "./signature.js";

const spec: SignatureSpec = {
  id: "demo/pick",
  summary: "a function that picks by a select: regex",
  markers: [{ regex: "/^pick:(.+)$/", max: 2 }],
  variants: [
    { name: "strict", anchor: "function $F($Q) { $$$ }", has: ["$Q.match(/^pick:(.+)$/)", "$M[1].trim()"] },
    { name: "loose", anchor: "function $F($Q) { $$$ }", has: ["$Q.match(/^pick:(.+)$/)"] },
  ],
  roles: { F: "picker", Q: "query" },
};
const sig = compileSignature(spec);

function run(code: string) {
  const dir = mkdtempSync(join(tmpdir(), "searchlift-locate-"));
  const file = join(dir, "app.js");
  writeFileSync(file, code);
  const c = openContainer(file);
  try {
    return locate(c, [sig])[0]!;
  } finally {
    c.close();
  }
}

describe("locate", () => {
  it("reports the unique match with its position, variant and roles", () => {
    const code = "const x = 1;\nfunction pick(q) { let m = q.match(/^pick:(.+)$/); return m && m[1].trim(); }\npick('a');\n";
    const r = run(code);
    expect(r).toMatchObject({ status: "found", variant: "strict", line: 2, column: 1, roles: { picker: "pick", query: "q" } });
    expect(code.slice(r.start, r.end)).toMatch(/^function pick\(q\) \{.*\}$/);
  });

  it("says absent when nothing matches, and ambiguous for two live matches of one variant", () => {
    expect(run("function other(q) { return q.match(/^take:(.+)$/); }").status).toBe("absent");
    const two = "function a(q) { return q.match(/^pick:(.+)$/); }\nfunction b(q) { return q.match(/^pick:(.+)$/); }\na(1); b(2);\n";
    const r = run(two);
    expect(r.status).toBe("ambiguous");
    expect(r.candidates!.map((c) => c.roles.picker)).toEqual(["a", "b"]);
  });

  it("prefers the earlier variant, then referenced code, and says what it ignored", () => {
    const code =
      "function a(q) { return q.match(/^pick:(.+)$/); }\nfunction b(q) { let m = q.match(/^pick:(.+)$/); return m[1].trim(); }\nb(1);\n";
    expect(run(code)).toMatchObject({ status: "found", variant: "strict", roles: { picker: "b" } });
    const dead = "function a(q) { return q.match(/^pick:(.+)$/); }\nfunction b(q) { return q.match(/^pick:(.+)$/); }\nb(1);\n";
    const r = run(dead);
    expect(r).toMatchObject({ status: "found", roles: { picker: "b" } });
    expect(r.warnings!.join()).toMatch(/ignored loose look-alike/);
  });

  it("warns when a marker occurs more often than the signature allows", () => {
    const code =
      "function pick(q) { let m = q.match(/^pick:(.+)$/); return m[1].trim(); }\n" + "var r = [/^pick:(.+)$/, /^pick:(.+)$/];\npick(1);\n";
    const r = run(code);
    expect(r.status).toBe("found");
    expect(r.warnings).toEqual(["/^pick:(.+)$/ occurs 3 times (signature allows 2)"]);
  });
});
