/** searchlift's caches share one root: $XDG_CACHE_HOME/searchlift when set, else ~/.cache/searchlift. */
import { homedir } from "node:os";
import { join } from "node:path";

/** The default folder of one cache: releases (fetch), check's lifts, track's lifts and behaviour views, lift's lifts. */
export function defaultCache(name: "releases" | "check" | "track" | "lift"): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "searchlift", name);
}
