import { parse, type Options, type Program } from "acorn";
import "./acorn-warm.js"; // before any parse: see acorn-warm.ts
import type { ContainerFormat, ModuleFormat } from "../module-formats.js";
import type { Node } from "./pattern.js";

/**
 * How a runtime parses a module's text: as a script (CommonJS runs its file as the body of a function, in
 * sloppy mode unless it says "use strict"; `<!--` and a `-->` at the start of a line begin comments) or as an
 * ES module (strict; `<!--` is a syntax error to V8 and JavaScriptCore).
 */
export type ParseGoal = "script" | "module";

/**
 * The goal the release's runtime parses `module` with. Node: an ES module by `.mjs`, or a `.js` whose nearest
 * package.json says "type": "module", or one with module syntax and no "type" (detect-module); CommonJS
 * otherwise (src/extract/npm-package.ts and plain-script.ts record which). Bun records a format per module;
 * a standalone executable before Bun 1.1.30 records none and holds ES modules only. Where neither the
 * container nor the module says (a plain script with no module syntax, a Node SEA's main script), Node runs it
 * as CommonJS. Code carved out of an unknown packer is taken as a module, as before any of this was known.
 */
export function runtimeGoal(container: { format: ContainerFormat }, module: { moduleFormat: ModuleFormat }): ParseGoal {
  if (module.moduleFormat === "esm") return "module";
  if (module.moduleFormat === "cjs") return "script";
  if (container.format.startsWith("bun-") || container.format === "carved") return "module";
  return "script";
}

/** acorn's options for a goal. A script may `return` at its top level (CommonJS wraps it in a function); only a
 *  module awaits there. Node ranges: scope analysis (eslint-scope) in the lift stage needs them. */
export function goalOptions(goal: ParseGoal): Options {
  return {
    ecmaVersion: "latest",
    sourceType: goal,
    allowHashBang: true,
    allowReturnOutsideFunction: goal === "script",
    allowAwaitOutsideFunction: goal === "module",
    ranges: true,
  };
}

/**
 * Parse module text with `goal` — the runtime's (runtimeGoal) — alone. Without a goal: ESM first (bundles and
 * chunks), then script (CJS wrappers, whose body is a function expression with a `return` at top level in some
 * builds). null when it does not parse.
 */
export function parseModule(text: string, goal?: ParseGoal): Program | null {
  // A leading hashbang or Bun's `// @bun` comment is fine for acorn; nothing to strip.
  for (const sourceType of goal ? [goal] : (["module", "script"] as const)) {
    try {
      return parse(text, goal ? goalOptions(goal) : { ...goalOptions(sourceType), allowAwaitOutsideFunction: true });
    } catch {
      /* try the next source type */
    }
  }
  return null;
}

/**
 * Where `node` holds `<!--` that acorn, parsing a module, read as `<`, `!` and `--` (acorn follows the letter
 * of the grammar there); V8 and JavaScriptCore refuse the whole module ("HTML comments are not allowed in
 * modules"), so the release cannot have run such code. -1 when it holds none.
 */
export function moduleHtmlComment(text: string, node: Node): number {
  if (!text.slice(node.start, node.end).includes("<!--")) return -1;
  let at = -1;
  const visit = (n: Node): void => {
    if (at >= 0) return;
    if (n.type === "BinaryExpression" && n.operator === "<") {
      const r = n.right as Node;
      const arg = r.type === "UnaryExpression" && r.operator === "!" ? (r.argument as Node) : null;
      if (arg?.type === "UpdateExpression" && arg.prefix && arg.operator === "--" && text.startsWith("<!--", r.start - 1)) {
        at = r.start - 1;
        return;
      }
    }
    for (const key of Object.keys(n)) {
      const v = (n as unknown as Record<string, unknown>)[key];
      if (Array.isArray(v)) {
        for (const c of v) if (isNode(c)) visit(c);
      } else if (isNode(v)) visit(v);
    }
  };
  visit(node);
  return at;
}

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string";
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
