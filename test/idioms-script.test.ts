import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain script, without types
import { measure } from "../scripts/idioms.mjs";

/** The lines scripts/idioms.mjs finds a statement without effect on, in a module of `code`. */
const noops = (code: string): number[] =>
  (measure(code) as { findings: Array<{ kind: string; line: number }> }).findings.filter((f) => f.kind === "noop").map((f) => f.line);

describe("scripts/idioms.mjs: statements without effect", () => {
  it("reads, and calls of functions that only return values read", () => {
    const code = [
      "let entry = { accepted: false };",
      "function getAccepted() { return entry.accepted; }",
      "function save() { entry.accepted = true; }",
      "const cut = () => {};",
      "getAccepted();",
      "save();",
      "cut(entry.accepted);",
      "cut(save());",
      "entry.accepted;",
      "",
    ].join("\n");
    expect(noops(code)).toEqual([5, 7, 9]);
  });
  it("comparisons, reads and operators whose value is thrown away, wherever they are", () => {
    const code = [
      "async function f(search) {",
      "  let matches = await search();",
      "  matches.length === 0;",
      "  if (matches.length === 0) return [];",
      "  !matches;",
      "  `${matches.length} found`;",
      "  matches.length === 0 || (await search());",
      "  return matches;",
      "}",
      "",
    ].join("\n");
    expect(noops(code)).toEqual([3, 5, 6]);
  });
  it("a string or array method's new value thrown away, unless a callback passed may do something", () => {
    const code = [
      "const pattern = /mcp__\\w+/g;",
      "function identity(x) { return x; }",
      "function note(x) { seen.push(x); }",
      "function f(query, callback) {",
      "  query.replace(pattern, identity);",
      "  query.trim();",
      "  query.replace(pattern, note);",
      "  query.replace(pattern, callback);",
      "  query.split(' ').map((word) => seen.push(word));",
      "  return query;",
      "}",
      "",
    ].join("\n");
    expect(noops(code)).toEqual([5, 6]);
  });
  it("calls of the parts of call()'s context the adapter fills with the empty state", () => {
    const code = [
      "async function call(input, context) {",
      "  let { tools, room, refresh } = context;",
      "  room();",
      "  refresh();",
      "  tools();",
      "}",
      "async function toolSearch(query, release) {",
      '  return release.call({ query }, { "tools": [], "room": emptyState(), "refresh": undefined });',
      "}",
      "",
    ].join("\n");
    expect(noops(code)).toEqual([3]);
  });
});
