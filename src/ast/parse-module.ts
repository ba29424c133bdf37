import { parse, type Program } from "acorn";
import "./acorn-warm.js"; // before any parse: see acorn-warm.ts

/**
 * Parse module text: ESM first (bundles and chunks), then script (CJS wrappers, whose body is a
 * function expression with a `return` at top level in some builds). null when neither parses.
 */
export function parseModule(text: string): Program | null {
  // A leading hashbang or Bun's `// @bun` comment is fine for acorn; nothing to strip.
  for (const sourceType of ["module", "script"] as const) {
    try {
      return parse(text, {
        ecmaVersion: "latest",
        sourceType,
        allowHashBang: true,
        allowReturnOutsideFunction: sourceType === "script",
        allowAwaitOutsideFunction: true,
        ranges: true,
      });
    } catch {
      /* try the next source type */
    }
  }
  return null;
}

/** 1-based line and column of a character offset (columns count UTF-16 units, as editors do). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
