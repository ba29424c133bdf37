/**
 * The wiring for Claude Code's clients: the routine packs its releases hold, and the one the commands and the
 * library work on when told none. Above the stages, which take a pack as a parameter (src/routines/pack.ts);
 * the packs are loaded with the command that needs them, not when the command line starts.
 */
import type { RoutinePack } from "../routines/pack.js";

/** The routines of Claude Code that have a pack: tool search, the only one so far. */
export async function claudeCodePacks(): Promise<RoutinePack[]> {
  return [(await import("../routines/tool-search/index.js")).toolSearchPack];
}

/** The pack a command or library call works on when none is given: tool search. */
export async function defaultPack(): Promise<RoutinePack> {
  return (await claudeCodePacks())[0]!;
}
