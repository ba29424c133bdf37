/**
 * docs/tool-search-changelog.md is what `searchlift history --changelog docs/tool-search-changelog.md` writes:
 * it must agree with the changelog's current format (its title, the command that regenerates it, its tables'
 * header rows) and with itself (the counts in its first paragraph, one change-point heading per generation after
 * the first, each dated as the generations table dates it). A change of format fails here until it is regenerated.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHANGELOG_TITLE, TABLE_HEADERS } from "../src/history/changelog.js";

const DOC = join(import.meta.dirname, "..", "docs", "tool-search-changelog.md");

describe("docs/tool-search-changelog.md", () => {
  const text = readFileSync(DOC, "utf8");
  const lines = text.split("\n");

  it("is in the current format and says how it is regenerated", () => {
    expect(lines[0]).toBe(CHANGELOG_TITLE);
    expect(text).toMatch(
      /^Regenerate with `searchlift history( "[^"`]+")?( --platform [\w-]+)? --changelog docs\/tool-search-changelog\.md`\.$/m,
    );
    // Every table's header row is one the changelog writes today.
    const headers = lines.filter((l, i) => l.startsWith("| ") && lines[i + 1]?.startsWith("|---"));
    expect(headers.length).toBeGreaterThan(2);
    for (const h of headers) expect(Object.values(TABLE_HEADERS)).toContain(h);
    expect(headers).toContain(TABLE_HEADERS.generations);
  });

  it("agrees with itself: its counts, one dated heading per change point", () => {
    const m =
      /^(\d+) releases? of Claude Code, \S+ to \S+ .*: (\d+) lifted.*, (\d+) generations? of the tool search, (\d+) change points?\.$/m.exec(
        text,
      );
    expect(m, "the counts paragraph").not.toBeNull();
    const [releases, , generations, changes] = [Number(m![1]), Number(m![2]), Number(m![3]), Number(m![4])];
    const start = lines.indexOf(TABLE_HEADERS.generations) + 2;
    const rows = lines.slice(start, lines.indexOf("", start)).map((l) => l.split(" | "));
    expect(rows.reduce((n, r) => n + Number(r[2]), 0)).toBe(releases);
    expect(rows.filter((r) => !r[3]!.startsWith("not lifted")).length).toBe(generations);
    const headings = lines.filter((l) => l.startsWith("### "));
    expect(headings).toHaveLength(changes);
    expect(changes).toBe(rows.length - 1);
    // Each heading names the first release of a group and the day the table gives it, newest first.
    const firsts = rows.map((r) => [r[0]!.replace(/^\| /, "").split(" – ")[0]!, r[1]!] as const);
    headings.forEach((h, i) => {
      const [version, day] = firsts[firsts.length - 1 - i]!;
      expect(h).toBe(`### ${version}${day === "—" ? "" : ` (${day})`}`);
    });
  });

  it("gives every change point a verdict: a witness for each change said, or what was searched without one", () => {
    const sections = text.split(/^### /m).slice(1);
    expect(sections.length).toBeGreaterThan(0);
    for (const section of sections) {
      const [heading, ...body] = section.split("\n");
      const said = body.filter((l) => l.startsWith("- "));
      // A witness is a call of the contract's with its query, in a rule's own line or in a "shown by" under it.
      const shown = body.filter((l) => /^ {0,2}- .*\b(searchTools|scoreTools|toolSearch) `/.test(l));
      const verdict = body.find((l) => /^(A refactor|Unknown|No behaviour difference found|Not compared): /.test(l));
      // A change said without a witness (a field newly read) still needs the search's verdict beside it.
      expect(shown.length > 0 || verdict !== undefined, `${heading}: neither a witness nor a verdict`).toBe(true);
      if (verdict === undefined) expect(said.length, heading).toBeGreaterThan(0);
    }
  });
});
