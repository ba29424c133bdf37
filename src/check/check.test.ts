import { describe, expect, it } from "vitest";
import { termText } from "./explain.js";
import { clientTool, clientToolName, markLoaded } from "./naming.js";
import { queryTerms } from "./reasons.js";
import { defaultQueries, givenQueries, nameWords } from "./queries.js";
import { splitCommand } from "./server-tools.js";

describe("naming as the client does", () => {
  it("replaces every character outside [A-Za-z0-9_-] in both parts", () => {
    expect(clientToolName("my server.v2", "get/item ü")).toBe("mcp__my_server_v2__get_item__");
    expect(clientToolName("a-b_C9", "x-Y_1")).toBe("mcp__a-b_C9__x-Y_1");
  });

  it("reads the hint and alwaysLoad from _meta and keeps the raw names in mcpInfo", () => {
    const t = clientTool("s.1", {
      name: "do.it",
      description: "Does it",
      _meta: { "anthropic/searchHint": "act", "anthropic/alwaysLoad": true },
    });
    expect(t).toEqual({
      name: "mcp__s_1__do_it",
      description: "Does it",
      searchHint: "act",
      isMcp: true,
      mcpInfo: { serverName: "s.1", toolName: "do.it" },
      alwaysLoad: true,
    });
    expect(clientTool("s", { name: "x", _meta: { "anthropic/alwaysLoad": "yes" } }).alwaysLoad).toBe(false);
  });
});

describe("queries", () => {
  it("are made from a deferred tool's name words, first description words, hint and both selects", () => {
    const t = clientTool("srv", {
      name: "listOpenPRs",
      description: "List the open pull requests, newest first.",
      _meta: { "anthropic/searchHint": "review" },
    });
    expect(nameWords("listOpenPRs")).toEqual(["list", "open", "prs"]);
    expect(nameWords("get_item-v2.x")).toEqual(["get", "item", "v2", "x"]);
    expect(defaultQueries([t]).map((q) => q.text)).toEqual([
      "list open prs",
      "list the open pull requests",
      "review",
      "select:mcp__srv__listOpenPRs",
      "select:listOpenPRs",
    ]);
  });

  it("ask a text shared by two tools once, for both; none for always-loaded tools", () => {
    const a = clientTool("s", { name: "alpha", description: "Same words here" });
    const b = clientTool("s", { name: "beta", description: "Same words here" });
    const c = clientTool("s", { name: "gamma", description: "Loaded", _meta: { "anthropic/alwaysLoad": true } });
    const qs = defaultQueries([a, b, c]);
    expect(qs.find((q) => q.text === "same words here")?.owners).toEqual([a.name, b.name]);
    expect(qs.some((q) => q.owners.includes(c.name))).toBe(false);
    expect(givenQueries([" x ", "", "x"], [a, c])).toEqual([{ text: "x", owners: [a.name] }]);
  });
});

describe("--server command line", () => {
  it("splits words, quotes and backslashes as a shell would", () => {
    expect(splitCommand(`node "dist/my server.js" --name 'a b' c\\ d`)).toEqual(["node", "dist/my server.js", "--name", "a b", "c d"]);
    expect(splitCommand(`node -e ""`)).toEqual(["node", "-e", ""]);
    expect(() => splitCommand(`node "open`)).toThrow(/unclosed/);
    expect(() => splitCommand("   ")).toThrow(/no command/);
  });
});

describe("--loaded, query words, explain lines", () => {
  it("marks our and competitors' tools loaded by client name and adds the others as loaded", () => {
    const ours = clientTool("s", { name: "a" });
    const rival = clientTool("r", { name: "b" });
    const { tools, competitors } = markLoaded([ours], [rival], [clientTool("s", { name: "a" }), clientTool("x", { name: "c" })]);
    expect(tools.map((t) => t.alwaysLoad)).toEqual([true]);
    expect(competitors.map((t) => [t.name, t.alwaysLoad])).toEqual([
      ["mcp__r__b", false],
      ["mcp__x__c", true],
    ]);
  });

  it("splits a query at whitespace, lower-cased, once per word, a leading + dropped", () => {
    expect(queryTerms("  +Slack send  SEND + ")).toEqual(["slack", "send", "+"]);
  });

  it("shows the parts as a sum when they add up, else as measured", () => {
    expect(termText({ term: "x", score: 8, nameOnly: 6, hint: 0, description: 2 })).toBe('"x" 8 = name 6 + description 2');
    expect(termText({ term: "x", score: 3, nameOnly: 0, hint: 0, description: 0 })).toBe(
      '"x" 3 (name alone 0; the hint adds 0; the description adds 0)',
    );
  });
});
