/** The routine packs by id: for a process that is told which routine by name (the verifier's child). */
import type { RoutinePack } from "./pack.js";
import { toolSearchPack } from "./tool-search/index.js";

const PACKS: readonly RoutinePack[] = [toolSearchPack];

export function routinePack(id: string): RoutinePack {
  const pack = PACKS.find((p) => p.id === id);
  if (!pack) throw new Error(`no routine pack named ${JSON.stringify(id)}`);
  return pack;
}
