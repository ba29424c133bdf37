/**
 * The HTML timeline report in a real browser: `track` over the sample releases writes
 * timeline.html, which Debian's chromium (driven by playwright-core, which never downloads a
 * browser of its own here) opens from file://. The page loads without console errors or any
 * request but itself, the chart has one marker per release, the groups table one row per group,
 * and the change between the 0.3.x and 0.4.0 groups shows `+required` turning on (a probe row and
 * a sentence), the code that does it, and the witnesses found by search (collapsed until opened);
 * two builds of the same code show no witness. Skipped only where /usr/bin/chromium is missing
 * and CI is not set.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/errors.js";
import { codeSpans, proseCode } from "../src/safe-text.js";
import { timelineChanges } from "../src/track/changes.js";
import { timelineHtml } from "../src/report/report-html.js";
import { buildTimeline, type Change, type Timeline } from "../src/track/timeline.js";

const ROOT = join(import.meta.dirname, "..");
const RELEASES = join(ROOT, "samples", "releases");
/** The sample releases and one the lift must refuse, so the page shows how a refused release looks. */
const INPUTS = [...readdirSync(RELEASES).map((f) => join(RELEASES, f)), join(ROOT, "samples", "refused", "0.8.0")];
const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const VERSIONS = ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "0.5.0", "0.6.0", "0.7.0", "0.8.0"];

const skip = !existsSync(CHROMIUM) && !process.env.CI;
if (skip)
  console.warn(
    `report-browser: skipped, ${CHROMIUM} is missing (apt-get install -y chromium); with CI set this test runs and fails instead`,
  );

interface Visit {
  page: Page;
  url: string;
  requests: string[];
  errors: string[];
}

describe.skipIf(skip)("timeline.html in chromium", () => {
  let tmp: string;
  let context: BrowserContext;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `${CHROMIUM} is missing and CI is set: .ci/run installs Debian's chromium (apt-get install -y chromium) before the tests`,
      );
    tmp = mkdtempSync(join(tmpdir(), "searchlift-report-"));
    // A fresh profile every run; playwright-core only drives the system's chromium.
    context = await chromium.launchPersistentContext(join(tmp, "profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
    });
  });
  afterAll(async () => {
    await context?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** Open a file, recording every request (only the page itself may go through) and every console error. */
  async function visit(file: string): Promise<Visit> {
    const url = pathToFileURL(file).href;
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    await page.route("**/*", (route) => (route.request().url() === url ? route.continue() : route.abort()));
    const res = await page.goto(url, { waitUntil: "load" });
    expect(res === null || res.ok()).toBe(true);
    return { page, url, requests, errors };
  }

  it("shows the sample timeline: groups, chart, and each change's diff", async () => {
    const out = join(tmp, "out");
    const r = spawnSync(
      process.execPath,
      [join(ROOT, "bin", "searchlift.js"), "track", ...INPUTS, "--out", out, "--cache", join(tmp, "cache"), "--no-verify"],
      { encoding: "utf8", timeout: 600_000, maxBuffer: 64 << 20 },
    );
    expect(r.status, r.stderr).toBe(ExitCode.trackIncomplete);
    expect(r.stdout).toContain(join(out, "timeline.html"));
    // Written atomically: no temporary file is left beside the three and the modules they name.
    expect(readdirSync(out).sort()).toEqual(["modules", "timeline.html", "timeline.json", "timeline.md"]);
    const { page, url, requests, errors } = await visit(join(out, "timeline.html"));

    // Self-contained: no request but the page, nothing logged as an error.
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    expect(await page.title()).toBe("Tool search timeline");

    // The chart renders, with one marker per release in version order, left to right.
    const svg = page.locator("svg.chart");
    await expect.poll(() => svg.count()).toBe(1);
    const box = await svg.boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    expect(box!.height).toBeGreaterThan(100);
    const ticks = page.locator("svg.chart .release-tick");
    expect(await ticks.count()).toBe(9);
    const xs: number[] = [];
    for (const [i, v] of VERSIONS.entries()) {
      expect(await ticks.nth(i).getAttribute("data-version")).toBe(v);
      const b = await ticks.nth(i).boundingBox();
      expect(b!.height).toBeGreaterThan(0);
      xs.push(b!.x);
    }
    expect(xs.every((x, i) => i === 0 || x > xs[i - 1]!)).toBe(true);
    // Weights as step lines, features as bands; the release that could not be lifted is marked.
    expect(await page.locator("svg.chart .lane.weight path.step").count()).toBeGreaterThan(5);
    expect(await page.locator('svg.chart .lane.feature[data-feature="+required terms"] rect.band').count()).toBe(4); // 0.4.0 to 0.7.0
    expect(await page.locator("svg.chart rect.not-lifted").count()).toBe(1);
    expect(await page.locator("svg.chart .change-line").count()).toBe(7);

    // The groups table: one row per group, 0.3.0 and 0.3.1 in one, 0.8.0 with its error.
    const rows = page.locator("table.groups tbody tr");
    expect(await rows.count()).toBe(8);
    expect(await rows.nth(2).locator("td.span").innerText()).toContain("0.3.0 – 0.3.1");
    expect(await rows.nth(7).getAttribute("class")).toContain("error");
    expect(await rows.nth(7).locator("td.err").innerText()).toMatch(/cannot lift: the tool search reaches the host through process/);
    expect(await rows.nth(0).locator("td.signature").innerText()).toContain("tool-search/scorer@mcp-name-substring");

    // The change 0.3.x → 0.4.0: +required goes no → yes, and the code diff adds the `+term` handling.
    const change = page.locator('section.change[data-from="0.3.1"][data-to="0.4.0"]');
    expect(await change.count()).toBe(1);
    const required = change.locator('tr.sem-changed[data-feature="+required terms"]');
    expect(await required.locator("td.before").innerText()).toBe("no");
    expect(await required.locator("td.after").innerText()).toBe("yes");
    const diff = change.locator("pre.diff");
    expect(await diff.isVisible()).toBe(false);
    await change.locator("details.code-diff summary").click();
    expect(await diff.isVisible()).toBe(true);
    expect(await diff.locator(".add", { hasText: 'startsWith("+")' }).count()).toBeGreaterThan(0);
    // Nothing else about 0.3.0 → 0.4.0 is claimed that the semantics do not say.
    const features = await change.locator("tr.sem-changed").evaluateAll((trs) => trs.map((t) => t.getAttribute("data-feature")));
    expect(features).toContain("mcp__ prefix: a server's tools");
    expect(features).not.toContain("coarse parts");

    // Its behaviour: the sentences, shown; the witnesses timeline.json lists, collapsed until opened.
    const changes = JSON.parse(readFileSync(join(out, "timeline.json"), "utf8")).changes as Change[];
    const b34 = changes[2]!.behaviour!;
    // The page shows each sentence's code as code, without the backticks that mark it in timeline.json.
    const shownText = (s: string) =>
      codeSpans(s)
        .map((p) => p.text)
        .join("");
    expect(await change.locator("ul.sentences li").allInnerTexts()).toEqual(b34.sentences.map(shownText));
    expect(b34.sentences.some((l) => /`\+required` terms/.test(l))).toBe(true);
    expect(await change.locator("ul.sentences li code").allInnerTexts()).toContain("+required");
    const behaviour = change.locator("details.behaviour");
    const table = behaviour.locator("table.behaviour");
    expect(await table.isVisible()).toBe(false);
    await behaviour.locator("summary").click();
    expect(await table.isVisible()).toBe(true);
    expect(await behaviour.locator("tr.witness").evaluateAll((trs) => trs.map((t) => t.getAttribute("data-function")))).toEqual(
      b34.changed.map((w) => w.function),
    );
    expect(await behaviour.locator("summary").innerText()).toContain(
      `${b34.changed.length} witness${b34.changed.length === 1 ? "" : "es"} in ${b34.searched} cases`,
    );
    // 0.4.0 → 0.5.0: select: takes a list, a probe row and a sentence.
    const c45 = page.locator('section.change[data-to="0.5.0"]');
    expect(await c45.locator('tr.sem-changed[data-feature="select: comma list"] td.after').innerText()).toBe("yes");
    expect(await c45.locator("ul.sentences").innerText()).toContain("select: now also takes a comma-separated list");
    expect(await c45.locator("ul.sentences li code").first().innerText()).toBe("select:");

    // The last change's far side was not lifted: said so, no diff, no behaviour.
    const last = page.locator('section.change[data-to="0.8.0"]');
    expect(await last.innerText()).toMatch(/not lifted[\s\S]*cannot lift/);
    expect(await last.locator("pre.diff").count()).toBe(0);
    expect(await last.locator("details.behaviour").count()).toBe(0);

    // Anchors stay in the page.
    await page.locator('svg.chart a[href="#change-3"]').first().dispatchEvent("click");
    expect(page.url()).toBe(`${url}#change-3`);
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("two builds of the same code: no witness; hostile queries and names render as text", async () => {
    const lift = (v: string) => {
      const r = spawnSync(
        process.execPath,
        [join(ROOT, "bin", "searchlift.js"), "lift", join(RELEASES, v), "--out", join(tmp, "lifted"), "--no-verify", "--json"],
        { encoding: "utf8", timeout: 600_000 },
      );
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout).results[0].module as string;
    };
    // 0.3.0 and 0.3.1 are one code (track groups them); here as two groups, as a refactor that changes no answer would be.
    const t = buildTimeline([
      { input: "a", version: "0.3.0", platform: "npm", routineHash: "a".repeat(64), verified: null, module: lift("0.3.0") },
      { input: "b", version: "0.3.1", platform: "npm", routineHash: "b".repeat(64), verified: null, module: lift("0.3.1") },
    ]);
    t.changes = await timelineChanges(t);
    const same = join(tmp, "same.html");
    writeFileSync(same, timelineHtml(t));
    let v = await visit(same);
    const section = v.page.locator('section.change[data-from="0.3.0"][data-to="0.3.1"]');
    expect(await section.locator("details.behaviour").count()).toBe(0);
    expect(await section.locator("p.behaviour-none").innerText()).toMatch(/^no behaviour difference found in \d+ cases/);
    expect(v.errors).toEqual([]);
    await v.page.close();

    const hostile = `<script>alert(1)</script><img src="https://example.com/x.png">`;
    const witness = {
      function: "searchTools" as const,
      query: hostile,
      deferred: [{ name: hostile, description: hostile, isMcp: false }],
      loaded: [],
      before: [hostile],
      after: [],
      summary: hostile,
    };
    t.changes = [
      {
        from: "0.3.0",
        to: "0.3.1",
        behaviour: { searched: 2, seconds: 0.1, changed: [witness], sentences: [hostile, `code ${proseCode(hostile)} too`] },
        semantics: [{ feature: hostile, before: hostile, after: "no", changed: true }],
      },
    ];
    const file = join(tmp, "hostile-behaviour.html");
    writeFileSync(file, timelineHtml(t));
    v = await visit(file);
    expect(await v.page.locator("script, img").count()).toBe(0);
    expect(await v.page.locator("ul.sentences li").first().textContent()).toBe(hostile);
    expect(await v.page.locator("ul.sentences li code").textContent()).toBe(hostile);
    const row = v.page.locator("details.behaviour tr.witness");
    expect(await row.locator("td.query").textContent()).toContain(JSON.stringify(hostile));
    expect(await row.locator("td.before").textContent()).toBe(JSON.stringify([hostile]));
    expect(v.requests).toEqual([v.url]);
    expect(v.errors).toEqual([]);
    await v.page.close();
  });

  it("escapes what it shows: a hostile error, version and signature render as text", async () => {
    const hostile = `<script>alert(1)</script><img src="https://example.com/x.png">`;
    const t: Timeline = {
      releases: [
        {
          input: "a",
          version: `1.0.0<b>"`,
          platform: "npm",
          routineHash: "a".repeat(64),
          signature: hostile,
          verified: { cases: 3, agreed: 3 },
        },
        { input: "b", version: "1.0.1", platform: "npm", routineHash: null, error: hostile, verified: null },
      ],
      groups: [
        { first: `1.0.0<b>"`, last: `1.0.0<b>"`, routineHash: "a".repeat(64), signature: hostile, releases: [`1.0.0<b>"`] },
        { first: "1.0.1", last: "1.0.1", routineHash: null, releases: ["1.0.1"], error: hostile },
      ],
    };
    const file = join(tmp, "hostile.html");
    writeFileSync(file, timelineHtml(t));
    const { page, url, requests, errors } = await visit(file);
    expect(await page.locator("script, img, b").count()).toBe(0);
    expect(await page.locator("table.groups tbody tr").nth(1).locator("td.err").innerText()).toBe(hostile);
    expect(await page.locator("svg.chart .release-tick").first().getAttribute("data-version")).toBe(`1.0.0<b>"`);
    expect(await page.locator("table.groups tbody tr").first().locator("td.verified").innerText()).toBe("3/3");
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("timelineHtml", () => {
  it("refers to nothing outside the page", () => {
    const t: Timeline = {
      releases: [{ input: "a", version: "1.0.0", platform: "npm", routineHash: null, error: "x", verified: null }],
      groups: [{ first: "1.0.0", last: "1.0.0", routineHash: null, releases: ["1.0.0"], error: "x" }],
    };
    const html = timelineHtml(t);
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    for (const [, v] of html.matchAll(/\b(?:href|src)="([^"]*)"/g)) expect(v).toMatch(/^#/);
    expect(html).toContain("Content-Security-Policy");
    for (const f of readdirSync(join(ROOT, "src", "report")))
      expect(readFileSync(join(ROOT, "src", "report", f), "utf8"), f).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});
