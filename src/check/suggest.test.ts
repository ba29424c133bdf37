import { describe, expect, it } from "vitest";
import { clientTool } from "./naming.js";
import { bestFirst, candidateEdits, changedChars, edited, editProbe, measuredSuggestions, type Suggestion } from "./suggest.js";
import type { ProbeBatch, ToolProbe } from "./tool-probes.js";

const mail = clientTool("mail", { name: "send_mail", description: "Send an email with an attachment" });

describe("changedChars", () => {
  it("counts what lies between the common start and end", () => {
    expect(changedChars("abc", "abc")).toBe(0);
    expect(changedChars("abc", "abc x")).toBe(2);
    expect(changedChars("", "where is")).toBe(8);
    expect(changedChars("send_mail", "send_attach")).toBe(6);
  });
});

describe("candidateEdits", () => {
  it("adds the missing words to the description, at its start, as a hint, and as name parts", () => {
    const edits = candidateEdits(mail, "attach file", null);
    expect(edits.map((e) => e.kind)).toEqual(["description", "move", "searchHint", "hint+description", "rename", "rename", "rename"]);
    expect(edits[0]!.description).toBe("Send an email with an attachment. attach file");
    expect(edits[1]!.description).toBe("attach file — Send an email with an attachment");
    expect(edits[2]!.searchHint).toBe("attach file");
    // A word no name part holds is added as a part.
    expect(edits.filter((e) => e.kind === "rename").map((e) => e.toolName)).toEqual([
      "send_mail_attach",
      "send_mail_file",
      "send_mail_attach_file",
    ]);
    expect(candidateEdits(mail, "select:send_mail", null)).toEqual([]);
    // A part that contains the word becomes the word.
    const files = clientTool("mail", { name: "get_attachments", description: "" });
    expect(
      candidateEdits(files, "attach", null)
        .filter((e) => e.kind === "rename")
        .map((e) => e.toolName),
    ).toEqual(["get_attach"]);
  });

  it("moves a word past a release's read prefix to the start, and leaves out particles from names", () => {
    const late = clientTool("s", { name: "t", description: `${"x ".repeat(40)}weather` });
    const move = candidateEdits(late, "weather", 20).find((e) => e.kind === "move")!;
    expect(move.description!.startsWith("weather — ")).toBe(true);
    expect(move.text).toContain("past the first 20 characters");
    expect(candidateEdits(late, "weather", null).some((e) => e.kind === "move")).toBe(false);
    const renames = candidateEdits(mail, "where is", null).filter((e) => e.kind === "rename");
    expect(renames.map((e) => e.toolName)).toEqual(["send_mail_where"]);
  });

  it("a rename changes the client's name", () => {
    const e = candidateEdits(mail, "attach", null).find((x) => x.kind === "rename")!;
    expect(edited(mail, e).name).toBe("mcp__mail__send_attach".replace("send_attach", "send_mail_attach"));
  });
});

/** A batch answering search probes from a table: the tool's place by the edit's kind. */
function fakeBatch(places: Record<string, number | null>, tool = mail): ProbeBatch {
  const edits = candidateEdits(tool, "attach", null);
  return {
    get(p: ToolProbe) {
      const e = edits.find((x) => JSON.stringify(editProbe("attach", 0, tool, x)) === JSON.stringify(p));
      if (!e) return null;
      const at = places[e.text] ?? null;
      const name = edited(tool, e).name;
      return at === null ? ["other"] : [...Array.from({ length: at - 1 }, (_, i) => `o${i}`), name];
    },
  } as unknown as ProbeBatch;
}

describe("measuredSuggestions", () => {
  const edits = candidateEdits(mail, "attach", null);
  const byKind = (k: string) => edits.find((e) => e.kind === k)!.text;
  const expectation = {
    query: "attach",
    tool: mail.name,
    rank: 1,
    results: { "1.0": { rank: null, met: false }, "2.0": { rank: 3, met: false } },
  };

  it("keeps edits better on some release and worse on none and not matched by a shorter one, best worst-case rank first", () => {
    const both = byKind("hint+description");
    const batches = new Map([
      [
        "1.0",
        fakeBatch({ [byKind("description")]: 2, [byKind("searchHint")]: 1, [byKind("rename")]: 1, [byKind("move")]: null, [both]: 1 }),
      ],
      ["2.0", fakeBatch({ [byKind("description")]: 1, [byKind("searchHint")]: 2, [byKind("rename")]: 2, [byKind("move")]: 3, [both]: 2 })],
    ]);
    const s = measuredSuggestions(expectation, mail, 0, edits, batches);
    // Move is better nowhere, hint+description no better than the hint alone; at the same worst case, fewer characters first.
    expect(s.map((x) => x.kind)).toEqual(["searchHint", "rename", "description"]);
    expect(s[1]!.ranks).toEqual({ "1.0": { before: null, after: 1 }, "2.0": { before: 3, after: 2 } });
    expect(s[1]!.met).toBe(false);
    expect(s[2]!.improves).toEqual(["1.0", "2.0"]);
    // Worse on a release: not shown.
    const worse = new Map([
      ["1.0", fakeBatch({ [byKind("searchHint")]: 1 })],
      ["2.0", fakeBatch({ [byKind("searchHint")]: 4 })],
    ]);
    expect(measuredSuggestions(expectation, mail, 0, edits, worse)).toEqual([]);
    expect(
      measuredSuggestions(
        expectation,
        mail,
        0,
        edits,
        new Map([
          ["1.0", fakeBatch({ [byKind("rename")]: 1 })],
          ["2.0", fakeBatch({ [byKind("rename")]: 1 })],
        ]),
      )[0]!.met,
    ).toBe(true);
  });

  it("shows no edit a release could not measure", () => {
    const s = measuredSuggestions(expectation, mail, 0, edits, new Map([["1.0", fakeBatch({ [byKind("rename")]: 1 })]]));
    expect(s).toEqual([]);
  });

  it("orders by worst-case rank, then characters changed", () => {
    const s = (chars: number, after: number | null): Suggestion => ({
      kind: "description",
      text: String(chars),
      chars,
      ranks: { a: { before: null, after } },
      improves: ["a"],
      met: false,
    });
    expect([s(9, 1), s(3, 2), s(2, 1), s(1, null)].sort(bestFirst).map((x) => x.chars)).toEqual([2, 9, 3, 1]);
  });
});
