import { parse } from "acorn";

/**
 * On absurd nesting, acorn catches the stack overflow deep in the recursion and runs a regular
 * expression there (its overflow test, then the line lookup of its SyntaxError). V8 compiles a
 * regular expression on its first runs; compiling one with the stack nearly used up aborts the
 * process ("RegExpCompiler Allocation failed", exit 134) instead of throwing. Running those
 * paths a few times here, at a shallow stack, leaves them compiled (and tiered up) for later.
 * Imported for its effect by every module that parses with acorn.
 */
function warmAcornErrorPaths(): void {
  for (let i = 0; i < 3; i++) {
    for (const [text, sourceType] of [
      ["(a +", "script"],
      ["a\n+\n", "module"],
      ["`${", "script"],
    ] as const) {
      try {
        parse(text, { ecmaVersion: "latest", sourceType, locations: i === 0 });
      } catch {
        // The SyntaxError is the point: its path is now compiled.
      }
    }
  }
}

warmAcornErrorPaths();
