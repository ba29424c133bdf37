/**
 * Which client, version and platform an input is, read from the input itself — never from a table
 * of known releases: the npm package's name and version; else the build information the program
 * embeds (`PACKAGE_URL:"…", …, VERSION:"…"`); else a versions-folder file name. The platform comes
 * from the package name's suffix or from the executable's own header (OS by container, CPU by
 * machine type, musl by the ELF interpreter); a plain script is the `npm` platform.
 */
import { basename } from "node:path";
import { FileByteSource } from "../extract/byte-source.js";
import { readElf } from "../extract/elf.js";
import { readMacho } from "../extract/macho.js";
import { readPe } from "../extract/pe.js";
import type { Container } from "../extract/types.js";
import { MalformedInput } from "../errors.js";
import { isClientName, isPlatform, isVersion, isVersionOrUnknown, UNKNOWN_VERSION } from "../release-names.js";
import { quoted } from "../safe-text.js";

export interface ReleaseInfo {
  client: string;
  version: string;
  platform: string;
}

const BUILD_INFO = /PACKAGE_URL:"([^"]{1,200})"[^}]{0,600}?VERSION:"([^"]{1,64})"/;

/*
 * Client, version and platform become folder names (<out>/<client>/<version>/<platform>/), and all
 * three come from the input: each must match its strict form (release-names.ts) or the input is refused (exit 5).
 */

export function releaseInfo(c: Container): ReleaseInfo {
  const embedded = embeddedBuildInfo(c);
  const pkg = c.package;
  const clientPackage = pkg?.name ?? embedded?.package ?? null;
  const client = clientPackage ? clientName(clientPackage) : "unknown";
  const name = basename(c.input);
  const version = pkg?.version || embedded?.version || (isVersion(name) ? name : UNKNOWN_VERSION);
  const suffix = pkg && clientPackage ? platformSuffix(pkg.name) : null;
  return checkedReleaseInfo(c.input, { client, version, platform: suffix ?? executablePlatform(c) ?? "npm" });
}

/** `info` when each part is a safe folder name; else the input is refused with the value shown escaped. */
export function checkedReleaseInfo(input: string, info: ReleaseInfo): ReleaseInfo {
  const refuse = (what: string, value: string, rule: string) => new MalformedInput(input, `refusing ${what} ${quoted(value)}: ${rule}`);
  if (!isClientName(info.client)) throw refuse("client name", info.client, "not a plain package name ([a-z0-9._-], at most 64)");
  if (!isVersionOrUnknown(info.version)) throw refuse("version", info.version, "not a semver version (1.2.3, 1.2.3-beta.1)");
  if (!isPlatform(info.platform)) throw refuse("platform", info.platform, `not a known platform (npm, linux-x64, darwin-arm64, …)`);
  return info;
}

/** `@anthropic-ai/claude-code-linux-x64` → `claude-code`. */
function clientName(pkg: string): string {
  return pkg.replace(/^@[^/]+\//, "").replace(/-(?:linux|darwin|win32)-[a-z0-9]+(?:-musl)?$/, "");
}

function platformSuffix(pkg: string): string | null {
  return /-((?:linux|darwin|win32)-[a-z0-9]+(?:-musl)?)$/.exec(pkg)?.[1] ?? null;
}

/** The program's own build information, from the first JS module that holds it. */
function embeddedBuildInfo(c: Container): { package: string; version: string } | null {
  const needle = Buffer.from("PACKAGE_URL:", "latin1");
  const wide = Buffer.from("PACKAGE_URL:", "utf16le");
  for (const m of c.modules) {
    if (m.kind !== "js") continue;
    const bytes = c.read(m);
    if (bytes.indexOf(m.encoding === "utf16le" ? wide : needle) < 0) continue;
    const hit = BUILD_INFO.exec(c.text(m));
    if (hit) return { package: hit[1]!, version: hit[2]! };
  }
  return null;
}

/** ELF e_machine → Node's arch name. */
const ELF_MACHINES: Record<number, string> = {
  62: "x64",
  183: "arm64",
  3: "ia32",
  40: "arm",
  21: "ppc64",
  22: "s390x",
  243: "riscv64",
  258: "loong64",
};

function executablePlatform(c: Container): string | null {
  const os = c.format.endsWith("-elf") ? "linux" : c.format.endsWith("-macho") ? "darwin" : c.format.endsWith("-pe") ? "win32" : null;
  if (!os) return null;
  const src = new FileByteSource(c.file);
  try {
    if (os === "linux") {
      const elf = readElf(src);
      const arch = ELF_MACHINES[elf.machine] ?? "unknown";
      const interp = elf.segments.find((s) => s.type === 3 && s.filesz > 0 && s.filesz < 4096);
      const musl = interp ? src.read(interp.offset, interp.filesz, "ELF interpreter").toString("latin1").includes("musl") : false;
      return `linux-${arch}${musl ? "-musl" : ""}`;
    }
    if (os === "darwin") {
      const [first] = readMacho(src);
      const arch = first?.cputype === 0x0100000c ? "arm64" : first?.cputype === 0x01000007 ? "x64" : "unknown";
      return `darwin-${arch}`;
    }
    const pe = readPe(src);
    return `win32-${pe.machine === 0x8664 ? "x64" : pe.machine === 0xaa64 ? "arm64" : "unknown"}`;
  } catch {
    return null;
  } finally {
    src.close();
  }
}
