// Runs the CLI (bin/searchlift.js) and, as it exits, writes its peak resident memory (maxRSS, KiB) to fd 3.
import { writeSync } from "node:fs";
process.on("exit", () => {
  try {
    writeSync(3, String(process.resourceUsage().maxRSS));
  } catch {
    // fd 3 not open: run by hand
  }
});
await import("../../bin/searchlift.js");
