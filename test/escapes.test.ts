/**
 * The escape corpus (samples/escapes/): each form is refused by the safety check as a module of its
 * own; injected into a sample release, its payload writes the marker when the release runs with
 * host access (the control: the payload works); and `searchlift lift` either refuses the release
 * with exit 9 and the place, or writes a module that, run with host access, never writes it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { impurities } from "../src/lift/purity.js";
import { ROOT, runCli } from "./helpers/cli.js";

const ESCAPES = join(ROOT, "samples", "escapes");

interface FormInfo {
  name: string;
  check: string | null;
  lift: string | null;
  control: string | null;
  text: string;
}
interface Builder {
  formInfo(file: string): FormInfo;
  buildEscapeRelease(form: string, outFile: string): void;
  runWithHostAccess(moduleFile: string, calls: string[], marker: string): { status: number | null };
}
const builder = (await import(join(ESCAPES, "build-release.mjs"))) as Builder;

const forms = readdirSync(ESCAPES)
  .filter((f) => /^\d\d-.*\.js$/.test(f))
  .map((f) => builder.formInfo(join(ESCAPES, f)));

/**
 * Every form injected into a sample release of its own, all lifted by one `searchlift lift` process (--json: a result
 * per input, with its exit code and message): one process start instead of one per form. That a refusal is one
 * line on stderr and the process's exit code is checked once, on the first refused form, lifted alone.
 */
const work = mkdtempSync(join(tmpdir(), "searchlift-escapes-"));
const releaseOf = (form: FormInfo) => join(work, `${form.name}.js`);
const out = join(work, "out");
for (const form of forms) builder.buildEscapeRelease(join(ESCAPES, `${form.name}.js`), releaseOf(form));
const batch = runCli(["lift", ...forms.map(releaseOf), "--out", out, "--no-verify", "--json"]);
if (batch.code !== ExitCode.notLiftable) throw new Error(`lift of the escape releases exited ${batch.code}: ${batch.stderr}`);
const results = new Map<string, { input: string; module?: string; error?: string; exitCode?: number }>(
  (JSON.parse(batch.stdout) as { results: Array<{ input: string }> }).results.map((r) => [r.input, r]),
);

describe("escape corpus", () => {
  it("holds at least 30 forms, each with what the check reports, how the lift ends and its control", () => {
    expect(forms.length).toBeGreaterThanOrEqual(30);
    for (const f of forms) {
      expect([f.name, f.lift]).toEqual([f.name, expect.stringMatching(/^(refused|contained)$/)]);
      expect(f.check, f.name).toBeTruthy();
      expect(f.control, f.name).toMatch(/^(escapes|none)/);
    }
  });

  it("lift of a refused form alone: exit 9, one line on stderr naming the place, nothing written", () => {
    const form = forms.find((f) => f.lift === "refused")!;
    const alone = join(work, "alone");
    const lift = runCli(["lift", releaseOf(form), "--out", alone, "--no-verify"], { timeout: 120_000 });
    expect(lift.code).toBe(ExitCode.notLiftable);
    expect(lift.stderr.trim().split("\n")).toHaveLength(1);
    expect(lift.stderr).toMatch(/cannot lift: .*\d+:\d+/);
    expect(existsSync(alone) ? readdirSync(alone, { recursive: true }).filter((f) => String(f).endsWith(".mjs")) : []).toEqual([]);
  });

  for (const form of forms) {
    describe(form.name, () => {
      it(`the check refuses the form as a module of its own: ${form.check}`, () => {
        expect(impurities(form.text).map((p) => p.what)).toContain(form.check);
      });

      it(`injected into a sample release: ${form.lift === "refused" ? "lift exits 9 naming the place" : "lifted, the payload never runs"}`, () => {
        const dir = mkdtempSync(join(tmpdir(), `searchlift-escape-${form.name}-`));
        const release = releaseOf(form);
        const marker = join(dir, "escaped");
        if (form.control!.startsWith("escapes")) {
          builder.runWithHostAccess(release, ["searchDeferredTools"], marker);
          expect(existsSync(marker), "the payload works when the release itself runs").toBe(true);
        }
        const lift = results.get(release);
        expect(lift, batch.stderr).toBeDefined();
        const module = join(out, "searchlift-sample", `0.9.0-${form.name}`, "npm", "tool-search.mjs");
        if (form.lift === "refused") {
          expect(lift!.exitCode, lift!.error).toBe(ExitCode.notLiftable);
          expect(lift!.error).toMatch(/cannot lift: .*\d+:\d+/);
          // Refused for the form itself, not for a flaw of the lift around it: a name the lift made left unbound.
          expect(lift!.error).not.toMatch(/uses (v\d+|helper_|value_)/);
          expect(existsSync(module)).toBe(false);
        } else {
          expect(lift!.error).toBeUndefined();
          expect(lift!.module).toBe(module);
          expect(readFileSync(module, "utf8")).toContain("propertyKey(");
          const marker2 = join(dir, "escaped-lifted");
          const run = builder.runWithHostAccess(module, ["searchTools", "scoreTools", "toolSearch"], marker2);
          expect(run.status).toBe(0);
          expect(existsSync(marker2)).toBe(false);
        }
      }, 120_000);
    });
  }
});
