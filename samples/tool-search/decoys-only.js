// Negative sample: only the look-alikes, no tool search at all.
export * from "./decoys.js";
