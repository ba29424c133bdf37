/**
 * The behaviour view's corpus: a realistic catalog of deferred tools — MCP servers an agent is
 * commonly connected to, with plausible tool names and one-line descriptions written for
 * searchlift (catalog-entries.ts) — plus built-ins, and the queries an agent sends to the tool search.
 * Nothing here comes from a release.
 */
import { BUILT_INS, SERVERS } from "./catalog-entries.js";

export interface CatalogTool {
  name: string;
  description: string;
  searchHint?: string;
  isMcp?: boolean;
  mcpInfo?: { serverName: string; toolName?: string };
}

/** The built-in catalog: every MCP tool above (with mcpInfo, as the client knows it) and the built-ins. */
export function defaultCatalog(): CatalogTool[] {
  const tools: CatalogTool[] = [];
  for (const [server, entries] of Object.entries(SERVERS)) {
    for (const [tool, description, searchHint] of entries) {
      const t: CatalogTool = { name: `mcp__${server}__${tool}`, description, isMcp: true, mcpInfo: { serverName: server, toolName: tool } };
      if (searchHint !== undefined) t.searchHint = searchHint;
      tools.push(t);
    }
  }
  for (const [name, description, searchHint] of BUILT_INS) {
    const t: CatalogTool = { name, description, isMcp: false };
    if (searchHint !== undefined) t.searchHint = searchHint;
    tools.push(t);
  }
  return tools;
}

/** Queries as an agent writes them: keywords, names, `select:` (single and lists), `+required`, `mcp__` prefixes. */
export const DEFAULT_QUERIES: readonly string[] = [
  // keywords
  "create github issue",
  "github pull request",
  "open pr",
  "merge pull request",
  "review pull request diff",
  "search code",
  "create branch",
  "list commits",
  "workflow runs ci",
  "slack send message",
  "send message",
  "post to slack channel",
  "slack thread reply",
  "search slack messages",
  "slack upload file",
  "jira ticket",
  "create jira issue",
  "transition jira issue",
  "jira sprint",
  "linear issue",
  "create ticket",
  "bug report",
  "assign issue",
  "add comment",
  "postgres query",
  "sql query",
  "run sql",
  "list tables",
  "describe table schema",
  "database migration",
  "explain query plan",
  "mongodb aggregate",
  "redis get key",
  "read file",
  "write file",
  "edit file",
  "list directory",
  "move file",
  "search files",
  "file info",
  "browser navigate",
  "take screenshot",
  "click element",
  "open web page",
  "fill form input",
  "javascript console",
  "s3 bucket",
  "upload to s3",
  "ec2 instances",
  "invoke lambda",
  "cloudwatch logs",
  "aws costs",
  "get logs",
  "pod logs",
  "kubernetes pods",
  "scale deployment",
  "docker containers",
  "deploy",
  "dns records",
  "google drive search",
  "drive file",
  "spreadsheet",
  "send email",
  "gmail search",
  "calendar event",
  "schedule meeting",
  "notion page",
  "notion database query",
  "wiki",
  "sentry errors",
  "stack trace",
  "resolve issue",
  "datadog metrics",
  "monitoring",
  "on call",
  "incident",
  "stripe invoice",
  "refund payment",
  "crm contact",
  "support ticket",
  "figma design",
  "design tokens",
  "airtable records",
  "send sms",
  "knowledge graph",
  "web search",
  "fetch url",
  "git status",
  "library docs",
  "jupyter notebook",
  "notebook",
  "plan mode",
  "todo list",
  "background shell output",
  "ask user question",
  "mcp resources",
  "language server definitions",
  "issue",
  "list",
  // +required terms
  "+postgres query",
  "+slack message",
  "+github issue",
  "+jira +issue create",
  "+browser screenshot",
  "+aws logs",
  // exact names and prefixes
  "mcp__github__create_issue",
  "MCP__SLACK__POST_MESSAGE",
  "NotebookEdit",
  "webfetch",
  "mcp__slack",
  "mcp__github__list",
  "mcp__postgres__",
  "mcp__playwright__browser",
  "mcp__nonexistent",
  // select:
  "select:mcp__github__create_issue",
  "select:NotebookEdit",
  "select:mcp__slack__post_message,mcp__slack__list_channels",
  "select:WebFetch,WebSearch",
  "SELECT:mcp__jira__create_issue",
  "select:mcp__unknown__tool",
];
