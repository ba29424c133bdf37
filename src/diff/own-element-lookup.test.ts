import { describe, expect, it } from "vitest";
import { instrument } from "./coverage.js";

/**
 * A ranking module in the shape of the releases': copies of the caller's tools, a lookup by name through an index
 * cached per list, and a helper that reads each kept tool's text by looking it up by its own name.
 */
const module = (
  edits: {
    rank?: string;
    copy?: string;
    copyAfter?: string;
    kept?: string;
    visit?: string;
    key?: string;
    list?: string;
    lookupCall?: string;
    extraReturn?: string;
    compare?: string;
    stored?: string;
  } = {},
) => `
async function rank(query, given, options = {}) {
  const engine = makeEngine();
  const mine = given.map(copyTool);
  const every = [...mine, ...(options.extra ?? []).map(copyTool)];
  ${edits.rank ?? "return engine.rank(query, mine, every);"}
}
function copyTool(tool) {
  const copy = ${edits.copy ?? '{ name: tool.name, text: async () => tool.description ?? "" }'};
  if (tool.aliases !== undefined) copy.aliases = tool.aliases;
  ${edits.copyAfter ?? ""}
  return copy;
}
function makeEngine() {
  async function rankAll(query, mine, every) {
    let kept = mine;
    if (query.startsWith("+")) {
      kept = ${edits.kept ?? "(await Promise.all(mine.map(async (item) => (item.name.includes(query) ? item : null)))).filter((x) => x !== null)"};
    }
    return Promise.all(kept.map(${edits.visit ?? "async (item)"} => (await textOf(${edits.key ?? "item.name"}, ${edits.list ?? "every"})).length));
  }
  function lookup(list, key, renamed) {
    let other = renamed ? renamed.get(key) : undefined;
    if (other !== undefined) return lookup(list, other);
    ${edits.extraReturn ?? ""}
    let index = indexes.get(list);
    if (index) return index.get(key);
    if (seenLists.has(list)) {
      let built = indexByName(list);
      indexes.set(list, built);
      return built.get(key);
    }
    seenLists.add(list);
    return list.find((item) => matches(item, key));
  }
  function matches(item, key) {
    return ${edits.compare ?? "item.name === key"} || (item.aliases?.includes(key) ?? false);
  }
  function indexByName(list) {
    let byName = new Map();
    for (let item of list) {
      if (!byName.has(item.name)) byName.set(item.name, ${edits.stored ?? "item"});
      for (let alias of item.aliases ?? []) if (!byName.has(alias)) byName.set(alias, item);
    }
    return byName;
  }
  let textOf = async (key, list) => {
    let found = ${edits.lookupCall ?? "lookup(list, key)"};
    if (!found) return ""; // MARK
    return found.text({ list });
  };
  let indexes = new WeakMap();
  let seenLists = new WeakSet();
  return { rank: rankAll };
}
export { rank };
`;

/** Why the guard's `return` on the marked line cannot run (the same for its test's true outcome), or null when it may. */
const guard = (text: string): string | null => {
  const line = text.split("\n").findIndex((l) => l.includes("// MARK")) + 1;
  const points = instrument(text, new Set([line])).points.filter((p) => p.code === 'return "";' || p.why === "never true");
  expect(points.length).toBeGreaterThan(0);
  const said = new Set(points.map((p) => p.unreachable ?? null));
  expect(said.size).toBe(1);
  return [...said][0]!;
};

describe("a lookup by the name of an element of its own list (own-element-lookup.ts)", () => {
  it("always finds one: the guard on a missing one cannot run, with why", () => {
    expect(guard(module())).toBe(
      "reachable only when `!found` is true — `lookup` is only asked for the `name` of an element of the list it searches " +
        "(every call of `textOf` passes `item.name`, of an element of `kept`, which that list holds), and finds every element " +
        "by it (the index of the list `indexes` keeps, an index `indexByName` makes of every element, `find`); the elements " +
        "are objects the module makes, and nothing changes a list or a `name` on the way",
    );
  });

  it("not once a list on the way is written, or handed to code that may write it", () => {
    expect(guard(module({ rank: "every.pop();\n  return engine.rank(query, mine, every);" }))).toBeNull();
    expect(guard(module({ rank: "const out = engine.rank(query, mine, every);\n  mine.length = 0;\n  return out;" }))).toBeNull();
    expect(guard(module({ copy: "{ name: tool.name, text: async (context) => context.list.length }" }))).toBeNull();
    expect(guard(module({ visit: "async (item, at, all)" }))).toBeNull();
  });

  it("not when the lookup is called with another key, given a renaming, or its callers may be reached unnamed", () => {
    expect(guard(module({ key: "query" }))).toBeNull();
    expect(guard(module({ lookupCall: "lookup(list, key, new Map())" }))).toBeNull();
    // The engine's functions handed out without their names: any call could reach them.
    expect(guard(module({ rank: "Object.values(engine)[0](query, given, given);\n  return engine.rank(query, mine, every);" }))).toBeNull();
  });

  it("not when the key is not the element's own name, or the element is not of the list searched", () => {
    expect(guard(module({ compare: "item.title === key" }))).toBeNull();
    expect(guard(module({ key: "item.title" }))).toBeNull();
    expect(guard(module({ rank: "return engine.rank(query, every, mine);" }))).toBeNull();
    expect(guard(module({ kept: "[...every, { name: query, text: async () => '' }]" }))).toBeNull();
  });

  it("not when the elements are not objects the module makes, or their name may change", () => {
    expect(guard(module({ rank: "return engine.rank(query, given, given);" }))).toBeNull();
    expect(guard(module({ copyAfter: "copy.name = tool.title;" }))).toBeNull();
    expect(guard(module({ copyAfter: 'Reflect.set(copy, "name", tool.title);' }))).toBeNull();
    expect(guard(module({ copy: "{ name: tool.label, text: async () => '' }" }))).toBeNull();
  });

  it("not when the lookup may return anything else, or its index holds anything but the elements", () => {
    expect(guard(module({ extraReturn: "if (list.length > 99) return null;" }))).toBeNull();
    expect(guard(module({ stored: "item.name" }))).toBeNull();
    expect(guard(module({ extraReturn: "indexes.get(list)?.clear();" }))).toBeNull();
  });
});
