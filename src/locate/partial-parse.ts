/**
 * Parse only the statements of a module that hold a given position.
 *
 * The scanner in statement-starts.ts proposes where statements may begin; acorn parses from the
 * nearest proposal before the position, statement by statement, until it has passed it. A
 * proposal that is not really a statement start makes acorn throw or stop short, and the next
 * earlier proposal is tried. When none works, the whole text is parsed once, and its statements answer.
 *
 * Every parse follows the goal the release's runtime parses the module with (parse-module.ts, runtimeGoal): a
 * CommonJS module is a sloppy-mode script, in which `<!--` begins a comment; an ES module is strict code, in
 * which it does not. Parsing one as the other would make the lift, and the faithful copy verification runs,
 * from code the release never runs.
 */
import { Parser, tokTypes, type Options, type Program } from "acorn";
import "../ast/acorn-warm.js"; // before any parse: see acorn-warm.ts
import { goalOptions, runtimeGoal, type ParseGoal } from "../ast/parse-module.js";
import { isFunction, type Node } from "../ast/pattern.js";
import type { ContainerFormat, ModuleFormat } from "../extract/types.js";
import { StatementScanner } from "./statement-starts.js";

/** A Bun CJS wrapper: the module's statements live inside this function body. */
const CJS_WRAPPER = /^(?:\/\/[^\n]*\n)*\(function\s*\(exports,\s*require,\s*module,\s*__filename,\s*__dirname\)\s*\{/;

/** The members of acorn's parser used to read one statement at a position: internal, so not in its published types. */
interface ParserAt {
  type: unknown;
  nextToken(): void;
  parseStatement(context: null, topLevel: boolean, exports: object): Node;
}
const ParserAt = Parser as unknown as new (options: Options, input: string, startPos: number) => ParserAt;

/**
 * acorn's options per goal, for statements parsed out of their context: a module's may `return` and hold
 * import/export anywhere (a chunk's statements are parsed one at a time), a script's may `return` (CommonJS
 * runs a file as a function's body) and never awaits at the top level or imports.
 */
const OPTIONS: Record<ParseGoal, Options> = {
  module: { ...goalOptions("module"), allowReturnOutsideFunction: true, allowImportExportEverywhere: true },
  script: goalOptions("script"),
};

const MAX_TRIES = 40;

/**
 * One module's text and statement parser per container, shared by every stage that reads it:
 * locate scans and parses a chunk, and the lift goes on from there instead of starting again.
 * Parsed statements are shared too — callers copy a node before changing it.
 */
const shared = new WeakMap<object, Map<object, { text: string; parser: StatementParser }>>();

export function sharedModuleText<M extends { moduleFormat: ModuleFormat }>(
  container: { text(m: M): string; format: ContainerFormat },
  module: M,
): { text: string; parser: StatementParser } {
  let perContainer = shared.get(container);
  if (!perContainer) shared.set(container, (perContainer = new Map<object, { text: string; parser: StatementParser }>()));
  let entry = perContainer.get(module);
  if (!entry) {
    const text = container.text(module);
    perContainer.set(module, (entry = { text, parser: new StatementParser(text, runtimeGoal(container, module)) }));
  }
  return entry;
}

export class StatementParser {
  private scanner: StatementScanner | null = null;
  /** statement start → parsed statement, shared by every lookup in the module */
  private cache = new Map<number, Node>();
  /** The whole text's top-level statements, once a lookup needed them (null: the text does not parse). */
  private whole: Node[] | null | undefined;
  private prologue: boolean | undefined;

  constructor(
    private readonly text: string,
    /** How the runtime parses the text (parse-module.ts, runtimeGoal). */
    readonly goal: ParseGoal = "module",
  ) {}

  /**
   * The statement(s) covering [from, to), or null if no proposed start parses to cover it.
   * Statements are returned whole, in source order, and the same objects on every call.
   */
  statementsCovering(from: number, to: number): Node[] | null {
    const starts = this.startsUpTo(from);
    let k = upperBound(starts, from) - 1;
    for (let tries = 0; k >= 0 && tries < MAX_TRIES; k--, tries++) {
      const got = this.parseFrom(starts[k]!, to);
      if (got && got.length && got[0]!.start <= from && got[got.length - 1]!.end >= to) return got;
    }
    return this.wholeCovering(from, to);
  }

  /**
   * Whether the code of `node` (parsed from this text) runs in strict mode as the runtime runs it: all of an ES
   * module; in a script, where the script's directive prologue says "use strict" (for a Bun CJS wrapper, the
   * wrapper's), or a function around the node says so in its own, or the node lies in a class body. The
   * node's own directives are not counted: they go with its code wherever it is copied. null: not found here.
   */
  strictAt(node: Node): boolean | null {
    if (this.goal === "module") return true;
    if (this.strictPrologue()) return true;
    const around = this.statementsCovering(node.start, node.end)?.find((s) => s.start <= node.start && s.end >= node.end);
    return around ? strictAround(this.text, around, node) : null;
  }

  /** Whether the script's directive prologue (from where the scan starts) holds "use strict". */
  private strictPrologue(): boolean {
    if (this.prologue !== undefined) return this.prologue;
    this.prologue = false;
    const start = this.scan().starts[0]!;
    for (let pos = start; ;) {
      // The statement after `pos`, past any comment (a hashbang, Bun's `// @bun`) and space.
      const s = this.parseFrom(pos, pos + 1)?.[0];
      if (!s || !isDirective(this.text, s)) return this.prologue;
      if (directiveText(this.text, s) === "use strict") return (this.prologue = true);
      pos = s.end;
    }
  }

  /** The statements covering [from, to) in a parse of the whole text, which only a lookup the scan could not
   *  serve needs. Statements already parsed one by one are returned as the same objects. */
  private wholeCovering(from: number, to: number): Node[] | null {
    if (this.whole === undefined) {
      let program: Program | null;
      try {
        program = Parser.parse(this.text, OPTIONS[this.goal]);
      } catch {
        program = null;
      }
      this.whole = program ? this.topLevel(program) : null;
    }
    const all = this.whole;
    if (!all || all.length === 0) return null;
    let i = Math.max(
      0,
      upperBound(
        all.map((s) => s.start),
        from,
      ) - 1,
    );
    const out: Node[] = [];
    for (; i < all.length; i++) {
      let s = all[i]!;
      const known = this.cache.get(s.start);
      if (known && known.end === s.end) s = known;
      else this.cache.set(s.start, s);
      out.push(s);
      if (s.end >= to) break;
    }
    return out.length && out[0]!.start <= from && out[out.length - 1]!.end >= to ? out : null;
  }

  /** A program's module-level statements: for a Bun CJS wrapper, those of the wrapper function's body. */
  private topLevel(program: Program): Node[] {
    const first = program.body[0] as Node | undefined;
    if (CJS_WRAPPER.test(this.text) && first?.type === "ExpressionStatement" && first.expression.type === "FunctionExpression")
      return first.expression.body.body;
    return program.body;
  }

  /** Whether `pos` is outside every bracket of its statement (see StatementScanner.atTopLevel). */
  atTopLevel(pos: number): boolean {
    return this.scan().atTopLevel(pos);
  }

  /** Candidate starts, scanned at least past `pos` (the scan resumes where the last one stopped). */
  private startsUpTo(pos: number): number[] {
    const scanner = this.scan();
    scanner.scanTo(pos + 1);
    return scanner.starts;
  }

  private scan(): StatementScanner {
    if (!this.scanner) {
      const m = CJS_WRAPPER.exec(this.text);
      this.scanner = new StatementScanner(this.text, m ? m[0].length : 0, this.goal === "script");
    }
    return this.scanner;
  }

  /** Statements from `start` until one ends at or after `to`. null if acorn rejects the text there. */
  private parseFrom(start: number, to: number): Node[] | null {
    const out: Node[] = [];
    let pos = start;
    while (true) {
      const hit = this.cache.get(pos);
      if (hit) {
        out.push(hit);
        pos = hit.end;
        if (hit.end >= to) return out;
        continue;
      }
      let stmt: Node;
      let parser: ParserAt;
      try {
        parser = new ParserAt(OPTIONS[this.goal], this.text, pos);
        parser.nextToken();
        if (parser.type === tokTypes.eof) return out.length ? out : null;
        stmt = parser.parseStatement(null, true, Object.create(null) as object);
      } catch {
        return null;
      }
      if (stmt.end <= pos) return null;
      this.cache.set(pos, stmt);
      out.push(stmt);
      // The next statement starts where this one ended (whitespace and comments are skipped by acorn).
      pos = stmt.end;
      if (stmt.end >= to) return out;
    }
  }
}

/** A statement that is a directive: a string literal alone, not in parentheses. */
function isDirective(text: string, s: Node): boolean {
  if (s.type !== "ExpressionStatement" || s.expression.type !== "Literal" || typeof s.expression.value !== "string") return false;
  const q = text.charCodeAt(s.start);
  return q === 34 || q === 39;
}

/** A directive's text as written (escapes are not decoded: "use\x20strict" is not the strict directive). */
function directiveText(text: string, s: Node): string {
  const e = (s as Node & { expression: Node }).expression;
  return text.slice(e.start + 1, e.end - 1);
}

/** Whether a function or class between `statement` and `target` makes the target's code strict (see strictAt). */
function strictAround(text: string, statement: Node, target: Node): boolean {
  let strict = false;
  const descend = (n: Node): void => {
    if (strict || n === target || (n.start === target.start && n.end === target.end && n.type === target.type)) return;
    if (n.type === "ClassDeclaration" || n.type === "ClassExpression") {
      strict = true;
      return;
    }
    if (isFunction(n) && n.body.type === "BlockStatement") {
      for (const s of n.body.body as Node[]) {
        if (!isDirective(text, s)) break;
        if (directiveText(text, s) === "use strict") {
          strict = true;
          return;
        }
      }
    }
    for (const key of Object.keys(n)) {
      const v = (n as unknown as Record<string, unknown>)[key];
      for (const c of Array.isArray(v) ? v : [v]) {
        const child = c as Node | null;
        if (child && typeof child === "object" && typeof child.type === "string" && child.start <= target.start && child.end >= target.end)
          descend(child);
      }
    }
  };
  descend(statement);
  return strict;
}

function upperBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
