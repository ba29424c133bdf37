// searchlift sample: a second entry point with only Latin-1 text (stored latin1).
import { greet } from "./greet.js";
console.log("SEARCHLIFT_WORKER_MARKER", greet("worker"));
