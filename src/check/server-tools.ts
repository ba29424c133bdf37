/**
 * A live MCP server's tools, through the official MCP client (@modelcontextprotocol/sdk): a command started
 * over stdio, or a URL reached over streamable HTTP; initialised, asked for its tools (every page), then
 * closed, which ends a started process. Whatever goes wrong — it does not start or cannot be reached, exits,
 * does not answer within the time limit, lists no tools — is serverFailed, with the last line a started server
 * wrote on stderr when there is one, and the last lines it wrote (`stderrTail`) for the command line to show.
 */
import { ExitCode, SearchliftError } from "../errors.js";
import { messageLine, terminalSafe } from "../safe-text.js";
import { listedTool } from "./tools-file.js";
import type { ListedTool } from "./naming.js";

export interface ServerTools {
  tools: ListedTool[];
  /** The name the server gives itself in its initialize answer. */
  serverName?: string;
}

export const DEFAULT_SERVER_TIMEOUT_MS = 30_000;
/** Lines of a started server's stderr kept for its failure (enough for a stack trace's head), each cut to this many characters. */
export const STDERR_TAIL_LINES = 20;
const STDERR_LINE_CHARS = 300;

/** A server that failed the check, with the last lines (terminal-safe, at most STDERR_TAIL_LINES) it wrote on stderr. */
export class ServerFailed extends SearchliftError {
  constructor(
    message: string,
    file: string,
    readonly stderrTail: string[] = [],
  ) {
    super(message, ExitCode.serverFailed, file);
  }
}

/** The one message for a catalog with no tools, from a server or a tools file alike. */
export const NO_TOOLS = "lists no tools: there is nothing to check";

/** Keeps the last lines of a stream written in chunks: complete lines, and the one still being written. */
export class LineTail {
  private lines: string[] = [];
  private partial = "";
  constructor(private readonly max = STDERR_TAIL_LINES) {}
  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop()!.slice(-STDERR_LINE_CHARS * 4);
    for (const p of parts) if (p.trim()) this.lines.push(p.slice(0, STDERR_LINE_CHARS));
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  /** The last lines, the unfinished one included, made terminal-safe. */
  tail(): string[] {
    const all = this.partial.trim() ? [...this.lines, this.partial.slice(0, STDERR_LINE_CHARS)] : this.lines;
    return all.slice(-this.max).map((l) => terminalSafe(l));
  }
}
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

/** Where the server is: a command line to start over stdio, or the URL of a streamable-HTTP endpoint. */
export type ServerSource = { command: string } | { url: string };

export async function listServerTools(source: ServerSource, timeoutMs = DEFAULT_SERVER_TIMEOUT_MS): Promise<ServerTools> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const stderr = new LineTail();
  const { transport, label } = "url" in source ? await httpTransport(source.url) : await stdioTransport(source.command, stderr);
  const client = new Client({ name: "searchlift-check", version: "1" });
  const failed = (why: string) => {
    const tail = stderr.tail();
    const last = tail.at(-1);
    return new ServerFailed(`${why}${last ? ` (its stderr: ${messageLine(last)})` : ""}`, label, tail);
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failed(`the MCP server did not list its tools within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([listAll(client, transport, failed), timeout]);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

type Transport = import("@modelcontextprotocol/sdk/shared/transport.js").Transport;

async function stdioTransport(commandLine: string, stderr: LineTail): Promise<{ transport: Transport; label: string }> {
  const [command, ...args] = splitCommand(commandLine);
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string"));
  const transport = new StdioClientTransport({ command: command!, args, env, stderr: "pipe" });
  transport.stderr?.on("data", (d: Buffer) => stderr.push(d.toString("utf8")));
  return { transport, label: commandLine };
}

async function httpTransport(url: string): Promise<{ transport: Transport; label: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SearchliftError("--url: not a URL", ExitCode.usage, url);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new SearchliftError("--url: not an http or https URL", ExitCode.usage, url);
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  // No reconnection: a server that drops the stream has failed the check, it is not retried for minutes.
  const transport = new StreamableHTTPClientTransport(parsed, {
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 0, maxReconnectionDelay: 0, reconnectionDelayGrowFactor: 1 },
  });
  return { transport, label: url };
}

type Failed = (why: string) => SearchliftError;

async function listAll(
  client: import("@modelcontextprotocol/sdk/client/index.js").Client,
  transport: Transport,
  failed: Failed,
): Promise<ServerTools> {
  try {
    await client.connect(transport);
  } catch (e) {
    throw failed(`the MCP server did not start or could not be reached: ${connectError(e)}`);
  }
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let r;
    try {
      r = await client.listTools(cursor ? { cursor } : {});
    } catch (e) {
      throw failed(`the MCP server failed to list its tools: ${(e as Error).message}`);
    }
    for (const t of r.tools) tools.push(listedTool(t, () => failed(`the MCP server listed a tool without a name`)));
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  if (!tools.length) throw failed(NO_TOOLS);
  const serverName = client.getServerVersion()?.name;
  return { tools, ...(serverName ? { serverName } : {}) };
}

/** A connection failure in one line: fetch hides the reason (ECONNREFUSED, ENOTFOUND) in its cause. */
function connectError(e: unknown): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  const cause = err.cause?.code ?? err.cause?.message;
  return messageLine(cause && !err.message.includes(cause) ? `${err.message} (${cause})` : err.message);
}
