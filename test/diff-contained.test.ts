/**
 * No code from an input runs in searchlift's process: the behaviour view of diff and track runs each
 * lifted module in the sandbox. Modules with payloads (a marker file, the environment) given to
 * `searchlift diff` as files are refused or contained; a module that throws, lacks an export or hangs is
 * exit 14 on one line; and the sandboxed view answers exactly as the module imported into this process
 * answered before (the view as it was, kept below as the reference), on the lifted sample releases.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxScript } from "../src/diff/behaviour.js";
import { runCalls, type ContractCall } from "../src/diff/witness-run.js";
import { ExitCode } from "../src/errors.js";
import { liftInput } from "../src/lift/lift.js";
import { toolSearchProbes } from "../src/routines/tool-search/probes.js";
import { timelineChanges } from "../src/track/changes.js";
import { buildTimeline } from "../src/track/timeline.js";
import { moduleToScript } from "../src/verify/module-script.js";
import { ROOT, runCli } from "./helpers/cli.js";
import { toolSearchPack } from "../src/routines/tool-search/index.js";

const SECRET = "searchlift-test-secret-4f1c";
const dir = mkdtempSync(join(tmpdir(), "searchlift-contained-"));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function diff(a: string, b: string) {
  return runCli(["diff", a, b, "--json"], { timeout: 300_000, env: { SEARCHLIFT_TEST_SECRET: SECRET } });
}

const CONTRACT_TAIL =
  "async function scoreTools() { return []; }\nasync function toolSearch() { return []; }\nexport { searchTools, scoreTools, toolSearch };\n";

/** A well-behaved hand-written module: the tools whose name holds the query. */
const good = () =>
  write(
    "good.mjs",
    "async function searchTools(query, deferred) { return deferred.filter((t) => t.name.includes(query)).map((t) => t.name).slice(0, 5); }\n" +
      CONTRACT_TAIL,
  );

/** A lifted-looking module that writes `marker` and reads the environment, openly, on import and when called. */
function openPayload(marker: string): string {
  return write(
    "evil-open.mjs",
    [
      `process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)}, "imported");`,
      "async function searchTools(query) {",
      `  process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)}, String(process.env.SEARCHLIFT_TEST_SECRET));`,
      "  return [String(process.env.SEARCHLIFT_TEST_SECRET)];",
      "}",
      CONTRACT_TAIL,
    ].join("\n"),
  );
}

/** The same payload reached only at call time, through computed keys: no free name but built-ins. */
function hiddenPayload(name: string, marker: string): string {
  return write(
    name,
    [
      'const key = ["con", "structor"].join("");',
      "async function searchTools(query) {",
      '  const host = [][key][key]("return globalThis")();',
      '  const p = host[["pro", "cess"].join("")];',
      `  p.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)}, String(p.env.SEARCHLIFT_TEST_SECRET));`,
      "  return [String(p.env.SEARCHLIFT_TEST_SECRET)];",
      "}",
      CONTRACT_TAIL,
    ].join("\n"),
  );
}

describe("searchlift diff on modules with payloads (command line)", () => {
  it("refuses a module that names process, with exit 14 and its first use; nothing is written", () => {
    const marker = join(dir, "marker-open");
    const r = diff(openPayload(marker), good());
    expect(r.code).toBe(ExitCode.brokenModule);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/evil-open\.mjs: refused: the module uses process at 1:\d+/);
    expect(r.stdout).toBe("");
    expect(existsSync(marker)).toBe(false);
    // The other side too.
    expect(diff(good(), openPayload(marker)).code).toBe(ExitCode.brokenModule);
    expect(existsSync(marker)).toBe(false);
  });

  it("contains a module that reaches for the host only at call time: exit 14, nothing written, no secret printed", () => {
    const marker = join(dir, "marker-hidden");
    const r = diff(hiddenPayload("evil-hidden.mjs", marker), good());
    expect(r.code).toBe(ExitCode.brokenModule);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(existsSync(marker)).toBe(false);
  });

  it("exit 14 on one line for a module that throws when evaluated, lacks an export, or never returns", () => {
    const throws = write("throws.mjs", 'throw new Error("boom at load");\nasync function searchTools() { return []; }\n' + CONTRACT_TAIL);
    const r1 = diff(throws, good());
    expect([r1.code, r1.stderr.trim().split("\n").length]).toEqual([ExitCode.brokenModule, 1]);
    expect(r1.stderr).toMatch(/throws\.mjs: the lifted module cannot be run.*boom at load/);

    const partial = write("partial.mjs", "export async function searchTools() { return []; }\n");
    const r2 = diff(good(), partial);
    expect([r2.code, r2.stderr.trim().split("\n").length]).toEqual([ExitCode.brokenModule, 1]);
    expect(r2.stderr).toMatch(
      /partial\.mjs: the lifted module cannot be run \(in the sandbox\): Error: not a lifted tool-search module: no scoreTools, toolSearch export/,
    );

    const hangs = write("hangs.mjs", "async function searchTools() { for (;;) {} }\n" + CONTRACT_TAIL);
    const r3 = diff(hangs, good());
    expect([r3.code, r3.stderr.trim().split("\n").length]).toEqual([ExitCode.brokenModule, 1]);
    // Every call runs out of its CPU time, and the child out of its wall clock.
    expect(r3.stderr).toMatch(/hangs\.mjs: the lifted module failed in the sandbox: .*(limit|timed out)/);
  });
});

describe("the sandbox holds what the static check lets through", () => {
  it("a module run with no static check at all sees no process, and writes nothing", async () => {
    const marker = join(dir, "marker-unchecked");
    const path = hiddenPayload("unchecked.mjs", marker);
    // Straight to the sandbox, past sandboxScript's check: whatever purity.ts allows, this is what runs.
    const script = moduleToScript(readFileSync(path, "utf8"));
    const [r] = await runCalls({ script, label: path }, [{ fn: "searchTools", query: "notebook", deferred: [], loaded: [] }]);
    // The call fails (its error is the answer), and nothing is written.
    expect(r).toMatchObject({ ok: false });
    expect((r as { error: string }).error).toMatch(/TypeError: .*getBuiltinModule/);
    expect(existsSync(marker)).toBe(false);

    // What the module reaches through the Function constructor is the sandbox's global, holding built-ins only.
    const probe = moduleToScript(
      'const key = "constructor";\nasync function searchTools() { const g = [][key][key]("return globalThis")(); return ["process", "require", "fetch", "Buffer", "setTimeout"].filter((n) => n in g); }\n' +
        CONTRACT_TAIL,
    );
    const [seen] = await runCalls({ script: probe, label: "probe" }, [{ fn: "searchTools", query: "x", deferred: [], loaded: [] }]);
    expect(seen).toEqual({ ok: true, value: [] });
  });
});

describe("track's behaviour view", () => {
  it("refuses or contains a change point's payload module, and the change gets a note", async () => {
    const marker = join(dir, "marker-track");
    const t = buildTimeline([
      { input: "a", version: "1.0.0", platform: "npm", routineHash: "a".repeat(64), verified: null, module: good() },
      {
        input: "b",
        version: "1.0.1",
        platform: "npm",
        routineHash: "b".repeat(64),
        verified: null,
        module: hiddenPayload("track-evil.mjs", marker),
      },
    ]);
    const [c] = await timelineChanges(t, { budget: { cases: 50 }, pack: toolSearchPack });
    expect(c!.behaviour).toBeNull();
    expect(c!.note).toMatch(/track-evil\.mjs/);
    // The static check refuses the computed key; were it let through, the sandbox would contain the call.
    expect(c!.note).toMatch(/refused: the module uses a computed key not passed through propertyKey/);
    expect(existsSync(marker)).toBe(false);
  });
});

describe("searchlift's own code", () => {
  it("imports modules by literal names only: no path from an input reaches import()", () => {
    const files = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" }).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"),
    );
    expect(files.length).toBeGreaterThan(20);
    const dynamic: string[] = [];
    for (const f of files) {
      const source = ts.createSourceFile(f, readFileSync(join(ROOT, "src", f), "utf8"), ts.ScriptTarget.Latest, true);
      const visit = (n: ts.Node): void => {
        if (
          ts.isCallExpression(n) &&
          n.expression.kind === ts.SyntaxKind.ImportKeyword &&
          !(n.arguments[0] && ts.isStringLiteral(n.arguments[0]))
        )
          dynamic.push(`${f}: ${n.getText()}`);
        ts.forEachChild(n, visit);
      };
      visit(source);
    }
    expect(dynamic).toEqual([]);
  });
});

/** Each call made on the module imported into this process (our own sample releases only): the reference. */
async function importedAnswers(path: string, calls: ContractCall[]): Promise<unknown[]> {
  const m = await import(pathToFileURL(path).href);
  const out: unknown[] = [];
  for (const c of calls) {
    try {
      out.push(
        await m[c.fn](c.query, c.deferred, { loaded: c.loaded, ...(c.maxResults !== undefined ? { maxResults: c.maxResults } : {}) }),
      );
    } catch (e) {
      out.push({ error: String(e) });
    }
  }
  return out;
}

describe("the sandboxed view answers as the imported module did", () => {
  const versions = ["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0", "0.7.0"];
  const modules = new Map<string, string>();
  beforeAll(async () => {
    for (const v of versions)
      modules.set(
        v,
        (await liftInput(join(ROOT, "samples", "releases", v), { out: join(dir, "lifted", v), verify: false, pack: toolSearchPack }))
          .module,
      );
  }, 300_000);

  it("on every lifted sample release, every probe call, names and scores", async () => {
    const calls = toolSearchProbes([16384, 32, 64, 4096]).flatMap((p) => p.calls);
    let results = 0;
    for (const v of versions) {
      const path = modules.get(v)!;
      const sandboxed = (await runCalls({ script: sandboxScript(readFileSync(path, "utf8"), path), label: path }, calls)).map((r) =>
        r.ok ? r.value : { error: r.error },
      );
      const imported = await importedAnswers(path, calls);
      expect(JSON.stringify(sandboxed), v).toBe(JSON.stringify(imported));
      results += imported.filter((a) => Array.isArray(a) && a.length > 0).length;
    }
    // The answers say something: most calls return results.
    expect(results).toBeGreaterThan(versions.length * calls.length * 0.5);
  }, 300_000);
});
