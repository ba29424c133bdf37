// Types of a lifted tool-search module (searchlift scorer-module contract).
export interface Tool {
  name: string;
  description?: string;
  searchHint?: string;
  isMcp?: boolean;
  mcpInfo?: { serverName: string; toolName?: string };
  aliases?: string[];
  /** Fields the contract does not name, passed to a release that reads them (provenance.toolFields) as given. */
  [field: string]: unknown;
}

export interface SearchOptions {
  loaded?: Tool[];
  maxResults?: number;
}

export function searchTools(query: string, deferred: Tool[], options?: SearchOptions): Promise<string[]>;
export function scoreTools(query: string, deferred: Tool[], options?: SearchOptions): Promise<Array<{ name: string; score: number }>>;
export function toolSearch(query: string, deferred: Tool[], options?: SearchOptions): Promise<string[]>;

export const defaults: { maxResults: number };

export const provenance: {
  client: string;
  version: string;
  platform: string;
  routine: "tool-search";
  signature: string;
  input: { file: string; sha256: string };
  modules: Array<{ name: string; start: number; end: number; sha256: string }>;
  generator: string;
  /** Tool fields this release reads that the contract does not name, passed through as given (absent when none). */
  toolFields?: string[];
  verified: { cases: number; agreed: number } | string;
};
