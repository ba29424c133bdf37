/**
 * The HTML timeline report in a real browser: `track` over the sample releases writes
 * timeline.html, which Debian's chromium (driven by playwright-core, which never downloads a
 * browser of its own here) opens from file://. The page loads without console errors or any
 * request but itself, the chart has one marker per release, the groups table one row per group,
 * and the change between the 0.3.x and 0.4.0 groups shows `+required` turning on (a probe row and
 * a sentence), the code that does it, and the witnesses found by search (collapsed until opened);
 * two builds of the same code show no witness. Every cell the chart draws, every changed-row table
 * and every sentence is held against timeline.json (expectedCells computes the chart's cells from
 * the JSON on its own), and timeline.md lists the change points in the page's order: on the
 * samples, and, unless SEARCHLIFT_SKIP_REAL=1, on a timeline of real native releases. Skipped only
 * where /usr/bin/chromium is missing and CI is not set.
 */
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
import { buildTimeline, compareVersions, type Change, type Timeline } from "../src/track/timeline.js";
import { cacheDir, npmPack } from "./helpers/cache.js";
import { ROOT, runCli } from "./helpers/cli.js";
import { toolSearchPack } from "../src/routines/tool-search/index.js";

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
/** Native releases around the changes issue 40 found the chart contradicting (2.1.326, 2.1.332). */
const REAL = ["2.1.317", "2.1.322", "2.1.323", "2.1.325", "2.1.326", "2.1.332"];
const skipReal = process.env.SEARCHLIFT_SKIP_REAL === "1";

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
    const r = runCli(["track", ...INPUTS, "--out", out, "--cache", join(tmp, "cache"), "--no-verify"]);
    expect(r.code, r.stderr).toBe(ExitCode.trackIncomplete);
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
    // Numbers as step lines, yes/no rows as bands; the release that could not be lifted is marked.
    const numberLanes = await page.locator("svg.chart .lane.number").count();
    expect(numberLanes).toBeGreaterThan(0);
    expect(await page.locator("svg.chart .lane.number path.step").count()).toBe(numberLanes);
    expect(await page.locator('svg.chart .lane.yes-no[data-feature="+required terms"] rect.band.yes').count()).toBe(4); // 0.4.0 to 0.7.0
    expect(await page.locator('svg.chart .lane.yes-no[data-feature="+required terms"] rect.band.no').count()).toBe(4); // 0.1.0 to 0.3.1
    expect(await page.locator("svg.chart rect.not-lifted").count()).toBe(1);
    expect(await page.locator("svg.chart .change-line").count()).toBe(7);
    // Every cell, table and sentence as timeline.json has it; timeline.md in the page's order.
    const json = JSON.parse(readFileSync(join(out, "timeline.json"), "utf8")) as Timeline;
    await expectSameAsJson(page, json);
    expectMarkdownOrder(readFileSync(join(out, "timeline.md"), "utf8"), await sectionOrder(page));

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

  it.skipIf(skipReal)("a timeline of real native releases: every chart cell, table and sentence as timeline.json has it", async () => {
    const inputs = REAL.map((v) => npmPack(`@anthropic-ai/claude-code-linux-x64@${v}`));
    const out = join(tmp, "real");
    // A lift cache of this test's own, kept between runs: the same inputs lift the same way, and a rerun is quick.
    const r = runCli(["track", ...inputs, "--out", out, "--cache", cacheDir("report-browser-track"), "--no-verify"], {
      timeout: 1_200_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(readFileSync(join(out, "timeline.json"), "utf8")) as Timeline;
    expect(json.releases.map((x) => x.version)).toEqual(REAL);
    const { page, url, requests, errors } = await visit(join(out, "timeline.html"));
    // Every release lifted, so every group lies beside a change point that measured it.
    expect(json.groups.length).toBeGreaterThan(1);
    expect(await page.locator("svg.chart rect.not-lifted, svg.chart rect.not-measured").count()).toBe(0);
    await expectSameAsJson(page, json);
    expectMarkdownOrder(readFileSync(join(out, "timeline.md"), "utf8"), await sectionOrder(page));
    expect(requests).toEqual([url]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("two builds of the same code: no witness; hostile queries and names render as text", async () => {
    const lift = (v: string) => {
      const r = runCli(["lift", join(RELEASES, v), "--out", join(tmp, "lifted"), "--no-verify", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).results[0].module as string;
    };
    // 0.3.0 and 0.3.1 are one code (track groups them); here as two groups, as a refactor that changes no answer would be.
    const t = buildTimeline([
      { input: "a", version: "0.3.0", platform: "npm", routineHash: "a".repeat(64), verified: null, module: lift("0.3.0") },
      { input: "b", version: "0.3.1", platform: "npm", routineHash: "b".repeat(64), verified: null, module: lift("0.3.1") },
    ]);
    t.changes = await timelineChanges(t, { pack: toolSearchPack });
    const same = join(tmp, "same.html");
    writeFileSync(same, timelineHtml(t, { pack: toolSearchPack }));
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
    writeFileSync(file, timelineHtml(t, { pack: toolSearchPack }));
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
    writeFileSync(file, timelineHtml(t, { pack: toolSearchPack }));
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
    const html = timelineHtml(t, { pack: toolSearchPack });
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    for (const [, v] of html.matchAll(/\b(?:href|src)="([^"]*)"/g)) expect(v).toMatch(/^#/);
    expect(html).toContain("Content-Security-Policy");
    for (const f of readdirSync(join(ROOT, "src", "report")))
      expect(readFileSync(join(ROOT, "src", "report", f), "utf8"), f).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});

/** A cell of the chart as timeline.json says it must be: a release's row, with every measurement of it. */
interface ExpectedCell {
  column: number;
  feature: string;
  readings: Array<{ change: number; side: "before" | "after"; value: string }>;
}

/**
 * The chart's cells from timeline.json, worked out here on their own: a lifted release has its group's rows,
 * measured at the change point into its group (`after`) and at the one out of it (`before`); change k lies
 * between groups k and k+1.
 */
function expectedCells(t: Timeline): ExpectedCell[] {
  const out: ExpectedCell[] = [];
  t.releases.forEach((r, column) => {
    if (r.routineHash === null) return;
    const g = t.groups.findIndex((x) => x.routineHash === r.routineHash && x.releases.includes(r.version));
    const rows = new Map<string, ExpectedCell["readings"]>();
    for (const [k, side] of [
      [g - 1, "after"],
      [g, "before"],
    ] as const) {
      const c = t.changes?.[k];
      if (!c || c.from !== t.groups[k]?.last || c.to !== t.groups[k + 1]?.first) continue;
      for (const row of c.semantics ?? []) rows.set(row.feature, [...(rows.get(row.feature) ?? []), { change: k, side, value: row[side] }]);
    }
    for (const [feature, readings] of rows) out.push({ column, feature, readings });
  });
  return out;
}

const blank = (v: string) => v.trim() === "" || v === "—";
const shownValue = (c: ExpectedCell) => [...new Set(c.readings.map((x) => x.value))].join(" | ");
/** The numbers a number cell's value shows, one point each. */
const numbers = (value: string) =>
  value
    .split(" | ")
    .filter((v) => !blank(v))
    .map(Number);

interface DrawnCell {
  column: number;
  version: string;
  feature: string;
  value: string;
  readings: ExpectedCell["readings"];
  title: string;
  kind: string;
  band: string | null;
  ys: number[];
  label: string | null;
}

/**
 * The page against timeline.json: the chart draws exactly the cells expectedCells finds, each with its value,
 * readings, tooltip and a mark that fits its row (a filled band for yes, an outlined one for no, points whose
 * heights order as their numbers, a label where a value starts); its lanes are the JSON's rows in order, less
 * those with no value, which the table under it names; releases without a reading are hatched. Each change
 * section's table of changed rows and its sentences are the JSON's.
 */
async function expectSameAsJson(page: Page, t: Timeline): Promise<void> {
  const want = expectedCells(t);
  const drawn: DrawnCell[] = await page.locator("svg.chart g.cell").evaluateAll((gs) =>
    gs.map((g) => ({
      column: Number(g.getAttribute("data-column")),
      version: g.getAttribute("data-version")!,
      feature: g.getAttribute("data-feature")!,
      value: g.getAttribute("data-value")!,
      readings: JSON.parse(g.getAttribute("data-readings")),
      title: g.querySelector("title")?.textContent ?? "",
      kind: g.closest("g.lane")?.getAttribute("data-kind") ?? "",
      band: g.querySelector("rect.band")?.getAttribute("class") ?? null,
      ys: [...g.querySelectorAll("circle.point")].map((c) => Number(c.getAttribute("cy"))),
      label: g.querySelector("text.value")?.textContent ?? null,
    })),
  );
  const key = (c: { column: number; feature: string }) => `${c.column}\u0000${c.feature}`;
  expect(drawn.map(key).sort()).toEqual(want.map(key).sort());
  const byKey = new Map(want.map((c) => [key(c), c]));

  // Each row's kind from its values: yes/no, numbers, or other text.
  const features = [...new Set(t.changes?.flatMap((c) => c?.semantics?.map((r) => r.feature) ?? []) ?? [])];
  const valuesOf = (f: string) =>
    want.filter((c) => c.feature === f).flatMap((c) => c.readings.map((x) => x.value).filter((v) => !blank(v)));
  const kindOf = (f: string) => {
    const vs = valuesOf(f);
    return vs.every((v) => v === "yes" || v === "no") ? "yes/no" : vs.every((v) => /^-?\d+(\.\d+)?$/.test(v)) ? "number" : "text";
  };
  const empty = features.filter((f) => valuesOf(f).length === 0);
  expect(await page.locator("svg.chart g.lane").evaluateAll((ls) => ls.map((l) => l.getAttribute("data-feature")))).toEqual(
    features.filter((f) => !empty.includes(f)),
  );
  expect(await page.locator("table.left-out tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-feature")))).toEqual(
    empty,
  );

  for (const d of drawn) {
    const w = byKey.get(key(d))!;
    const value = shownValue(w);
    expect(d.readings, key(d)).toEqual(w.readings);
    expect(d.value, key(d)).toBe(value);
    expect(d.version).toBe(t.releases[d.column]!.version);
    expect(d.title.startsWith(`${d.version}: ${d.feature} = ${value}`), d.title).toBe(true);
    expect(d.kind, d.feature).toBe(kindOf(d.feature));
    if (blank(value)) continue;
    if (d.kind === "yes/no" && !value.includes(" | ")) expect(d.band, key(d)).toBe(`band ${value}`);
    if (d.kind === "text") expect(d.band, key(d)).toBe("band valued");
    if (d.kind === "number") expect(d.ys.length, key(d)).toBe(numbers(d.value).length);
  }
  // Within a number lane, a larger number sits higher (a smaller y), an equal one level.
  for (const f of features.filter((x) => kindOf(x) === "number" && !empty.includes(x))) {
    const points = drawn.filter((d) => d.feature === f).flatMap((d) => d.ys.map((y, i) => [numbers(d.value)[i]!, y] as const));
    for (const [a, ya] of points) for (const [b, yb] of points) if (a < b) expect(ya, f).toBeGreaterThan(yb);
    for (const [a, ya] of points) for (const [b, yb] of points) if (a === b) expect(ya, f).toBe(yb);
  }
  // A label where a value starts (the cell before it holds another value, or none): the value, or its start cut with "…".
  const labels = await page.locator("svg.chart g.lane").evaluateAll((ls) =>
    ls.flatMap((l) => [
      ...[...l.querySelectorAll("text.band-value")].map((x) => ({
        feature: l.getAttribute("data-feature")!,
        column: Number(x.getAttribute("data-column")),
        text: x.textContent!,
      })),
      ...[...l.querySelectorAll("g.cell text.value")].map((x) => ({
        feature: l.getAttribute("data-feature")!,
        column: Number(x.closest("g.cell")!.getAttribute("data-column")),
        text: x.textContent!,
      })),
    ]),
  );
  const starts = drawn.filter((d) => {
    if (blank(d.value) || d.value === "yes" || d.value === "no") return false;
    const before = byKey.get(key({ column: d.column - 1, feature: d.feature }));
    return !before || shownValue(before) !== d.value;
  });
  expect(labels.map(key).sort()).toEqual(starts.map(key).sort());
  for (const l of labels) {
    const value = shownValue(byKey.get(key(l))!);
    expect(l.text === value || (l.text.endsWith("…") && value.startsWith(l.text.slice(0, -1))), `${l.text} for ${value}`).toBe(true);
  }
  // Releases with no reading are hatched: not lifted, or not measured.
  const measured = new Set(want.map((c) => c.column));
  const hatched = async (cls: string) =>
    (await page.locator(`svg.chart rect.${cls}`).evaluateAll((rs) => rs.map((r) => r.getAttribute("data-version")))).sort();
  expect(await hatched("not-lifted")).toEqual(
    t.releases
      .filter((r) => r.routineHash === null)
      .map((r) => r.version)
      .sort(),
  );
  expect(await hatched("not-measured")).toEqual(
    t.releases
      .filter((r, i) => r.routineHash !== null && !measured.has(i))
      .map((r) => r.version)
      .sort(),
  );

  // Each change point's section: the changed rows and the sentences of timeline.json.
  const shownText = (x: string) =>
    codeSpans(x)
      .map((p) => p.text)
      .join("");
  for (const [k, c] of (t.changes ?? []).entries()) {
    const section = page.locator(`section.change#change-${k + 1}`);
    expect(await section.getAttribute("data-from")).toBe(c.from);
    expect(await section.getAttribute("data-to")).toBe(c.to);
    const rows = await section
      .locator("tr.sem-changed")
      .evaluateAll((trs) =>
        trs.map((tr) => [
          tr.getAttribute("data-feature"),
          tr.querySelector("td.before")!.textContent,
          tr.querySelector("td.after")!.textContent,
        ]),
      );
    expect(rows, `${c.from} → ${c.to}`).toEqual((c.semantics ?? []).filter((r) => r.changed).map((r) => [r.feature, r.before, r.after]));
    const sentences = c.behaviour?.sentences ?? [];
    expect(await section.locator("ul.sentences li").allTextContents()).toEqual(sentences.map(shownText));
  }
}

/** The change sections' order on the page, as "from → to". */
async function sectionOrder(page: Page): Promise<string[]> {
  return page.locator("section.change").evaluateAll((ss) => ss.map((x) => `${x.getAttribute("data-from")} → ${x.getAttribute("data-to")}`));
}

/** timeline.md lists the change points as the page does, oldest first. */
function expectMarkdownOrder(md: string, page: string[]): void {
  const listed = [...md.matchAll(/^### (\S+) → (\S+)(?: \(|$)/gm)].map((m) => `${m[1]} → ${m[2]}`);
  expect(listed.length).toBeGreaterThan(0);
  expect(listed).toEqual(page);
  const versions = listed.map((x) => x.split(" → ")[0]!);
  expect(versions).toEqual([...versions].sort(compareVersions));
}
