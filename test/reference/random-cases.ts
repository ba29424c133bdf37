/**
 * Seeded random contract calls for the reference acceptance test: catalogs of MCP tools (with and without
 * mcpInfo, servers with dots, spaces and `claude.ai ` prefixes), built-in tools (aliases, searchHints,
 * missing descriptions), loaded tools, duplicate names, and the occasional malformed tool a release throws
 * on; queries of every shape a release treats specially (keywords in any case, `+required`, exact names,
 * `mcp__` prefixes, `select:` single and lists, long, over the caps, unicode, empty).
 *
 * The vocabulary is ours; it names the tools generations 10–11 treat specially (REPL and Eval, the
 * remote-devices server's device tools, the words bash and shell) so that those rules are reached.
 */
import { Rng } from "../helpers/random.js";
import type { Tool } from "./tool-search-reference.js";

export interface Call {
  fn: "toolSearch" | "searchTools" | "scoreTools";
  query: string;
  deferred: Tool[];
  loaded: Tool[];
  maxResults?: number;
}

const SERVERS = [
  "remote-devices",
  "github",
  "slack",
  "linear",
  "google_drive",
  "notion",
  "my.server",
  "Acme Tools",
  "claude.ai Gmail",
  "db-prod",
  "jira",
];
const ACTIONS = [
  "create_issue",
  "send_message",
  "search",
  "list_files",
  "get.user",
  "SearchDocs",
  "update_page",
  "run_query",
  "delete",
  "read_file",
  "issue",
  "create",
  "device_bash",
  "device_screen",
  "device_x__y",
];
const BUILTINS = [
  "NotebookEdit",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "KillShell",
  "ListMcpResources",
  "ReadMcpResource",
  "TaskOutput",
  "EnterPlanMode",
  "Agent",
  "ask_user",
  "LSP",
  "REPL",
  "Eval",
];
const WORDS = [
  "issue",
  "issues",
  "create",
  "message",
  "channel",
  "notebook",
  "jupyter",
  "file",
  "files",
  "search",
  "web",
  "page",
  "query",
  "database",
  "user",
  "slack",
  "github",
  "read",
  "write",
  "task",
  "plan",
  "bash",
  "shell",
  "eval",
  "café",
  "naïve",
  "İstanbul",
  "日本語",
  "🚀",
  "c++",
  "node.js",
  "e-mail",
  "re:",
  "(beta)",
  "*",
  "a",
  "the",
];

/** A word in another case now and then: queries and names are matched case-insensitively, mostly. */
function recase(r: Rng, s: string): string {
  const k = r.int(6);
  if (k === 0) return s.toUpperCase();
  if (k === 1) return s.charAt(0).toUpperCase() + s.slice(1);
  return s;
}

function sentence(r: Rng, extra: string[]): string {
  const n = 1 + r.int(8);
  return Array.from({ length: n }, () => recase(r, r.chance(0.3) && extra.length ? r.pick(extra) : r.pick(WORDS))).join(
    r.chance(0.8) ? " " : ", ",
  );
}

function mcpTool(r: Rng): Tool {
  const server = r.pick(SERVERS);
  const action = r.pick(ACTIONS);
  // The client names MCP tools after a server name with anything outside [A-Za-z0-9_-] turned into `_`.
  const t: Tool = { name: `mcp__${server.replace(/[^A-Za-z0-9_-]/g, "_")}__${action}` };
  if (r.chance(0.5)) t.mcpInfo = { serverName: server, toolName: action };
  if (r.chance(0.8)) t.description = sentence(r, [action, server]);
  if (r.chance(0.3)) t.searchHint = sentence(r, []);
  // A word about a searchHint cap (2048 characters in 2.1.295, 4096 later).
  if (r.chance(0.08)) t.searchHint = `${"pad ".repeat(r.pick([510, 1022]) + r.int(3))}${r.pick(WORDS)}`;
  if (r.chance(0.1)) t.isMcp = r.chance(0.5);
  return t;
}

function builtinTool(r: Rng): Tool {
  const t: Tool = { name: r.pick(BUILTINS) };
  if (r.chance(0.8)) t.description = sentence(r, [t.name]);
  if (r.chance(0.3)) t.searchHint = sentence(r, []);
  if (r.chance(0.3)) t.aliases = [recase(r, r.pick(BUILTINS)), r.pick(WORDS)];
  if (t.name === "REPL" && r.chance(0.7)) t.aliases = ["Eval"];
  if (r.chance(0.3)) t.isMcp = false;
  return t;
}

/** One tool in a few that a release cannot read: no name, or an mcpInfo missing a half. */
function malformed(r: Rng, t: Tool): Tool {
  const k = r.int(3);
  if (k === 0) {
    // Without isMcp too: the contract's default for it reads the name, so every release throws alike.
    const { name: _name, isMcp: _isMcp, ...rest } = t;
    return rest as Tool;
  }
  const server = t.mcpInfo?.serverName ?? "github";
  const tool = t.mcpInfo?.toolName ?? "create_issue";
  return { ...t, mcpInfo: k === 1 ? { serverName: server } : { toolName: tool } };
}

/** Tools that generations 10–11 treat specially, in some catalogs: device tools, REPL with its alias Eval, Eval. */
function specialTools(r: Rng): Tool[] {
  const out: Tool[] = [];
  if (r.chance(0.35)) {
    for (const action of ["device_bash", "device_screen", "device_x__y"]) {
      if (action === "device_bash" || r.chance(0.6))
        out.push({
          name: `mcp__remote-devices__${action}`,
          description: sentence(r, ["device", "shell"]),
          ...(r.chance(0.5) ? { mcpInfo: { serverName: "remote-devices", toolName: action } } : {}),
        });
    }
  }
  const repl = r.chance(0.2);
  if (repl) out.push({ name: "REPL", description: sentence(r, ["repl"]), aliases: ["Eval"] });
  if (r.chance(repl ? 0.7 : 0.1)) out.push({ name: "Eval", description: sentence(r, ["evaluate"]) });
  return out;
}

function catalog(r: Rng, n: number, malformedRate: number): Tool[] {
  const tools = Array.from({ length: n }, () => (r.chance(0.6) ? mcpTool(r) : builtinTool(r)));
  tools.splice(r.int(tools.length + 1), 0, ...specialTools(r));
  if (tools.length > 0 && r.chance(0.1)) tools.push({ ...r.pick(tools) }); // a duplicate name
  if (tools.length > 0 && r.chance(0.25)) {
    // A name that differs from another only in case (generation 11 prefers the exact one).
    const t = r.pick(tools);
    tools.push({ ...t, name: r.chance(0.5) ? t.name.toLowerCase() : t.name.toUpperCase() });
  }
  return tools.map((t) => (r.chance(malformedRate) ? malformed(r, t) : t));
}

function namesOf(tools: Tool[]): string[] {
  return tools.map((t) => t.name).filter((n): n is string => typeof n === "string");
}

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function keywordQuery(r: Rng, tools: Tool[]): string {
  // Mostly words the catalog holds (so that most searches find something), some from anywhere.
  const own = uniq(
    tools
      .flatMap((t) => [
        ...(t.name ?? "").split(/__|_/),
        t.mcpInfo?.serverName ?? "",
        t.mcpInfo?.toolName ?? "",
        ...(t.searchHint ?? "").split(" "),
        ...(t.description ?? "").split(" "),
      ])
      .filter(Boolean),
  );
  const n = 1 + r.int(4);
  const words = Array.from({ length: n }, () => {
    const w = recase(r, own.length > 0 && r.chance(0.7) ? r.pick(own) : r.pick(WORDS));
    return r.chance(0.15) ? `+${w}` : w;
  });
  if (r.chance(0.05)) words.push("+");
  // The word at the end of a long searchHint, which a cap may cut off.
  const tails = tools.filter((t) => (t.searchHint?.length ?? 0) > 1000).map((t) => t.searchHint!.split(" ").pop()!);
  if (tails.length > 0 && r.chance(0.5)) words.push(r.pick(tails));
  return (r.chance(0.2) ? "  " : "") + words.join(r.chance(0.9) ? " " : "\t");
}

function selectQuery(r: Rng, tools: Tool[]): string {
  // Names, aliases, bare MCP tool names (as given and as they appear in tool names), and names no tool has.
  const bare = ACTIONS.map((a) => a.replace(/[^A-Za-z0-9_-]/g, "_"));
  const candidates = [...namesOf(tools), ...tools.flatMap((t) => t.aliases ?? []), ...ACTIONS, ...bare, "Eval", "Unknown", "mcp__nope__x"];
  const n = r.chance(0.4) ? 1 : 1 + r.int(5);
  const names = Array.from({ length: n }, () => r.pick(candidates));
  if (r.chance(0.05)) names.push(...Array.from({ length: 70 }, () => r.pick(candidates))); // over the 64-name cap
  return `${r.pick(["select:", "SELECT:", "Select:"])}${names.join(r.pick([",", ", ", " ,"]))}${r.chance(0.1) ? "," : ""}`;
}

function longQuery(r: Rng, tools: Tool[]): string {
  if (r.chance(0.5)) return Array.from({ length: 30 + r.int(10) }, () => keywordQuery(r, tools)).join(" "); // about the 32-word cap
  // About the 16384-character cap, with a surrogate pair astride it now and then.
  const head = `${keywordQuery(r, tools)} `;
  const filler = "x".repeat(Math.max(0, 16383 - head.length - r.int(3)));
  return `${head}${filler}🚀 ${keywordQuery(r, tools)}`;
}

function query(r: Rng, tools: Tool[]): string {
  const names = namesOf(tools);
  const k = r.int(20);
  if (k < 6) return keywordQuery(r, tools);
  // A required word that keeps the device tools out, and a shell word that may pull them back in.
  if (k < 8) return `+${keywordQuery(r, tools).trim().split(/\s+/)[0]!.replace(/^\+/, "")} ${recase(r, r.pick(["bash", "shell"]))}`;
  if (k < 10 && names.length) {
    // Often, as is, a name that an earlier name equals but for case (generation 11 tells them apart).
    const twins = names.filter((n, i) => names.slice(0, i).some((m) => m !== n && m.toLowerCase() === n.toLowerCase()));
    const name = twins.length > 0 && r.chance(0.6) ? r.pick(twins) : recase(r, r.pick(names));
    return (r.chance(0.3) ? " " : "") + name + (r.chance(0.3) ? " " : "");
  }
  if (k < 12 && names.length) {
    const mcp = names.filter((n) => n.startsWith("mcp__"));
    const base = mcp.length ? r.pick(mcp) : "mcp__github__create_issue";
    return recase(r, base.slice(0, 5 + r.int(base.length - 4)));
  }
  if (k < 16) return selectQuery(r, tools);
  if (k < 18) return longQuery(r, tools);
  return r.pick(["", "   ", "mcp__", "select:", "+", "日本語 🚀", "ISSUE", "\u00e9t\u00e9"]);
}

/** `count` calls from `seed`; `malformedRate` is the chance that a tool is one a release cannot read. */
export function randomCalls(seed: number, count: number, malformedRate = 0.03): Call[] {
  const r = new Rng(seed);
  return Array.from({ length: count }, (): Call => {
    const deferred = catalog(r, r.int(10), malformedRate);
    const loaded = r.chance(0.5) ? catalog(r, 1 + r.int(3), malformedRate) : [];
    const fn = r.pick(["toolSearch", "toolSearch", "searchTools", "scoreTools"] as const);
    const call: Call = { fn, query: query(r, [...deferred, ...loaded]), deferred, loaded };
    if (r.chance(0.25)) call.maxResults = r.int(8);
    return call;
  });
}
