import { describe, expect, it } from "vitest";
import { ExitCode, SearchliftError } from "./errors.js";
import { formatListing, type Listing } from "./extract/listing.js";
import { NATIVE_PLATFORMS } from "./fetch/fetch.js";
import { checkedReleaseInfo } from "./inputs/release-info.js";
import { isPlatform, isVersionOrUnknown } from "./release-names.js";
import { timelineHtml } from "./report/report-html.js";
import { codeSpans, markdownCode, markdownProse, markdownText, messageLine, proseCode, quoted, terminalSafe } from "./safe-text.js";
import { timelineMarkdown, type Timeline } from "./track/timeline.js";
import { toolSearchPack } from "./routines/tool-search/index.js";

/** Anything a terminal acts on, or that reorders or hides text. */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;
const EVIL = "a\u001b[31mred\u001b]0;title\u0007\u009b2J\u202egnp.exe\u2066x\u2069\r\nforged line\u007f\ud800";

describe("terminal-safe text", () => {
  it("escapes controls, C1, bidi and separators JSON-style and leaves other text alone", () => {
    const s = terminalSafe(EVIL);
    expect(s).not.toMatch(RAW_UNSAFE);
    expect(s).not.toContain("\n");
    expect(s).toBe("a\\u001b[31mred\\u001b]0;title\\u0007\\u009b2J\\u202egnp.exe\\u2066x\\u2069\\r\\nforged line\\u007f\\ud800");
    expect(terminalSafe("claude-code 2.1.112 → ünïcödé ✓")).toBe("claude-code 2.1.112 → ünïcödé ✓");
  });

  it("quoted() is JSON.stringify-like, safe, and capped", () => {
    expect(quoted("../../x")).toBe('"../../x"');
    expect(quoted("\u001b[2J")).toBe('"\\u001b[2J"');
    expect(quoted("\u202eabc")).toBe('"\\u202eabc"');
    expect(quoted("x".repeat(500))).toBe(`"${"x".repeat(100)}"…`);
    expect(messageLine("line one\n  line two \u001b")).toBe("line one line two \\u001b");
  });

  it("the human listing escapes module paths, entry and notes from the input", () => {
    const l: Listing = {
      input: "in\u001b[2J.bin",
      file: "in",
      format: "bun-elf",
      runtime: "bun \u202e1.2",
      entry: "/$bunfs/root/\u001b]8;;http://x\u0007e.js",
      notes: ["note\nforged: yes"],
      modules: [
        {
          path: "/$bunfs/root/m\u001b[8m.js",
          kind: "js",
          loader: "js",
          moduleFormat: "esm",
          encoding: "utf8",
          size: 1,
          bytecode: false,
          start: 0,
          end: 1,
        },
      ],
    };
    const out = formatListing(l);
    expect(out).not.toMatch(RAW_UNSAFE);
    expect(out).toContain("m\\u001b[8m.js");
    expect(out.split("\n").filter((x) => x.startsWith("forged"))).toEqual([]);
  });
});

describe("release path parts", () => {
  const info = (client: string, version: string, platform: string) => ({ client, version, platform });
  const refused = (i: ReturnType<typeof info>) => {
    try {
      checkedReleaseInfo("input", i);
    } catch (e) {
      return e as SearchliftError;
    }
    throw new Error(`accepted ${JSON.stringify(i)}`);
  };

  it("accepts every platform fetch knows, npm, unknown, and the versions releases use", () => {
    for (const p of [...NATIVE_PLATFORMS, "npm", "unknown", "linux-unknown", "darwin-unknown", "win32-unknown"])
      expect(isPlatform(p), p).toBe(true);
    for (const v of ["0.1.0", "2.0.70", "2.1.112", "2.1.332", "1.0.0-beta.1", "1.0.0+build.5", "1.0.0-rc.1+sha.abc", "unknown"])
      expect(isVersionOrUnknown(v), v).toBe(true);
    expect(checkedReleaseInfo("x", info("claude-code", "2.1.332", "linux-x64-musl"))).toEqual(
      info("claude-code", "2.1.332", "linux-x64-musl"),
    );
    expect(checkedReleaseInfo("x", info("searchlift-sample", "0.1.0", "npm")).client).toBe("searchlift-sample");
  });

  it("refuses anything else with exit 5 and the value escaped", () => {
    const cases = [
      info("claude-code", "../../x", "npm"),
      info("claude-code", "/abs/x", "npm"),
      info("claude-code", "1.0.0/../../x", "npm"),
      info("claude-code", "https://evil.example/x", "npm"),
      info("claude-code", "a/b", "npm"),
      info("claude-code", "1.0.0\u001b[31m", "npm"),
      info("claude-code", "", "npm"),
      info("..", "1.0.0", "npm"),
      info(".", "1.0.0", "npm"),
      info("https://evil.example/x", "1.0.0", "npm"),
      info("Claude", "1.0.0", "npm"),
      info("claude-code", "1.0.0", "linux-x64/../.."),
      info("claude-code", "1.0.0", "beos-x64"),
    ];
    for (const c of cases) {
      const e = refused(c);
      expect(e.exitCode, JSON.stringify(c)).toBe(ExitCode.malformed);
      expect(e.message).not.toMatch(RAW_UNSAFE);
    }
    expect(refused(info("claude-code", "1.0.0\u001b[31m", "npm")).message).toBe(
      'refusing version "1.0.0\\u001b[31m": not a semver version (1.2.3, 1.2.3-beta.1)',
    );
  });
});

describe("timeline.md and timeline.html carry no markup from the input", () => {
  const evil = "<img src=x onerror=alert(1)> | *b* [l](javascript:x) \u001b[2J\nforged";
  const t: Timeline = {
    releases: [
      { input: "a", version: "1.0.0", platform: "npm", routineHash: null, error: evil, verified: null },
      {
        input: "b",
        version: "1.0.1",
        platform: "npm",
        routineHash: "ab".repeat(32),
        signature: "tool-search/scorer@<b>x</b>",
        verified: null,
      },
    ],
    groups: [
      { first: "1.0.0", last: "1.0.0", routineHash: null, releases: ["1.0.0"], error: evil },
      { first: "1.0.1", last: "1.0.1", routineHash: "ab".repeat(32), signature: "tool-search/scorer@<b>x</b>", releases: ["1.0.1"] },
    ],
    changes: [
      { from: "1.0.0", to: "1.0.1", behaviour: null, note: evil },
      {
        from: "1.0.1",
        to: "1.0.2",
        behaviour: {
          searched: 5,
          seconds: 1,
          changed: [
            {
              function: "toolSearch",
              query: "q`<script>`\n# head",
              deferred: [{ name: "<script>alert(1)</script>" }],
              loaded: [],
              before: ["<script>alert(1)</script>"],
              after: [],
              summary: "s",
            },
          ],
          sentences: ["`q`<script>`\n# head` → <script>alert(1)</script> before, (none) after"],
        },
      },
    ],
  };

  it("Markdown: no raw HTML, link or emphasis, one table row per group, no forged lines", () => {
    const md = timelineMarkdown(t);
    // Inside a code span nothing is markup (CommonMark); outside one, no `<` may be left unescaped.
    const outsideCode = md.replace(/(`+)[\s\S]*?[^`]\1(?!`)/g, "");
    expect(outsideCode).not.toMatch(/(?<!\\)</);
    // The witness's sentence, with its HTML and its line break made text.
    expect(md).toMatch(/^- .*\\<script\\>alert\(1\)\\<\/script\\> before, \(none\) after$/m);
    expect(md).not.toMatch(/[^\\]\[l\]/);
    expect(md).not.toMatch(RAW_UNSAFE);
    expect(md.split("\n").filter((l) => l.startsWith("forged") || l.startsWith("# head"))).toEqual([]);
    const rows = md.split("\n").filter((l) => l.startsWith("| "));
    expect(rows).toHaveLength(1 + t.groups.length);
    // Each row keeps its four cells: a `|` from the input is escaped.
    for (const r of rows) expect(r.split(/(?<!\\)\|/).length - 2).toBe(4);
    expect(md).toContain("\\<img src=x onerror=alert(1)\\> \\| \\*b\\* \\[l\\](javascript:x) \\\\u001b\\[2J\\\\nforged");
    expect(markdownCode("a`b")).toBe("``a`b``");
    expect(markdownText("a_b&c")).toBe("a\\_b\\&c");
  });

  it("prose with code in backticks: code spans stay code, the rest is plain text", () => {
    expect(codeSpans('`select:` finds `"a_b"` now')).toEqual([
      { code: true, text: "select:" },
      { code: false, text: " finds " },
      { code: true, text: '"a_b"' },
      { code: false, text: " now" },
    ]);
    // A longer fence holds a backtick; a run never closed is text.
    expect(codeSpans("q `` `x` `` and ` alone")).toEqual([
      { code: false, text: "q " },
      { code: true, text: "`x`" },
      { code: false, text: " and ` alone" },
    ]);
    expect(markdownProse("`a_b` <b>*c*</b>")).toBe("`a_b` \\<b\\>\\*c\\*\\</b\\>");
    // Every fence proseCode writes reads back as the text it quoted.
    for (const t of ["plain", "`tick", "two `` ticks`", '"`q`"']) {
      const spans = codeSpans(`x ${proseCode(t)} y`);
      expect(spans.filter((p) => p.code).map((p) => p.text)).toEqual([t]);
    }
    // Code from an input cannot end its span early or carry HTML into Markdown.
    expect(markdownProse(`see ${proseCode("a`<img src=x>`b")}`)).toBe("see ``a`<img src=x>`b``");
  });

  it("HTML: every text from the input is escaped", () => {
    const html = timelineHtml(t, { pack: toolSearchPack });
    expect(html).not.toMatch(/<img|<script>alert|<b>x<\/b>/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
