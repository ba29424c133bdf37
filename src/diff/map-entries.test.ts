import { describe, expect, it } from "vitest";
import { instrument } from "./coverage.js";

/** A scorer in the shape of the releases': whole-word patterns built once per query, read per term. */
const scorer = (edits: { after?: string; builderSet?: string; requiredTest?: string; key?: string; reader?: string } = {}) => `
function buildPatterns(terms) {
  let patterns = new Map();
  for (let term of terms) {
    if (!patterns.has(term)) patterns.set(term, ${edits.builderSet ?? "new RegExp(term)"});
  }
  return patterns;
}
function patternOf(patterns, term) {
  let pattern = patterns.get(term);
  if (pattern === undefined) {
    throw TypeError("no pattern"); // MARK
  }
  ${edits.reader ?? ""}
  return pattern;
}
function score(query, names) {
  let words = query.split(" ");
  let required = [];
  let optional = [];
  for (let word of words) {
    if (word.startsWith("+")) required.push(word.slice(1));
    else optional.push(word);
  }
  let terms = required.length > 0 ? [...required, ...optional] : words;
  let patterns = buildPatterns(terms);
  ${edits.after ?? ""}
  let kept = names;
  if (${edits.requiredTest ?? "required.length > 0"}) {
    kept = names.filter((name) => required.every((word) => patternOf(patterns, word).test(name)));
  }
  return kept.map((name) => {
    let total = 0;
    for (let term of terms) if (patternOf(patterns, ${edits.key ?? "term"}).test(name)) total++;
    return total;
  });
}
export { score };
`;

/** Why the guard's throw (the line marked) cannot run, or null when it may. */
const guard = (text: string): string | null => {
  const line = text.split("\n").findIndex((l) => l.includes("// MARK")) + 1;
  const points = instrument(text, new Set([line])).points;
  expect(points.length).toBeGreaterThan(0);
  const said = new Set(points.map((p) => p.unreachable ?? null));
  expect(said.size).toBe(1);
  return [...said][0]!;
};

describe("a map read with a key of the list it was built from (map-entries.ts)", () => {
  it("always finds an entry: the guard on a missing one cannot run, with why", () => {
    expect(guard(scorer())).toBe(
      "reachable only when `pattern === undefined` is true — at each call of `patternOf`, `patterns` holds an entry for every element of `terms` (buildPatterns sets one for each), and `term` is one of them",
    );
  });

  it("not once the list is written after the map is built", () => {
    expect(guard(scorer({ after: 'terms.push("late");' }))).toBeNull();
  });

  it("not when the map is handed to code that may delete from it", () => {
    expect(guard(scorer({ reader: "patterns.delete(term);" }))).toBeNull();
  });

  it("not when the key comes from another list", () => {
    expect(guard(scorer({ key: "name" }))).toBeNull();
  });

  it("not when the builder may store undefined", () => {
    expect(guard(scorer({ builderSet: "names[term]" }))).toBeNull();
  });

  it("not when the required words are read under another test than the one that put them in the list", () => {
    expect(guard(scorer({ requiredTest: "optional.length > 0" }))).toBeNull();
  });
});
