// searchlift sample: entry of a tiny Bun program (ours, for reader tests).
import { greet } from "./greet.js";
import { banner } from "./unicode.js";
import notes from "./notes.txt" with { type: "text" };
import wide from "./unicode.txt" with { type: "text" };
import payloadPath from "./payload.bin" with { type: "file" };

export function main() {
  console.log("SEARCHLIFT_ENTRY_MARKER", greet("searchlift"), banner());
  console.log(notes.length, wide.length, payloadPath);
}
main();
