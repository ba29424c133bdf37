/**
 * Argument parsers for the CLI's numeric options, on commander's own validation: a bad value is refused
 * before any work starts, with commander's one-line message and exit 2 (usage).
 */
import { InvalidArgumentError } from "commander";

/** Seconds: a positive decimal number, at most a day. */
export function positiveSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0) || n > 86_400)
    throw new InvalidArgumentError("expected a number of seconds, > 0 and at most 86400.");
  return n;
}

/** A whole number ≥ 1 written in decimal digits only ("1.5", "abc", "0" and "1e3" are refused). */
export function positiveInteger(value: string): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of at least 1.");
  return n;
}
