/**
 * What two lifted modules' code says, as material for the witness search: their string literals, regular
 * expressions, numbers and property names, those on lines that differ between the two (the code diff, line by
 * line) first. Read with acorn's tokenizer over the lifted code (provenance left out), so nothing runs.
 */
import { tokenizer } from "acorn";
import { liftedCode } from "../lift/lift.js";

export interface CodeTokens {
  /** String literals and regex sources (as written), changed lines' first, without repeats. */
  strings: string[];
  /** Numeric constants, changed lines' first. */
  numbers: number[];
  /** Property and identifier names, changed lines' first. */
  names: string[];
  /** How many tokens came from lines that differ between the two modules. */
  changed: number;
}

interface Tok {
  kind: "string" | "number" | "name";
  value: string | number;
  line: number;
}

function tokens(code: string): Tok[] {
  const out: Tok[] = [];
  try {
    for (const tok of tokenizer(code, { ecmaVersion: "latest", sourceType: "module", locations: true })) {
      const t = tok as typeof tok & { value: unknown };
      const label = t.type.label;
      const line = t.loc?.start.line ?? 0;
      if (label === "string" || label === "template") out.push({ kind: "string", value: String(t.value), line });
      else if (label === "regexp") out.push({ kind: "string", value: String((t.value as { pattern: string }).pattern), line });
      else if (label === "num" && typeof t.value === "number") out.push({ kind: "number", value: t.value, line });
      else if (label === "name") out.push({ kind: "name", value: String(t.value), line });
    }
  } catch {
    // A module the tokenizer cannot read gives what was read so far; the search has other sources.
  }
  return out;
}

/** The tokens of both modules, those on lines found in one module only first. */
export function codeTokens(a: string, b: string): CodeTokens {
  const [ca, cb] = [liftedCode(a), liftedCode(b)];
  const [la, lb] = [new Set(ca.split("\n").map((l) => l.trim())), new Set(cb.split("\n").map((l) => l.trim()))];
  const changedIn = (code: string, other: Set<string>) => {
    const lines = code.split("\n");
    return (t: Tok) => !other.has((lines[t.line - 1] ?? "").trim());
  };
  const all: Array<Tok & { changed: boolean }> = [];
  for (const [code, other] of [
    [ca, lb],
    [cb, la],
  ] as const) {
    const isChanged = changedIn(code, other);
    for (const t of tokens(code)) all.push({ ...t, changed: isChanged(t) });
  }
  const ordered = [...all.filter((t) => t.changed), ...all.filter((t) => !t.changed)];
  const pick = <T>(kind: Tok["kind"]) => [...new Set(ordered.filter((t) => t.kind === kind).map((t) => t.value as T))];
  return {
    strings: pick<string>("string"),
    numbers: pick<number>("number"),
    names: pick<string>("name"),
    changed: all.filter((t) => t.changed).length,
  };
}
