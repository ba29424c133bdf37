/** The routine pack the commands work on: the default of the wiring (src/clients/claude-code.ts); no flag chooses another yet. */
import type { RoutinePack } from "../routines/pack.js";
import { defaultPack } from "../clients/claude-code.js";

export async function cliRoutinePack(): Promise<RoutinePack> {
  return defaultPack();
}
