import { parse } from "acorn";
import { generate } from "astring";
import { describe, expect, it } from "vitest";
import { fieldsOf, isNodeList, type Node } from "../../ast/pattern.js";
import { nameProgram, shorten } from "./namer.js";
import { curatedLookup, readEntries, type CuratedMatch } from "./curated.js";
import { codeShape } from "../stable-name.js";
import { isPlaceholderName, plural, singular } from "./words.js";

/** Name a snippet whose module-level `h_…` definitions are renamable; roles by the name they had. */
function named(code: string, roles: Record<string, string> = {}, curated?: (s: Node) => CuratedMatch | null): string {
  const program = parse(code, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const byOffset = new Map<number, string>();
  const visit = (n: Node) => {
    if (!n || typeof n.type !== "string") return;
    if (n.type === "Identifier" && roles[n.name]) byOffset.set(n.start, roles[n.name]!);
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (isNodeList(v)) v.forEach((c) => c && typeof c === "object" && visit(c));
      else if (v && typeof v === "object" && k !== "range") visit(v as Node);
    }
  };
  visit(program);
  nameProgram({ statements: program.body, roles: byOffset, taken: ["root"], renamable: (n) => n.startsWith("h_"), curated });
  return program.body.map((s: Node) => generate(s as never)).join("\n");
}

describe("naming rules", () => {
  it("the object key a value flows into, and the destructured key", () => {
    const out = named("function root(a) { let b = a.x; const { server: c } = a; return { budget: b, s: c }; }");
    expect(out).toContain("let budget = ");
    // Key and value agree: written as a shorthand, as the same code minified differently would be.
    expect(out).toContain("const {server} = ");
  });

  it("the producing call: lower case, split, RegExp, Set, Map, filter, map", () => {
    const out = named(
      "function root(q, t) { let a = q.toLowerCase(), b = a.split(/\\s+/), c = new RegExp(`\\\\b${q}\\\\b`), d = new Set(t), e = new Map(), f = t.filter((x) => x.ok), g = t.map((x) => x.name); e.set(q, 1); return [b, c, d, e, f, g]; }",
      { q: "query", t: "tools" },
    );
    for (const name of ["lowerQuery =", "lowerQueryWords =", "queryPattern =", "toolSet =", "queryMap =", "filteredTools =", "toolNames ="])
      expect(out).toContain(name);
  });

  it("a frozen value is named as the value: a shared empty list, or the frozen thing", () => {
    const out = named(
      "let h_0001 = Object.freeze([]); let h_0002 = Object.freeze({}); function root(t) { let a = Object.freeze(t); return t.length ? a : [h_0001, h_0002]; }",
      {
        t: "tools",
      },
    );
    expect(out).toContain("let emptyList = Object.freeze([]);");
    expect(out).toContain("let emptyObject = Object.freeze({});");
    expect(out).toContain("let frozenTools = Object.freeze(tools);");
  });

  it("a list that starts empty is named by what goes in, or by what the function returning it gives", () => {
    const out = named(
      "function root(t, s) { let a = [], b = new Uint16Array(s.length); for (let x of t) a.push(x.name); for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i); return [a, b]; }",
      { t: "tools", s: "text" },
    );
    expect(out).toContain("let names = []");
    expect(out).toContain("charCodes = new Uint16Array(text.length)");
    const records = curatedLookup(
      readEntries(`{"name": "collectToolReferences", "about": "x", "features": {"kind": "function", "words": ["toolUseId"]}}`),
    );
    const collected = named(
      "function h_0001(m) { let a = []; for (let x of m) a.push({ toolUseId: x.id }); return a; }\nfunction root(q) { return h_0001(q); }",
      {},
      records,
    );
    expect(collected).toContain("let toolReferences = [];");
    expect(collected).toContain("return toolReferences;");
  });

  it("the places of an array pattern: a split's first piece is its prefix, a rest joined into a value is its parts", () => {
    const out = named(
      'function root(q) { let a = q.split("__"), [b, c, ...d] = a; if (b !== "mcp" || !c) return null; let e = d.length > 0 ? d.join("__") : void 0; return { serverName: c, toolName: e }; }',
      { q: "name" },
    );
    expect(out).toContain("[prefix, serverName, ...toolNameParts] = ");
    // A rest that nothing joins is the rest; the first of a pattern that is not a split is left to its use.
    const other = named("function root(t) { let [a, ...b] = t.slice(1); return [a.name, b.length]; }", { t: "tools" });
    expect(other).toContain("...rest] = tools.slice(1)");
    expect(other).not.toContain("prefix");
  });

  it("words sorted by a search mark are named for what it means: `+word` required, the rest optional", () => {
    const sort = (mark: string) =>
      named(
        `function root(q) { let w = q.split(/\\s+/).filter((x) => x.length > 0), a = [], b = []; for (let x of w) if (x.startsWith("${mark}") && x.length > 1) a.push(x.slice(1)); else b.push(x); return a.length > 0 ? [...a, ...b] : w; }`,
        { q: "query" },
      );
    expect(sort("+")).toContain("requiredWords = [], optionalWords = []");
    expect(sort("-")).toContain("excludedWords = [], includedWords = []");
    // Another prefix means nothing known; and words filtered into one list are not sorted in two.
    expect(sort("#")).not.toMatch(/required|optional|excluded|included/);
    const filtered = named(
      'function root(q) { let w = q.split(" "), a = [], b = []; for (let x of w) if (x.startsWith("+")) a.push(x.slice(1)); else b.length = 0; return [a, b]; }',
      { q: "query" },
    );
    expect(filtered).not.toContain("required");
  });

  it("a group a pattern captured is named by the pattern: a list when split at commas, else the group", () => {
    const roles = { q: "query", h_p: "selectPattern", m: "selectMatch" };
    const list = named(
      'function root(q) { let a = h_p.exec(q)?.[1] ?? void 0; return a === void 0 ? [] : a.split(","); } const h_p = /^s:(.*)$/;',
      roles,
    );
    expect(list).toContain("let selectList = selectPattern.exec(query)?.[1] ?? void 0;");
    const matched = named('function root(q, m) { return m[1].split(",").map((x) => x.trim()); }', roles);
    expect(matched).toContain('selectMatch[1].split(",").map(selectListItem => selectListItem.trim())');
    const group = named("function root(q) { let a = h_p.exec(q)?.[1]; return a.trim(); } const h_p = /^s:(.*)$/;", roles);
    expect(group).toContain("let selectGroup = selectPattern.exec(query)?.[1];");
  });

  it("where a separator is in a text is its index; where an element is in a list is that element's", () => {
    const out = named("function root(q, t, x) { let a = q.indexOf('__'), b = t.indexOf(x); return [q.slice(0, a), b]; }", {
      q: "name",
      t: "tools",
    });
    expect(out).toContain("separatorIndex = name.indexOf('__')");
    expect(out).toContain("toolIndex = tools.indexOf(");
  });

  it("what a map gives back is what the code stores in it; a cache keyed by a value gives back what is cached", () => {
    const out = named(
      "let h_0002 = new Map(); function h_0001(t) { for (const x of t) h_0002.set(x.name, x); } function root(t, q) { h_0001(t); let a = h_0002.get(q); return a; }",
      { t: "tools", q: "query" },
    );
    expect(out).toMatch(/let tool = \w+\.get\(query\);/);
    const cache = named(
      "let h_0003 = new WeakMap(); function root(c) { let a = h_0003.get(c); if (a === undefined) { a = [c]; h_0003.set(c, a); } return a; }",
      { c: "content" },
    );
    expect(cache).toContain("let cached = contentCache.get(content);");
    // Looked up before the value of that name is stored: the one already there.
    const index = named(
      "function root(t) { let m = new Map(); for (const x of t) { let a = m.get(x.name); if (a === undefined) m.set(x.name, x); } return m; }",
      {
        t: "tools",
      },
    );
    expect(index).toContain("let existingTool = nameMap.get(tool.name);");
  });

  it("a string constant whose first words another one nearby took is named by its first and last words", () => {
    const out = named(
      'let h_0001 = "mcp__remote-devices__"; let h_0002 = "mcp__remote-devices__device_bash"; function root(q) { return q === h_0002 ? h_0001 : ""; }',
    );
    expect(out).toContain('let mcpRemoteDevicesText = "mcp__remote-devices__";');
    expect(out).toContain('let mcpDeviceBashText = "mcp__remote-devices__device_bash";');
  });

  it("a template made of string constants is named by its text, as the literal written in its place is", () => {
    // Helpers are named in the order of their tags: either one first, the longer text leaves the first three
    // words to the one that has no more.
    for (const [prefix, bash] of [
      ["h_0002", "h_0004"],
      ["h_0004", "h_0002"],
    ]) {
      const out = named(
        `let h_0001 = "remote-devices"; let ${prefix} = \`mcp__\${h_0001}__\`; let ${bash} = \`mcp__\${h_0001}__device_bash\`; let h_0003 = \`mcp__\${root}\`; ` +
          `function root(q) { return q.startsWith(${prefix}) ? h_0003 : q === ${bash} ? h_0001 : ""; }`,
      );
      expect(out).toContain("let mcpRemoteDevicesText = `mcp__${remoteDevicesText}__`;");
      expect(out).toContain("let mcpDeviceBashText = `mcp__${remoteDevicesText}__device_bash`;");
      // A part that is not a string constant: named by the template's own words.
      expect(out).toContain("let mcpText = `mcp__${root}`;");
    }
  });

  it("an array of texts, some chosen by a test, is texts", () => {
    const out = named("function root(a, b) { let x = [...(a ? [`one ${a}`] : []), b && 'two']; return x.join(' '); }");
    expect(out).toContain("let texts = [");
  });

  it("pairs made by a map, their parts named as the map named them, and a flatMap that filters", () => {
    const out = named("function root(t) { let p = t.map((x) => [x, x.length]), k = p.flatMap(([a, b]) => b > 1 ? [a] : []); return k; }", {
      t: "tools",
    });
    expect(out).toContain("toolPairs = tools.map(tool => [tool, tool.length])");
    expect(out).toMatch(/filteredTools = toolPairs\.flatMap\(\(\[tool, \w+\]\) => \w+ > 1 \? \[tool\] : \[\]\)/);
  });

  it("a call named by a noun and a preposition gives that noun: parsedNameOf, charCodeAt, getValueFor", () => {
    const out = named(
      "function root(t, c) { let a = c.parsedNameOf(t), b = t.name.charCodeAt(0), d = c.getValueFor(t); return [a.parts, b, d]; }",
      {
        t: "tool",
        c: "cache",
      },
    );
    expect(out).toContain("let parsedName = cache.parsedNameOf(tool)");
    expect(out).toContain("charCode = tool.name.charCodeAt(0)");
    expect(out).toContain("value = cache.getValueFor(tool)");
  });

  it("what a map helper keeps of a list, or drops, is that list: the filter after it tests its elements", () => {
    const kept = named(
      "async function root(t) { return (await mapAll(t, async (x) => { if (x.ok) return x; return null; })).filter((y) => y !== null); }",
      {
        t: "tools",
      },
    );
    expect(kept).toContain(".filter(tool => tool !== null)");
    const mapped = named(
      "async function root(t) { return (await mapAll(t, async (x) => x.ok ? x.name : null)).filter((y) => y !== null); }",
      {
        t: "tools",
      },
    );
    expect(mapped).not.toContain(".filter(tool =>");
  });

  it("a list that starts as another and may be narrowed to some of it holds the candidates", () => {
    const roles = { t: "tools", r: "requiredWords", u: "loadedTools" };
    const out = named(
      "function root(t, r) { let a = t; if (r.length > 0) a = t.filter((x) => r.every((w) => x.name.includes(w))); return a.map((x) => x.name); }",
      roles,
    );
    expect(out).toContain("let candidates = tools;");
    expect(out).toContain("candidates = tools.filter(");
    // Written with another list, or with a filter of another list, it is not narrowed.
    expect(named("function root(t, u) { let a = t; if (u) a = u; return a; }", roles)).not.toContain("candidates");
    expect(named("function root(t, u) { let a = t; if (u) a = u.filter((x) => x.ok); return a; }", roles)).not.toContain("candidates");
  });

  it("what Promise.all gives is results", () => {
    const out = named("async function root(t) { let a = await Promise.all(t.map(async (x) => x.name)); return a.filter((r) => r); }", {
      t: "tools",
    });
    expect(out).toContain("let results = await Promise.all(");
    expect(out).toContain("results.filter(result => result)");
  });

  it("a collection named by what the code adds to it waits for that to have a name", () => {
    const out = named("function root(t) { let m = new Map(); for (const x of t) m.set(x, 1); return m; }", { t: "terms" });
    expect(out).toContain("let termMap = new Map();");
  });

  it("a sorted head of a long plural holds its last word: the names of the first results", () => {
    const out = named(
      "function root(t, n) { let a = t.filter((x) => x.ok).sort((x, y) => x.score - y.score).slice(0, n).map((x) => x.name); return a; }",
      { t: "results" },
    );
    expect(out).toContain(".map(result => result.name)");
    expect(out).toContain("let resultNames = ");
  });

  it("a loop counter is i, then j and k inside it; a counter stepping by a chunk is its offset", () => {
    const out = named(
      "function root(a, b) { for (let x = 0; x < a.length; x++) for (let y = x; y < b.length; y += 1) if (a[x] === b[y]) return y; " +
        "let s = []; for (let c = 0; c < a.length; c += 8192) s.push(a.slice(c, c + 8192)); return s; }",
    );
    expect(out).toMatch(/for \(let i = 0; i < \w+\.length; i\+\+\) for \(let j = i; j < \w+\.length; j \+= 1\)/);
    expect(out).toMatch(/for \(let offset = 0; offset < \w+\.length; offset \+= 8192\)/);
    // Not a counter: what a loop's head declares without stepping it.
    expect(named("function root(a) { for (let x = a.first; x; ) x = x.next; return 1; }")).not.toMatch(/\blet [ijk] =/);
  });

  it("an error made by a global error constructor, with or without new; a local of that name makes no error", () => {
    const out = named("function root(q) { let a = TypeError('none'), b = new RangeError('far'); if (q) throw a; throw b; }");
    expect(out).toContain("let typeError = TypeError('none'), rangeError = new RangeError('far');");
    const local = named("function root(TypeError) { let a = TypeError('none'); return a; }");
    expect(local).not.toContain("typeError");
  });

  it("a private field's minified name names nothing: `this.#e.get(x)` is not an `eItem`", () => {
    const out = named(
      "class K { #e = new Map(); find(q) { let a = this.#e.get(q); if (a) return a; return this.#e.size; } } function root() { return new K(); }",
    );
    expect(out).not.toMatch(/\beItem\b/);
    expect(out).toMatch(/let (\w+) = this\.#e\.get\(\w+\);\s*if \(\1\) return \1;/);
  });

  it("the element of a collection: for-of and callbacks", () => {
    const out = named("function root(t) { for (const a of t) a.run(); return t.some((b) => b.ok); }", { t: "tools" });
    expect(out).toContain("for (const tool of tools)");
    expect(out).toMatch(/tools\.some\(\w*[tT]ool =>/);
  });

  it("booleans from predicates", () => {
    const out = named("function root(t, q) { let a = t.length > 0, b = q === void 0, c = t.includes(q); return [a, b, c]; }", {
      t: "tools",
      q: "query",
    });
    expect(out).toContain("hasTools = tools.length > 0");
    expect(out).toContain("noQuery = query === void 0");
    expect(out).toContain("hasQuery = tools.includes(query)");
  });

  it("helpers by what they return, parameters by what callers pass, arguments by the parameter they land in", () => {
    const out = named(
      "function h_0001(a) { return a; }\nfunction h_0002(a) { return [...new Set(a)]; }\nfunction h_0003(a, b) { return a.slice(0, b); }\nfunction root(t) { return h_0003(h_0002(h_0001(t)), 5); }",
      { t: "tools" },
    );
    expect(out).toContain("function identity(tools)");
    expect(out).toContain("function getUnique(tools)");
    expect(out).not.toMatch(/h_000\d/);
    // What a call returns, by the function's verb: a participle before its object, a noun after it.
    const made = named(
      "function describeTool(x) { return x.about; }\nfunction parseQuery(x) { return x.q; }\nfunction root(t) { let a = describeTool(t), b = parseQuery(t); return [a, b]; }",
    );
    expect(made).toContain("let toolDescription = describeTool(");
    expect(made).toContain("parsedQuery = parseQuery(");
  });

  it("a constant by what it holds and where it is used", () => {
    const out = named("let h_00aa = /^select:(.*)$/i, h_00bb = 16384;\nfunction root(q) { return h_00aa.exec(q.slice(0, h_00bb)); }", {
      q: "query",
    });
    expect(out).toContain("selectPattern = /^select:");
    expect(out).toContain("maxQuery = 16384");
  });

  it("an element of a slice or a call's result is named by the plural under it", () => {
    const out = named("function root(m) { let t = m.slice(1), n = 0; for (const x of t) n += x.size; return n; }", { m: "messages" });
    expect(out).toContain("for (const message of messagesTail)");
  });

  it("a number is named after what it cuts once that has a name, whichever is named first", () => {
    const out = named(
      "let h_00bb = 32;\nfunction root(q) { let w = q.trim().split(/\\s+/); return w.length <= h_00bb ? w : w.slice(0, h_00bb); }",
      {
        q: "query",
      },
    );
    expect(out).toContain("let maxQueryWords = 32;");
    expect(out).toContain("trimmedQueryWords.slice(0, maxQueryWords)");
  });

  it("a number a helper cuts another argument by is the most of what the caller passes; the helper's parameter is its limit", () => {
    const out = named(
      "function h_00cc(a, b) { if (a.length <= b) return a; return a.slice(0, b); }\nlet h_00bb = 16384;\nfunction root(q) { return h_00cc(q, h_00bb); }",
      { q: "query" },
    );
    expect(out).toContain("maxQuery = 16384");
    expect(out).toMatch(/function \w+\(\w+, limit\) \{/);
    // A parameter only compared strictly with a length may be an index: no limit.
    const index = named(
      "function h_00cc(a, i) { return i < a.length ? a[i] : null; }\nlet h_00dd = 2;\nfunction root(q) { return h_00cc(q, h_00dd); }",
      {
        q: "query",
      },
    );
    expect(index).not.toContain("limit");
    expect(index).not.toContain("maxQuery");
  });

  it("unrelated scopes share a name; nested ones are told apart by a word, not a number", () => {
    const out = named("function root(t) { t.map((a) => a.x); t.map((b) => b.y); return t.map((c) => t.filter((d) => d === c)); }", {
      t: "tools",
    });
    expect(out.match(/\(tool\) =>|tool =>/g)?.length).toBe(3);
    // What a filter tests, where the element's name is taken, is a candidate; what a map maps, each one.
    expect(out).toContain("tools.filter(candidate => candidate === tool)");
    expect(out).not.toMatch(/tool\d/);
    const mapped = named("function root(t) { return t.map((c) => t.map((d) => [d, c])); }", { t: "tools" });
    expect(mapped).toContain("tools.map(eachTool => [eachTool, tool])");
    // An element of a compound plural whose name is taken nearby is named by the plural's last word.
    const found = named("function root(t) { let a = t.find((x) => x.ok); return [a, t.filter((y) => !y.ok)]; }", { t: "deferredTools" });
    expect(found).toContain("let deferredTool = deferredTools.find(tool => tool.ok);");
    expect(found).toContain("deferredTools.filter(tool => !tool.ok)");
  });

  it("a parameter every call fills with a variable of its name takes that name, unless the function reads the outer one", () => {
    const out = named("function root(t) { let f = (a) => a.filter((x) => x.ok); return f(t).length + f(t).length; }", { t: "tools" });
    expect(out).toContain(" = tools => tools.filter(");
    // The function reads the outer variable too: shadowing it would change what that read means.
    const reads = named("function root(t) { let f = (a) => a.concat(t); return f(t); }", { t: "tools" });
    expect(reads).not.toMatch(/\(?tools\)? =>/);
    expect(reads).toContain(".concat(tools)");
    // Called with something else somewhere, or passed on uncalled, it keeps a name of its own.
    for (const code of [
      "function root(t, u) { let f = (a) => a.filter((x) => x.ok); return f(t).concat(f(u)); }",
      "function root(t) { let f = (a) => a.filter((x) => x.ok); return [f(t), [t].map(f)]; }",
    ])
      expect(named(code, { t: "tools", u: "others" })).not.toMatch(/\(?tools\)? =>/);
  });

  it("collision numbers depend on structure: a helper added earlier does not rename a later one's locals", () => {
    const later = "function h_0009(q) { let a = q.toLowerCase(); return a; }\nfunction root(q) { return h_0009(q); }";
    const before = named(later, { q: "query" });
    const after = named("function h_0001(q) { let a = q.toLowerCase(); return a + 1; }\n" + later, { q: "query" });
    const body = (s: string) => s.slice(s.indexOf("function getLowerQuery(")).split("\n").slice(0, 4).join("\n");
    expect(body(after)).toBe(body(before));
  });

  it("an argument takes its parameter's name only where no name nearby holds it: else what made it says more", () => {
    const out = named("function h_0001(a) { return a.length; }\nfunction root(q) { let t = q.trim(); return h_0001(t) + h_0001(q); }", {
      q: "query",
      a: "query",
    });
    expect(out).toContain("let trimmedQuery = query.trim();");
  });

  it("an identifier the lift added carries its role on the node", () => {
    const program = parse("function root(a, b) { return b.tools; }", { ecmaVersion: "latest", sourceType: "module", ranges: true });
    const fn = program.body[0] as unknown as { params: Array<Node & { role?: string }> };
    fn.params[1]!.role = "context";
    nameProgram({ statements: program.body, roles: new Map(), taken: ["root"], renamable: () => false });
    expect(generate(program as never)).toMatch(/function root\(\w+, context\) \{\n {2}return context\.tools;/);
  });

  it("a curated name by code shape, else by the features listed", () => {
    const code = "function h_0001(a) { return a.replace(/[.*]/g, '\\\\$&'); }\nfunction root(q) { return h_0001(q); }";
    const program = parse(code, { ecmaVersion: "latest", sourceType: "module" });
    const shape = codeShape(program.body[0]!);
    const byShape = curatedLookup(readEntries(`{"name": "escapeForPattern", "about": "x", "shapes": ["${shape}"]}`));
    expect(named(code, {}, byShape)).toContain("function escapeForPattern(");
    const byFeatures = curatedLookup(
      readEntries(
        '{"name": "escapeRegExp", "about": "x", "features": {"kind": "function", "params": 1, "words": ["replace"], "texts": ["\\\\$&"]}}',
      ),
    );
    expect(named(code, {}, byFeatures)).toContain("function escapeRegExp(");
    expect(named(code.replace("\\\\$&", "x"), {}, byFeatures)).not.toContain("escapeRegExp");
  });

  it("a curated function's parameters take the names the file gives them, where its version has no more", () => {
    const code = "function h_0001(a, b = 0) { return a.slice(b); }\nfunction root(q) { return h_0001(q, 1); }";
    const entry = (parameters: Array<string | null>) =>
      curatedLookup(
        readEntries(
          `{"name": "rest", "about": "x", "features": {"kind": "function", "words": ["slice"]}, "parameters": ${JSON.stringify(parameters)}}`,
        ),
      );
    expect(named(code, {}, entry(["text", "from"]))).toContain("function rest(text, from = 0) {\n  return text.slice(from);");
    expect(named(code, {}, entry(["text", "from", "to"]))).toContain("function rest(text, from = 0) {");
    expect(named(code, {}, entry(["text", null]))).toMatch(/function rest\(text, (?!from)\w+ = 0\)/);
    expect(named(code, {}, entry(["text"]))).not.toContain("rest(text");
  });

  it("a curated class's parameters are its constructor's, and so name the fields that keep them", () => {
    const code = "class h_0001 { #a; constructor(a = {}) { this.#a = a; } read() { return this.#a.agents; } }";
    const entry = curatedLookup(
      readEntries(`{"name": "Holder", "about": "x", "features": {"kind": "class", "words": ["read"]}, "parameters": ["context"]}`),
    );
    const out = named(code, {}, entry);
    expect(out).toContain("class Holder {\n  #context;\n  constructor(context = {}) {\n    this.#context = context;");
    expect(out).toContain("return this.#context.agents;");
  });
});

describe("words", () => {
  it("singular, plural, placeholders, shortening", () => {
    expect([singular("tools"), singular("entries"), singular("matches"), singular("class")]).toEqual(["tool", "entry", "match", null]);
    expect([plural("tool"), plural("entry"), plural("tools")]).toEqual(["tools", "entries", "tools"]);
    expect([singular("aliases"), singular("toolAliases"), singular("alias"), plural("alias"), singular("cases")]).toEqual([
      "alias",
      "toolAlias",
      null,
      "aliases",
      "case",
    ]);
    expect(["v12", "helper_794f", "value_4d05", "ab", "i", "tool3", "tool"].map(isPlaceholderName)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(shorten("filteredLowerTrimmedQueryWords")).toBe("filteredWords");
  });
});
