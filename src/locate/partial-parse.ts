/**
 * Parse only the statements of a module that hold a given position.
 *
 * The scanner in statement-starts.ts proposes where statements may begin; acorn parses from the
 * nearest proposal before the position, statement by statement, until it has passed it. A
 * proposal that is not really a statement start makes acorn throw or stop short, and the next
 * earlier proposal is tried. Only when none works does the caller fall back to a full parse.
 */
import { Parser, tokTypes, type Options } from "acorn";
import "../ast/acorn-warm.js"; // before any parse: see acorn-warm.ts
import type { Node } from "../ast/pattern.js";
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

const OPTIONS: Options = {
  ecmaVersion: "latest",
  sourceType: "module",
  allowHashBang: true,
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  allowImportExportEverywhere: true,
  // Scope analysis (eslint-scope) in the lift stage needs node ranges.
  ranges: true,
};

const MAX_TRIES = 40;

/**
 * One module's text and statement parser per container, shared by every stage that reads it:
 * locate scans and parses a chunk, and the lift goes on from there instead of starting again.
 * Parsed statements are shared too — callers copy a node before changing it.
 */
const shared = new WeakMap<object, Map<object, { text: string; parser: StatementParser }>>();

export function sharedModuleText<M extends object>(
  container: { text(m: M): string },
  module: M,
): { text: string; parser: StatementParser } {
  let perContainer = shared.get(container);
  if (!perContainer) shared.set(container, (perContainer = new Map()));
  let entry = perContainer.get(module);
  if (!entry) {
    const text = container.text(module);
    perContainer.set(module, (entry = { text, parser: new StatementParser(text) }));
  }
  return entry;
}

export class StatementParser {
  private scanner: StatementScanner | null = null;
  /** statement start → parsed statement, shared by every lookup in the module */
  private cache = new Map<number, Node>();

  constructor(private readonly text: string) {}

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
    return null;
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
      this.scanner = new StatementScanner(this.text, m ? m[0].length : 0);
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
        parser = new ParserAt(OPTIONS, this.text, pos);
        parser.nextToken();
        if (parser.type === tokTypes.eof) return out.length ? out : null;
        stmt = parser.parseStatement(null, true, Object.create(null));
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
