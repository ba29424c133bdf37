/**
 * A live MCP server's tools: started over stdio with the official MCP client (@modelcontextprotocol/sdk),
 * initialised, asked for its tools (every page), then closed, which ends the process. Whatever goes wrong —
 * it does not start, exits, does not answer within the time limit, lists no tools — is serverFailed, with the
 * last line the server wrote on stderr when there is one.
 */
import { ExitCode, SearchliftError } from "../errors.js";
import { messageLine } from "../safe-text.js";
import { listedTool } from "./tools-file.js";
import type { ListedTool } from "./naming.js";

export interface ServerTools {
  tools: ListedTool[];
  /** The name the server gives itself in its initialize answer. */
  serverName?: string;
}

export const DEFAULT_SERVER_TIMEOUT_MS = 30_000;
/** Pages of tools/list followed at most (a server whose cursor never ends must not hold the run). */
const MAX_PAGES = 100;

/** `<command> [args…]` split as a shell would split plain words, single and double quotes and backslashes. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i]!;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) word = (word ?? "") + line[++i]!;
    else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? "") + c;
  }
  if (quote) throw new SearchliftError(`--server: unclosed ${quote} quote`, ExitCode.usage);
  if (word !== null) words.push(word);
  if (!words.length) throw new SearchliftError("--server: no command given", ExitCode.usage);
  return words;
}

export async function listServerTools(commandLine: string, timeoutMs = DEFAULT_SERVER_TIMEOUT_MS): Promise<ServerTools> {
  const [command, ...args] = splitCommand(commandLine);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string"));
  const transport = new StdioClientTransport({ command: command!, args, env, stderr: "pipe" });
  let lastStderr = "";
  transport.stderr?.on("data", (d: Buffer) => {
    const lines = (lastStderr + d.toString("utf8")).split(/\r?\n/).filter((l) => l.trim());
    lastStderr = lines.at(-1)?.slice(-300) ?? lastStderr;
  });
  const client = new Client({ name: "searchlift-check", version: "1" });
  const failed = (why: string) => new SearchliftError(`the MCP server ${why}${lastStderr ? ` (its stderr: ${messageLine(lastStderr)})` : ""}`, ExitCode.serverFailed, commandLine);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failed(`did not list its tools within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([listAll(client, transport, failed), timeout]);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

type Failed = (why: string) => SearchliftError;

async function listAll(client: import("@modelcontextprotocol/sdk/client/index.js").Client, transport: import("@modelcontextprotocol/sdk/shared/transport.js").Transport, failed: Failed): Promise<ServerTools> {
  try {
    await client.connect(transport);
  } catch (e) {
    throw failed(`did not start: ${(e as Error).message}`);
  }
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let r;
    try {
      r = await client.listTools(cursor ? { cursor } : {});
    } catch (e) {
      throw failed(`failed to list its tools: ${(e as Error).message}`);
    }
    for (const t of r.tools) tools.push(listedTool(t, () => failed(`listed a tool without a name`)));
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  if (!tools.length) throw failed("lists no tools");
  const serverName = client.getServerVersion()?.name;
  return { tools, ...(serverName ? { serverName } : {}) };
}
