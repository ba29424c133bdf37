/**
 * `check --releases latest` without a registry fails in seconds (registry-probe.ts), where npm alone retries a
 * refused connection for about 70 s. No network: the registry, or the proxy, is a port on this machine that
 * nothing listens on (refused at once), or a local server (reachable). The real npm answers `config get`.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ExitCode, SearchliftError } from "../src/errors.js";
import { assertRegistryReachable, registryEndpoint } from "../src/fetch/registry-probe.js";
import { ROOT, runCli } from "./helpers/cli.js";

// Under SEARCHLIFT_SKIP_REAL=1, `npm` on PATH is network-gate.ts's stand-in; it runs the real one for `config`.
const NPM = process.env.SEARCHLIFT_REAL_NPM ?? "npm";

/** A port on this machine that nothing listens on: one the kernel gave out and was given back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** npm's settings that decide where it connects, with the values a test gives (npm's defaults otherwise). */
const PROXY_KEYS = [
  "npm_config_registry",
  "npm_config_@anthropic-ai:registry",
  "npm_config_https_proxy",
  "npm_config_proxy",
  "npm_config_noproxy",
];
const PROXY_ENV = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "proxy", "no_proxy", "NO_PROXY"];

describe("the registry probe", () => {
  const saved = Object.fromEntries([...PROXY_KEYS, ...PROXY_ENV, "SEARCHLIFT_NPM"].map((k) => [k, process.env[k]]));
  let listening: net.Server;
  let openPort: number;
  beforeAll(async () => {
    listening = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => listening.listen(0, "127.0.0.1", r));
    openPort = (listening.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise((r) => listening.close(r)));
  const use = (env: Record<string, string>) => {
    for (const k of [...PROXY_KEYS, ...PROXY_ENV]) delete process.env[k];
    Object.assign(process.env, { SEARCHLIFT_NPM: NPM, ...env });
  };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("connects to the registry npm is configured with, and passes when it takes the connection", async () => {
    use({ npm_config_registry: `http://127.0.0.1:${openPort}/` });
    expect(await registryEndpoint()).toEqual({
      registry: `http://127.0.0.1:${openPort}/`,
      host: "127.0.0.1",
      port: openPort,
      proxy: false,
    });
    await expect(assertRegistryReachable()).resolves.toBeUndefined();
    // The client's scope asks the registry configured for it, when there is one.
    const port = await closedPort();
    use({ npm_config_registry: `http://127.0.0.1:${openPort}/`, "npm_config_@anthropic-ai:registry": `http://127.0.0.1:${port}/` });
    expect((await registryEndpoint())?.port).toBe(port);
    await expect(assertRegistryReachable()).rejects.toThrow(`cannot reach the npm registry http://127.0.0.1:${port}/`);
  });

  it("fails with exit 12 and one line, twice refused, in about the time of the retry", async () => {
    const port = await closedPort();
    use({ npm_config_registry: `http://127.0.0.1:${port}/` });
    const started = performance.now();
    const e = await assertRegistryReachable().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SearchliftError);
    expect((e as SearchliftError).exitCode).toBe(ExitCode.npmFailed);
    expect((e as Error).message).toMatch(new RegExp(`^cannot reach the npm registry http://127\\.0\\.0\\.1:${port}/: .*ECONNREFUSED`));
    expect((e as Error).message).not.toContain("\n");
    // npm's config (a few hundred ms, more on a loaded machine), two refusals and the half second between them;
    // npm alone takes about 70 s.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("connects to the proxy npm goes through, not to the registry; with proxy exceptions it does not judge", async () => {
    const port = await closedPort();
    use({ npm_config_registry: "https://registry.example/", npm_config_https_proxy: `http://127.0.0.1:${port}` });
    expect(await registryEndpoint()).toEqual({ registry: "https://registry.example/", host: "127.0.0.1", port, proxy: true });
    await expect(assertRegistryReachable()).rejects.toThrow(`the proxy 127.0.0.1:${port} npm goes through`);
    // The variables npm's agent reads stand for a proxy too.
    use({ npm_config_registry: "http://registry.example/", HTTP_PROXY: `http://127.0.0.1:${port}` });
    expect((await registryEndpoint())?.port).toBe(port);
    use({ npm_config_registry: "https://registry.example/", npm_config_https_proxy: `http://127.0.0.1:${port}`, no_proxy: "example" });
    expect(await registryEndpoint()).toBeNull();
    await expect(assertRegistryReachable()).resolves.toBeUndefined();
  });
});

describe("check --releases latest, offline", () => {
  let dir: string;
  beforeAll(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), `searchlift-check-registry-${process.pid}-`)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("exits 12 with one line within seconds, where npm would retry for over a minute", async () => {
    const port = await closedPort();
    const started = performance.now();
    const server = `node ${join(ROOT, "samples", "mcp-server", "server.mjs")}`;
    const r = runCli(["check", "--server", server, "--releases", "latest", "--lift-cache", join(dir, "lifts")], {
      cwd: ROOT,
      timeout: 120_000,
      // npm's own retries as it ships them (2, from 10 s to 60 s apart), so that the bound seen is check's.
      env: { SEARCHLIFT_NPM: NPM, npm_config_registry: `http://127.0.0.1:${port}/`, npm_config_fetch_retries: "2" },
    });
    const seconds = (performance.now() - started) / 1000;
    expect(r.code, r.stderr).toBe(ExitCode.npmFailed);
    expect(r.stderr.trim().split("\n")).toEqual([
      `searchlift: cannot reach the npm registry http://127.0.0.1:${port}/: connecting to 127.0.0.1:${port} failed twice ` +
        `(connect ECONNREFUSED 127.0.0.1:${port}); are you offline? (latest always asks the registry; a version an earlier check lifted does not)`,
    ]);
    expect(r.stdout).toBe("");
    // Bounded well below npm's own 70 s, with room for a loaded machine (npm's config, the server, node's start).
    expect(seconds).toBeLessThan(30);
  });
});
