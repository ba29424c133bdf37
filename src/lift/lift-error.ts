import type { Place } from "./closure.js";

/** A routine that cannot be lifted: what stopped the lift and, where known, the place in the input. */
export class LiftError extends Error {
  constructor(
    message: string,
    readonly at?: Place,
  ) {
    super(at ? `${message} (${at.module}:${at.line}:${at.column})` : message);
    this.name = "LiftError";
  }
}
