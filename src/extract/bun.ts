import { MalformedInput } from "../errors.js";
import type { ByteSource } from "./byte-source.js";
import { rangeContainer } from "./container.js";
import { isElf } from "./elf.js";
import { isMacho } from "./macho.js";
import { isPe } from "./pe.js";
import { legacyTail, overlay, probeElf, probeMacho, probePe, type Located, type Probe } from "./bun-locate.js";
import { BUN_TRAILER, parseBunGraph, parseBunVersion, type BunGraph } from "./bun-payload.js";
import { findBunRuntime } from "./bun-runtime.js";
import { scanFor } from "./bun-scan.js";
import type { Container } from "./types.js";

/**
 * Bun standalone executable (ELF/Mach-O/PE section, or the legacy appended payload). null if not Bun.
 *
 * Cost when the input is not Bun: the executable's headers plus the last 24 bytes. A trailer
 * scan runs only where Bun could have hidden a payload the headers do not describe: data
 * appended after the image, a Bun section whose header is damaged, or an ELF without
 * section headers.
 */
export function readBun(src: ByteSource, input: string): Container | null {
  const head = src.read(0, Math.min(src.size, 4096), "header");
  const probe: Probe | null = isElf(head) ? probeElf(src) : isMacho(head) ? probeMacho(src) : looksPe(src, head) ? probePe(src) : null;

  let located: Located | null = probe?.found ?? legacyTail(src);
  const notes = [...(probe?.notes ?? [])];
  let graph: BunGraph | null = null;
  // The version string is looked up at most once, and only when a graph's layout or a listing asks for it.
  let runtime: string | null | undefined;
  const findRuntime = (): string | null =>
    runtime === undefined ? (runtime = probe ? findBunRuntime(src, probe.runtimeRegions) : null) : runtime;
  const version = () => parseBunVersion(findRuntime());

  if (located) {
    graph = parseBunGraph(src, located.trailerEnd, { start: located.start, where: located.where, version });
  } else if (probe && !probe.empty) {
    // (A Bun section that says "nothing compiled in" is the bare runtime: nothing to scan for.)
    const regions = [...probe.scanRegions];
    const tail = overlay(src, probe);
    if (tail) regions.push(tail);
    for (const r of regions) {
      const hit = scanForGraph(src, r.start, r.end, version);
      if (hit) {
        graph = hit;
        located = { format: hit.end <= probe.imageEnd ? probe.family : "bun-legacy", start: hit.start, trailerEnd: hit.end, where: "scan" };
        notes.push(`Bun payload found by a trailer scan at ${hit.end - BUN_TRAILER.length}; the headers did not point at it`);
        break;
      }
    }
    if (!graph && probe.problem) throw new MalformedInput(src.path, probe.problem);
  }
  if (!graph || !located) return null;
  return rangeContainer(src, {
    input,
    format: located.format,
    runtime: findRuntime,
    entry: graph.entry,
    modules: graph.modules,
    notes,
  });
}

/** MZ alone is not enough (DOS programs, random data): require "PE\0\0" where e_lfanew points. */
function looksPe(src: ByteSource, head: Buffer): boolean {
  if (!isPe(head)) return false;
  const lfanew = head.readUInt32LE(0x3c);
  return lfanew + 4 <= src.size && src.read(lfanew, 4, "PE signature").readUInt32LE(0) === 0x00004550;
}

/** The first trailer in [start, end) around which a whole module graph parses; the runtime's own copy of the trailer text does not. */
function scanForGraph(src: ByteSource, start: number, end: number, version: () => [number, number, number] | null): BunGraph | null {
  let found: BunGraph | null = null;
  scanFor(src, start, end, BUN_TRAILER, (at) => {
    try {
      found = parseBunGraph(src, at + BUN_TRAILER.length, { where: `Bun trailer at ${at}`, version });
      return true;
    } catch (e) {
      if (e instanceof MalformedInput) return false;
      throw e;
    }
  });
  return found;
}
