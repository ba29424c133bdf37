/**
 * An independent view of an executable's headers, from LLVM's llvm-readobj, to check our own
 * ELF/Mach-O/PE readers against. Output blocks (`Section {`, `ProgramHeader {`) become
 * key → value records; values keep their first token (`.text (27)` → `.text`).
 */
import { execFileSync } from "node:child_process";

export function readobjAvailable(): boolean {
  try {
    execFileSync("llvm-readobj", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Records of every `<block> {` … `}` (or `<block> [` … `]`) in `llvm-readobj <flag> file`. */
export function readobj(file: string, flag: string, block: string): Array<Record<string, string>> {
  const text = execFileSync("llvm-readobj", [flag, file], { encoding: "utf8", maxBuffer: 256 << 20 });
  const out: Array<Record<string, string>> = [];
  let cur: Record<string, string> | null = null;
  let depth = 0;
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (!cur) {
      if (t === `${block} {` || t === `${block} [`) {
        cur = {};
        depth = 1;
      }
      continue;
    }
    if (/^[0-9A-F]+: /.test(t)) continue; // hex dump rows
    if (t.endsWith("{") || t.endsWith("[") || t.endsWith("(") || /\[ \(0x[0-9a-fA-F]+\)$/.test(t)) {
      // Nested blocks (`Flags [ (0x5)`): keep the hex value of a flags line, skip the rest.
      const flags = /^(\w+) \[ \((0x[0-9a-fA-F]+)\)$/.exec(t);
      if (flags && depth === 1) cur[flags[1]!] = flags[2]!;
      depth++;
      continue;
    }
    if (t === "}" || t === "]" || t === ")") {
      depth--;
      if (depth === 0) {
        out.push(cur);
        cur = null;
      }
      continue;
    }
    if (depth !== 1) continue;
    const m = /^(\w[\w ]*?): (.*)$/.exec(t);
    if (m) cur[m[1]!] = m[2]!.split(" (")[0]!.trim();
  }
  return out;
}

export const num = (v: string | undefined): number => (v === undefined ? Number.NaN : v.startsWith("0x") ? parseInt(v, 16) : Number(v));
