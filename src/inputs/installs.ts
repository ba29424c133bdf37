/**
 * Where the user's Claude Code is installed: the native installer's versions folder
 * (`~/.local/share/claude/versions/<version>`), a global npm install of `@anthropic-ai/claude-code` (under
 * `npm root -g`, so the user's npmrc prefix applies), a global bun install (`$BUN_INSTALL` or `~/.bun`,
 * `install/global/node_modules`), and the `claude` that runs from PATH, followed through its symlinks.
 */
import { accessSync, constants, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, relative, isAbsolute } from "node:path";
import * as z from "zod/mini";
import { CLIENT_PACKAGE, hostPlatform } from "../fetch/fetch.js";
import { runNpm } from "../fetch/npm-client.js";
import { compareVersions, isVersion } from "../release-names.js";
import { parseJsonOrNull } from "../schemas/json.js";

export type InstallKind = "versions-folder" | "npm-global" | "bun-global" | "path";

export interface Install {
  kind: InstallKind;
  /** The program file or package folder: an input every command takes. */
  path: string;
  /** From the file name (versions folder) or the package's package.json; null where neither tells. */
  version: string | null;
  /** For `path`: the `claude` found on PATH, when it is a link to `path`. */
  link?: string;
  /** The file or folder the install occupies (a global install's main package folder): what duplicates share. */
  root: string;
}

export interface InstallSearch {
  installs: Install[];
  /** Every place looked in, found or not. */
  searched: string[];
  /** Places that could not be looked in (npm failing), one line each. */
  notes: string[];
}

export function versionsFolder(): string {
  return join(homedir(), ".local", "share", "claude", "versions");
}

export async function findInstalls(): Promise<InstallSearch> {
  const search: InstallSearch = { installs: [], searched: [], notes: [] };
  const versions = versionsFolder();
  search.searched.push(versions);
  search.installs.push(...versionsFolderInstalls(versions));

  const npmRoot = await runNpm(["root", "-g"]).then(
    (out) => out.trim(),
    (e: Error) => (search.notes.push(`no global npm install looked for: ${e.message}`), ""),
  );
  if (npmRoot) {
    search.searched.push(join(npmRoot, CLIENT_PACKAGE));
    search.installs.push(...packageInstall(npmRoot, "npm-global"));
  }
  const bunRoot = join(process.env.BUN_INSTALL || join(homedir(), ".bun"), "install", "global", "node_modules");
  search.searched.push(join(bunRoot, CLIENT_PACKAGE));
  search.installs.push(...packageInstall(bunRoot, "bun-global"));

  search.searched.push("claude on PATH");
  const onPath = claudeOnPath();
  if (onPath) search.installs.push(onPath);
  return search;
}

function versionsFolderInstalls(dir: string): Install[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.startsWith("."));
  } catch {
    return [];
  }
  return names.sort(compareVersions).map((name) => ({
    kind: "versions-folder" as const,
    path: join(dir, name),
    version: isVersion(name) ? name : null,
    root: join(dir, name),
  }));
}

/**
 * The package under a global node_modules. From 2.1.113 the main package is a wrapper whose program is in a
 * platform package (installed beside or inside it): that package is the input, the host's build first.
 */
function packageInstall(root: string, kind: InstallKind): Install[] {
  const main = join(root, CLIENT_PACKAGE);
  const version = packageVersion(main);
  if (version === undefined) return [];
  const host = hostPlatform();
  const scopes = [join(main, "node_modules", "@anthropic-ai"), join(root, "@anthropic-ai")];
  const platformPackages = scopes.flatMap((scope) => {
    try {
      return readdirSync(scope)
        .filter((n) => n.startsWith("claude-code-"))
        .sort((a, b) => Number(b === `claude-code-${host}`) - Number(a === `claude-code-${host}`))
        .map((n) => join(scope, n));
    } catch {
      return [];
    }
  });
  const program = platformPackages.find((p) => packageVersion(p) === version) ?? main;
  return [{ kind, path: program, version, root: main }];
}

/** A Claude Code package's package.json: its name, and its version when it is one (else null). */
const packageSchema = z.object({
  name: z.string().check(z.startsWith(CLIENT_PACKAGE)),
  version: z.catch(z.nullable(z.string().check(z.refine(isVersion))), null),
});

/** The version in `dir`/package.json of a Claude Code package; undefined when there is no such package. */
export function packageVersion(dir: string): string | null | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, "package.json"), "utf8");
  } catch {
    return undefined;
  }
  return parseJsonOrNull(packageSchema, text)?.version;
}

/** The first `claude` on PATH that is an executable file, as its real path. */
function claudeOnPath(): Install | null {
  const names = process.platform === "win32" ? ["claude.exe", "claude.cmd", "claude"] : ["claude"];
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (!isExecutableFile(candidate)) continue;
      const real = realpathSync(candidate);
      return { kind: "path", path: real, version: versionOfFile(real), ...(real !== candidate ? { link: candidate } : {}), root: real };
    }
  }
  return null;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A versions-folder file is named by its version; else the Claude Code package the file is part of. */
function versionOfFile(file: string): string | null {
  const name = file.split(/[\\/]/).pop()!;
  if (isVersion(name)) return name;
  for (let dir = dirname(file), i = 0; i < 4; dir = dirname(dir), i++) {
    const v = packageVersion(dir);
    if (v !== undefined) return v;
  }
  return null;
}

/** The installs without those that are another's file or folder again (a PATH link into a versions folder). */
export function distinctInstalls(installs: Install[]): Install[] {
  const kept: Install[] = [];
  const reals: string[] = [];
  for (const i of installs) {
    const real = realOrSelf(i.root);
    if (reals.some((r) => isWithin(r, real))) continue;
    kept.push(i);
    reals.push(real);
  }
  return kept;
}

/** The installed release with the highest version (the first found where none says). */
export function newestInstall(installs: Install[]): Install | null {
  let best: Install | null = null;
  for (const i of installs) {
    if (!best || (i.version !== null && (best.version === null || compareVersions(i.version, best.version) > 0))) best = i;
  }
  return best;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function isWithin(parent: string, child: string): boolean {
  const r = relative(parent, child);
  return r === "" || (!r.startsWith("..") && !isAbsolute(r));
}
