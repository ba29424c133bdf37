#!/usr/bin/env node
/* global window -- page.evaluate callbacks run in the browser */
// The README's screenshot of the HTML timeline report: `track` over the bundled sample releases
// (without verification) into a temporary folder, timeline.html opened in Debian's chromium with
// playwright-core (no browser download, no network), the top of the page saved as a PNG.
//   npm run build && node scripts/report-screenshot.mjs [docs/track-report.png]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const ROOT = resolve(import.meta.dirname, "..");
const target = resolve(process.argv[2] ?? join(ROOT, "docs", "track-report.png"));
const tmp = mkdtempSync(join(tmpdir(), "searchlift-report-shot-"));
try {
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, "bin", "searchlift.js"),
      "track",
      ...readdirSync(join(ROOT, "samples", "releases")).map((f) => join(ROOT, "samples", "releases", f)),
      join(ROOT, "samples", "refused", "0.8.0"),
      "--out",
      join(tmp, "out"),
      "--cache",
      join(tmp, "cache"),
      "--no-verify",
    ],
    { encoding: "utf8" },
  );
  // 17: the refused sample release is not lifted, which the page shows.
  if (r.status !== 17) throw new Error(`track failed (${r.status}): ${r.stderr}`);
  const context = await chromium.launchPersistentContext(join(tmp, "profile"), {
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1180, height: 900 },
    deviceScaleFactor: 1,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const page_url = pathToFileURL(join(tmp, "out", "timeline.html")).href;
    await context.route("**/*", (route) => (route.request().url() === page_url ? route.continue() : route.abort()));
    await page.goto(page_url);
    // Groups and chart, and the first change below them.
    const bottom = await page.locator("#change-1").evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
    await page.screenshot({
      path: target,
      fullPage: true,
      clip: { x: 0, y: 0, width: 1180, height: Math.min(Math.ceil(bottom) - 8, 1700) },
    });
  } finally {
    await context.close();
  }
  console.log(`wrote ${target} (${statSync(target).size} bytes)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
