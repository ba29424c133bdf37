/**
 * Whether the npm registry can be reached at all, known in seconds. npm itself retries a registry it cannot
 * resolve or connect to for about 70 s (fetch-retries 2, waiting 10 s and then up to 60 s) and waits minutes on an
 * address that never answers, so a run that only needs to ask which version `latest` is would sit that long
 * offline. A TCP connection is tried to the host npm would connect to — the registry's, or the proxy's when npm
 * goes through one — at most twice, each given CONNECT_MS. Only the connection is tried: whether the registry
 * then answers is npm's to find out, with the user's own configuration.
 */
import net from "node:net";
import { ExitCode, SearchliftError } from "../errors.js";
import { runNpm } from "./npm-client.js";

/** The client's scope: npm asks its own registry for it, when one is configured. */
const SCOPE_REGISTRY = "@anthropic-ai:registry";

export const CONNECT_MS = 2500;
const RETRY_AFTER_MS = 500;

export interface RegistryEndpoint {
  /** The registry's URL, as npm's configuration names it. */
  registry: string;
  host: string;
  port: number;
  /** Whether host is the proxy npm goes through rather than the registry. */
  proxy: boolean;
}

/**
 * Where npm connects to ask the registry: its registry, or the proxy it goes through. Null when that cannot be told
 * (npm does not say, or a proxy with exceptions, whose matching is npm's).
 */
export async function registryEndpoint(): Promise<RegistryEndpoint | null> {
  let config: Map<string, string>;
  try {
    const out = await runNpm(["config", "get", SCOPE_REGISTRY, "registry", "https-proxy", "proxy", "noproxy"]);
    config = new Map(
      out
        .split("\n")
        .map((l) => /^([@\w:-]+)=(.*)$/.exec(l.trim()))
        .filter((m) => m !== null)
        .map((m) => [m[1]!, m[2]!.trim()]),
    );
  } catch {
    return null;
  }
  const set = (v: string | undefined) => (v && v !== "null" && v !== "undefined" ? v : undefined);
  const registry = set(config.get(SCOPE_REGISTRY)) ?? set(config.get("registry"));
  if (!registry) return null;
  let url: URL;
  try {
    url = new URL(registry);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  // npm's agent reads these variables in any case (https_proxy, HTTP_PROXY, …) when its config sets no proxy.
  const env = (name: string) => set(Object.entries(process.env).find(([k]) => k.toLowerCase() === name)?.[1]);
  const https = url.protocol === "https:";
  const proxy = https
    ? (set(config.get("https-proxy")) ?? set(config.get("proxy")) ?? env("https_proxy") ?? env("proxy"))
    : (set(config.get("proxy")) ?? env("http_proxy") ?? env("proxy"));
  if (proxy && (set(config.get("noproxy")) ?? env("no_proxy"))) return null;
  let target = url;
  if (proxy) {
    try {
      target = new URL(proxy);
    } catch {
      return null;
    }
  }
  const port = Number(target.port) || (target.protocol === "https:" ? 443 : target.protocol === "http:" ? 80 : NaN);
  if (!target.hostname || !Number.isInteger(port)) return null;
  return { registry, host: target.hostname.replace(/^\[|\]$/g, ""), port, proxy: Boolean(proxy) };
}

/** One TCP connection to host:port, closed once made; rejects with why it was not made within `ms`. */
function connectOnce(host: string, port: number, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const done = (e?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (e) reject(e);
      else resolve();
    };
    // Neither keeps a process alive that has nothing else left to do (npm answered first).
    socket.unref();
    const timer = setTimeout(() => done(new Error(`no connection within ${ms / 1000} s`)), ms);
    timer.unref();
    socket.once("connect", () => done());
    socket.once("error", (e) => done(e));
  });
}

/**
 * Rejects, with exit 12 and one line, when the host npm would connect to for the registry refuses, cannot be
 * resolved, or does not take a connection within CONNECT_MS, twice; resolves when it does, or when the host cannot
 * be told (npm then answers for itself).
 */
export async function assertRegistryReachable(connectMs = CONNECT_MS): Promise<void> {
  const at = await registryEndpoint();
  if (!at) return;
  let why: Error | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, RETRY_AFTER_MS).unref());
    try {
      return await connectOnce(at.host, at.port, connectMs);
    } catch (e) {
      why = e as Error;
    }
  }
  const where = at.proxy ? `the proxy ${at.host}:${at.port} npm goes through` : `${at.host}:${at.port}`;
  throw new SearchliftError(
    `cannot reach the npm registry ${at.registry}: connecting to ${where} failed twice (${why?.message ?? "unknown"}); ` +
      `are you offline? (latest always asks the registry; a version an earlier check lifted does not)`,
    ExitCode.npmFailed,
  );
}
