/** The routine pack the commands work on: tool search, the only one so far (loaded with the command that needs it). */
import type { RoutinePack } from "../routines/pack.js";

export async function cliRoutinePack(): Promise<RoutinePack> {
  return (await import("../routines/tool-search/index.js")).toolSearchPack;
}
