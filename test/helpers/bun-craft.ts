/**
 * Bun standalone files with a module graph we write ourselves (legacy appended layout, 52-byte
 * records): for inputs no bundler would produce, such as module names that clash on disk.
 */
import { writeFileSync } from "node:fs";

const TRAILER = Buffer.from("\n---- Bun! ----\n", "latin1");
const RECORD = 52;

export interface CraftedModule {
  /** Virtual path, written as given (add /$bunfs/root/ yourself for a rooted name). */
  name: string;
  contents: string;
  /** Record bytes as Bun writes them; default utf8 (0), the js loader (1), ESM (1). Any byte, for fuzzing. */
  encoding?: number;
  loader?: number;
  format?: number;
}

/** [prefix][names + contents][module table][32-byte Offsets][trailer][u64 file size]. */
export function craftBunLegacy(modules: CraftedModule[]): Buffer {
  const data: Buffer[] = [];
  let at = 0;
  const put = (b: Buffer) => {
    data.push(b);
    at += b.length;
    return { off: at - b.length, len: b.length };
  };
  const table = Buffer.alloc(RECORD * modules.length);
  modules.forEach((m, i) => {
    const name = put(Buffer.from(m.name, "utf8"));
    const body = put(Buffer.from(m.contents, "utf8"));
    const r = i * RECORD;
    table.writeUInt32LE(name.off, r);
    table.writeUInt32LE(name.len, r + 4);
    table.writeUInt32LE(body.off, r + 8);
    table.writeUInt32LE(body.len, r + 12);
    table[r + 48] = m.encoding ?? 0; // encoding: utf8
    table[r + 49] = m.loader ?? 1; // loader: js
    table[r + 50] = m.format ?? 1; // format: esm
  });
  const tableAt = put(table);
  const offsets = Buffer.alloc(32);
  offsets.writeBigUInt64LE(BigInt(at), 0);
  offsets.writeUInt32LE(tableAt.off, 8);
  offsets.writeUInt32LE(tableAt.len, 12);
  const prefix = Buffer.alloc(4096, 0x90);
  const file = Buffer.concat([prefix, ...data, offsets, TRAILER, Buffer.alloc(8)]);
  file.writeBigUInt64LE(BigInt(file.length), file.length - 8);
  return file;
}

export function writeCraftedBun(path: string, modules: CraftedModule[]): string {
  writeFileSync(path, craftBunLegacy(modules));
  return path;
}
