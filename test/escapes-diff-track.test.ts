/**
 * The escape corpus (samples/escapes/) through the commands that run lifted modules: `diff` given a
 * lifted-looking module that holds a form, `track` (with verification on) over sample releases that
 * hold one each, and `check` ranking a tools file with such a release. Every form is refused or
 * contained: the marker file its payload would write never appears, and the commands end with their
 * documented exit codes.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { ROOT, runCli } from "./helpers/cli.js";

const ESCAPES = join(ROOT, "samples", "escapes");
const FORMS = readdirSync(ESCAPES).filter((f) => /^\d\d-.*\.js$/.test(f));
const builder = (await import(join(ESCAPES, "build-release.mjs"))) as {
  buildEscapeRelease(form: string, outFile: string): void;
  formInfo(file: string): { lift: string | null };
};

/** A module with the contract's exports whose every search runs the form on each tool name. */
function liftedLooking(formText: string): string {
  return `${formText}
async function searchTools(query, deferred) { return deferred.map((t) => probe(t.name)).slice(0, 5); }
async function scoreTools(query, deferred) { return deferred.map((t) => ({ name: probe(t.name), score: 1 })); }
async function toolSearch(query, deferred) { return searchTools(query, deferred); }
const defaults = { maxResults: 5 };
export { searchTools, scoreTools, toolSearch, defaults };
`;
}

function run(args: string[], marker: string) {
  return runCli(args, { env: { SEARCHLIFT_ESCAPE_MARKER: marker } });
}

describe("escape corpus through diff and track", () => {
  it(`diff refuses every form (${FORMS.length}) given as a lifted module: exit 14, one line, no marker`, () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-escape-diff-"));
    const good = join(dir, "good.mjs");
    writeFileSync(good, liftedLooking("function probe(value) { return value; }"));
    for (const form of FORMS) {
      const evil = join(dir, form.replace(/\.js$/, ".mjs"));
      writeFileSync(evil, liftedLooking(readFileSync(join(ESCAPES, form), "utf8")));
      const marker = join(dir, `${form}.escaped`);
      const r = run(["diff", good, evil], marker);
      expect(r.code, `${form}: ${r.stderr}`).toBe(ExitCode.brokenModule);
      expect(r.stderr.trim().split("\n"), form).toHaveLength(1);
      expect(existsSync(marker), form).toBe(false);
    }
  });

  it("track with verification on lifts none of the forms' payloads into a running module: refused or contained, no marker, exit 17", () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-escape-track-"));
    const releases = FORMS.map((form) => {
      const file = join(dir, form.replace(/\.js$/, ".release.js"));
      builder.buildEscapeRelease(join(ESCAPES, form), file);
      return file;
    });
    const marker = join(dir, "escaped");
    const r = run(["track", ...releases, "--out", join(dir, "timeline"), "--cache", join(dir, "cache")], marker);
    expect(r.code, r.stderr).toBe(ExitCode.trackIncomplete);
    expect(existsSync(marker)).toBe(false);
    const timeline = JSON.parse(readFileSync(join(dir, "timeline", "timeline.json"), "utf8")) as {
      releases: Array<{ routineHash: string | null; error?: string }>;
    };
    expect(timeline.releases).toHaveLength(FORMS.length);
    // A refused form names its reason; a contained one was lifted and verified (its key goes through propertyKey).
    for (const rel of timeline.releases) if (!rel.routineHash) expect(rel.error).toMatch(/cannot lift|cannot verify|verification/);
  });

  it("check ranks with none of the forms' payloads running: a refused form is not lifted (exit 9), a contained one fails verification (10, 16) or ranks (0)", () => {
    const dir = mkdtempSync(join(tmpdir(), "searchlift-escape-check-"));
    const tools = join(dir, "tools.json");
    writeFileSync(tools, JSON.stringify({ tools: [{ name: "read_file", description: "reads a file" }] }));
    // The forms check runs as modules (those the lift contains) and the newest refused ones; the other refused
    // forms stop in the same lift, tested above and in escapes.test.ts.
    const forms = FORMS.filter((f) => builder.formInfo(join(ESCAPES, f)).lift === "contained" || Number(f.slice(0, 2)) >= 50);
    expect(forms.length).toBeGreaterThanOrEqual(10);
    for (const form of forms) {
      const release = join(dir, form.replace(/\.js$/, ".release.js"));
      builder.buildEscapeRelease(join(ESCAPES, form), release);
      const marker = join(dir, `${form}.escaped`);
      const args = ["check", "--tools", tools, "--server-name", "files", "--query", "read file", "--releases", release];
      const r = run([...args, "--lift-cache", join(dir, "lift-cache")], marker);
      const lift = builder.formInfo(join(ESCAPES, form)).lift;
      // A contained form either breaks the module's answers (the port throws: the verification fails or proves
      // nothing) or, where containing it changed nothing the search does, verifies and ranks.
      const codes: number[] = lift === "refused" ? [ExitCode.notLiftable] : [ExitCode.ok, ExitCode.disagreement, ExitCode.inconclusive];
      expect(codes, `${form}: ${r.stderr}`).toContain(r.code);
      if (r.code !== ExitCode.ok)
        expect(r.stderr.trim().split("\n").at(-1), form).toMatch(/cannot lift|verification (failed|inconclusive)/);
      expect(existsSync(marker), form).toBe(false);
    }
  });
});
