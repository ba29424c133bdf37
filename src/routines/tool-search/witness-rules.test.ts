/**
 * The rule behind a witness, asked of two small modules written here: a description-word search, one of which
 * drops a fixed paragraph from descriptions before matching. The rule must name that paragraph, and nothing
 * must be said of a change that is not a paragraph's.
 */
import { describe, expect, it } from "vitest";
import { runCallsOnBoth } from "../../diff/witness-run.js";
import { answerOf, type Witness } from "../../diff/witness-search.js";
import { witnessRule } from "./witness-rules.js";

/** What the rule behind `w` says when its calls run on the two module scripts. */
async function saidOf(w: Witness, before: string, after: string): Promise<string | null> {
  const rule = witnessRule(w)!;
  const [a, b] = await runCallsOnBoth({ script: before, label: "a" }, { script: after, label: "b" }, rule.calls);
  return rule.say(a.map(answerOf), b.map(answerOf));
}

const PARAGRAPH = "When a parcel is late, write to the courier and wait a day.";

/** Scores 2 for each query word that is a whole word of the description; `drop` is removed from it first. */
function module(drop: string | null, all = false): string {
  const clean = all ? `""` : drop === null ? "d" : `d.split(${JSON.stringify(drop)}).join("")`;
  return `(function () {
  function scoreTools(query, deferred) {
    var terms = query.toLowerCase().split(/\\s+/).filter(Boolean);
    return deferred.map(function (t) {
      var d = t.description || ""; d = (${clean}).toLowerCase();
      var words = d.split(/[^a-z0-9_]+/);
      var s = 0; terms.forEach(function (w) { if (words.indexOf(w) >= 0) s += 2; });
      return { name: t.name, score: s };
    });
  }
  function searchTools(q, d) { return scoreTools(q, d).filter(function (x) { return x.score > 0; }).map(function (x) { return x.name; }); }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: searchTools };
})();`;
}

const tool = { name: "mcp__shop__track", description: `Track orders. ${PARAGRAPH}`, isMcp: true };
const witness: Witness = {
  fn: "scoreTools",
  query: "courier",
  deferred: [tool],
  loaded: [],
  before: [{ name: tool.name, score: 2 }],
  after: [{ name: tool.name, score: 0 }],
};

async function said(before: string, after: string): Promise<string | null> {
  const rule = witnessRule(witness)!;
  const [a, b] = await runCallsOnBoth({ script: before, label: "a" }, { script: after, label: "b" }, rule.calls);
  return rule.say(a.map(answerOf), b.map(answerOf));
}

describe("witnessRule", () => {
  it("names the paragraph a release drops from descriptions before matching, with the witness", async () => {
    expect(await said(module(null), module(PARAGRAPH))).toBe(
      'descriptions lose the passage \'When a parcel…\' before matching: scoreTools `"courier"` on mcp__shop__track (description "Track orders. When a pa…") scores 2 → 0',
    );
  }, 60_000);

  it("says nothing when the whole description stops counting, or for a witness whose query is not in it", async () => {
    expect(await said(module(null), module(null, true))).toBeNull();
    expect(witnessRule({ ...witness, query: "zebra" })).toBeNull();
    expect(witnessRule({ ...witness, fn: "searchTools", before: [tool.name], after: [] })).toBeNull();
  }, 60_000);
});

/** select: and descriptions through a lookup by name or alias: the first tool that answers, or (`own`) the tool
 *  of that very name before one holding the name as an alias. Scores 2 for a whole word of the description. */
function lookupModule(own: boolean): string {
  return `(function () {
  function find(tools, name) {
    var first = tools.filter(function (t) { return t.name === name || (t.aliases || []).indexOf(name) >= 0; })[0];
    ${own ? "var exact = tools.filter(function (t) { return t.name === name; })[0]; if (exact) return exact;" : ""}
    return first;
  }
  function scoreTools(query, deferred) {
    var terms = query.toLowerCase().split(/\\s+/).filter(Boolean);
    return deferred.map(function (t) {
      var d = ((find(deferred, t.name) || {}).description || "").toLowerCase().split(/[^a-z0-9_]+/);
      var s = 0; terms.forEach(function (w) { if (d.indexOf(w) >= 0) s += 2; });
      return { name: t.name, score: s };
    });
  }
  function searchTools(q, d) { return scoreTools(q, d).filter(function (x) { return x.score > 0; }).map(function (x) { return x.name; }); }
  function toolSearch(q, d) {
    var m = /^select:(.+)$/i.exec(q);
    if (!m) return searchTools(q, d);
    var t = find(d, m[1].trim());
    return t ? [t.name] : [];
  }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: toolSearch };
})();`;
}

describe("witnessRule, for a name that is one tool's and another's alias", () => {
  const holder = { name: "Shell", aliases: ["Run"] };
  const named = { name: "Run", description: "Zephyr widget" };
  const aliased: Witness = {
    fn: "toolSearch",
    query: "select:Run",
    deferred: [holder, named],
    loaded: [],
    before: ["Shell"],
    after: ["Run"],
  };

  it("says which of the two tools the name now finds, and where", async () => {
    expect(await saidOf(aliased, lookupModule(false), lookupModule(true))).toBe(
      "a name that is one tool's and another's alias now finds the tool of that name (Run, not Shell) in `select:` and for the description scored: " +
        'toolSearch `"select:Run"` (deferred: Run, Shell (alias Run)) returns Run (was: Shell)',
    );
    expect(await saidOf({ ...aliased, before: ["Run"], after: ["Shell"] }, lookupModule(true), lookupModule(false))).toMatch(
      /^a name that is one tool's and another's alias now finds the tool holding it as an alias \(Shell, not Run\) in `select:` and for the description scored: /,
    );
  }, 60_000);

  it("says nothing where the two modules find the same tool, or where no alias is another tool's name", async () => {
    expect(await saidOf(aliased, lookupModule(false), lookupModule(false))).toBeNull();
    expect(witnessRule({ ...aliased, deferred: [{ ...holder, aliases: ["Exec"] }, named] })).toBeNull();
  }, 60_000);
});

/** Name parts from mcpInfo when it is there; `weak` keys a cache by it, which throws for anything not an object
 *  (as a WeakMap does), and `thrower` throws on every malformed tool, whatever the field holds. */
function infoModule(mode: "plain" | "weak" | "thrower"): string {
  return `(function () {
  var cache = new WeakMap();
  function parts(t) {
    ${mode === "thrower" ? "if (t.name.indexOf('probe') >= 0) throw new TypeError('bad tool');" : ""}
    if (t.mcpInfo === undefined) return t.name.toLowerCase().split(/_+/);
    ${mode === "weak" ? "if (!cache.has(t.mcpInfo)) cache.set(t.mcpInfo, String(t.mcpInfo.toolName || '').toLowerCase().split(/_+/));\n    return cache.get(t.mcpInfo);" : ""}
    return String((t.mcpInfo && t.mcpInfo.toolName) || "").toLowerCase().split(/_+/);
  }
  function scoreTools(query, deferred) {
    var terms = query.toLowerCase().split(/\\s+/).filter(Boolean);
    return deferred.map(function (t) {
      var p = parts(t), s = 0;
      terms.forEach(function (w) { if (p.indexOf(w) >= 0) s += 2; });
      return { name: t.name, score: s };
    });
  }
  function searchTools(q, d) { return scoreTools(q, d).filter(function (x) { return x.score > 0; }).map(function (x) { return x.name; }); }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: searchTools };
})();`;
}

describe("witnessRule, for a throw on one side over a tool whose mcpInfo is malformed", () => {
  const odd = {
    name: "mcp__probe__tool_x",
    description: "Does a thing",
    isMcp: true,
    mcpInfo: "probe",
  } as unknown as Witness["deferred"][number];
  const thrown: Witness = {
    fn: "searchTools",
    query: "thing",
    deferred: [odd],
    loaded: [],
    before: [],
    after: { error: "TypeError: Invalid value used as weak map key" },
  };

  it("says that a field that is not an object now makes the function throw, of each kind that does", async () => {
    expect(await saidOf(thrown, infoModule("plain"), infoModule("weak"))).toMatch(
      /^a tool whose mcpInfo is not an object \(a text, a flag or a number\) now makes searchTools throw: searchTools `"thing"`/,
    );
  }, 60_000);

  it("says nothing when the tool throws without the field too, or when neither side throws", async () => {
    expect(await saidOf(thrown, infoModule("plain"), infoModule("thrower"))).toBeNull();
    expect(witnessRule({ ...thrown, after: [] })).toBeNull();
  }, 60_000);
});

/** An exact-name search; `along`: a result holding a tool named `kit__dev_…` brings every deferred tool so named. */
function companionModule(along: boolean): string {
  return `(function () {
  function searchTools(q, d) {
    var found = d.filter(function (t) { return t.name === q; }).map(function (t) { return t.name; });
    ${along ? "if (found.some(function (n) { return n.indexOf('kit__dev_') === 0; })) d.forEach(function (t) { if (t.name.indexOf('kit__dev_') === 0 && found.indexOf(t.name) < 0) found.push(t.name); });" : ""}
    return found;
  }
  function scoreTools(q, d) { return d.map(function (t) { return { name: t.name, score: t.name === q ? 1 : 0 }; }); }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: searchTools };
})();`;
}

describe("witnessRule, for a result that now brings other tools along", () => {
  const brought: Witness = {
    fn: "toolSearch",
    query: "kit__dev_probe",
    deferred: [
      { name: "kit__dev_probe_type", description: "" },
      { name: "kit__dev_probe", description: "" },
    ],
    loaded: [],
    before: ["kit__dev_probe"],
    after: ["kit__dev_probe", "kit__dev_probe_type"],
  };

  it("names the shortest prefix whose tools come along, whatever the rest of their names", async () => {
    expect(await saidOf(brought, companionModule(false), companionModule(true))).toMatch(
      /^a result now also brings every deferred tool named `kit__dev_…`: toolSearch `"kit__dev_probe"`/,
    );
  }, 60_000);

  it("says nothing where both sides bring the same tools, or where nothing was added", async () => {
    expect(await saidOf(brought, companionModule(true), companionModule(true))).toBeNull();
    expect(witnessRule({ ...brought, after: ["kit__dev_probe"], before: ["kit__dev_probe", "kit__dev_probe_type"] })).toBeNull();
  }, 60_000);
});

/** An exact-name search; `shell`: a query with the word `sh` also brings the deferred tool `remote__sh`. */
function shellModule(shell: boolean): string {
  return `(function () {
  function searchTools(q, d) {
    var found = d.filter(function (t) { return t.name === q; }).map(function (t) { return t.name; });
    ${shell ? "if (q.split(/\\\\s+/).indexOf('sh') >= 0 && d.some(function (t) { return t.name === 'remote__sh'; }) && found.indexOf('remote__sh') < 0) found.push('remote__sh');" : ""}
    return found;
  }
  function scoreTools(q, d) { return d.map(function (t) { return { name: t.name, score: t.name === q ? 1 : 0 }; }); }
  globalThis.__searchlift = { searchTools: searchTools, scoreTools: scoreTools, toolSearch: searchTools };
})();`;
}

describe("witnessRule, for a result that a word of the query now adds a tool to", () => {
  const asked: Witness = {
    fn: "toolSearch",
    query: "sh",
    deferred: [
      { name: "remote__sh", description: "" },
      { name: "sh", description: "" },
    ],
    loaded: [],
    before: ["sh"],
    after: ["sh", "remote__sh"],
  };

  it("names the word: without it (the exact-name tool renamed alike) the tool no longer comes", async () => {
    expect(await saidOf(asked, shellModule(false), shellModule(true))).toMatch(
      /^a query with the word `sh` now also returns remote__sh: toolSearch `"sh"`/,
    );
  }, 60_000);

  it("says nothing where the tool comes whatever the query, or on both sides", async () => {
    expect(await saidOf(asked, shellModule(true), shellModule(true))).toBeNull();
    expect(await saidOf({ ...asked, query: "sh other" }, shellModule(false), companionModule(false))).toBeNull();
    // A tool found in place of another (the same-case name preferred), not beside it: no word brings it.
    const preferred: Witness = {
      fn: "toolSearch",
      query: "Probe",
      deferred: [
        { name: "Probe", description: "" },
        { name: "probe", description: "" },
      ],
      loaded: [],
      before: ["probe"],
      after: ["Probe"],
    };
    expect(witnessRule(preferred)).toBeNull();
  }, 60_000);
});
