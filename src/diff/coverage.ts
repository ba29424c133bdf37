/**
 * Which of the changed code a search reached. The statements of two lifted modules that the line diff
 * changes (inside functions: the routine's code, not the provenance), and the arms of the branches on those
 * lines (if/else, `?:`, `&&`/`||`/`??`), each get a probe: a call that records that it ran, and which call
 * of the batch got there first. The instrumented copy answers as the module does (a probe only records), and
 * like the module it runs only in the sandbox.
 *
 *   score += parsed.isMcp && term.length > 3 ? 12 : 10;
 *     → __searchliftReach(0); score += (__searchliftReach(1), parsed.isMcp && (__searchliftReach(2), term.length > 3)) ? … ;
 *
 * (each arm of the `?:` gets its own probe too). What is never reached is named by its line, so that "no
 * difference found" can say whether the changed code ran at all.
 */
import { parse } from "acorn";
import { diffLines } from "diff";
import { walk } from "estree-walker";
import type { Node as EstreeNode } from "estree";
import type { Node } from "../ast/pattern.js";

/** The probe's name in an instrumented module: reserved, no lifted module uses it. */
export const REACH = "__searchliftReach";
/** The recorder's export: called with a call's index before the call, and with nothing to read the probes reached. */
export const COVERAGE_EXPORT = "__searchliftCoverage";

export interface ChangedPoint {
  /** 1-based line in the module's text. */
  line: number;
  kind: "statement" | "branch";
  /** The code at the point, on one line, at most 80 characters. */
  code: string;
}

export interface Instrumented {
  /** The module with its probes: a statement per changed point and a function that records them. */
  text: string;
  points: ChangedPoint[];
}

/** The 1-based lines of `a` that the diff removes and of `b` that it adds. */
export function changedLines(a: string, b: string): [Set<number>, Set<number>] {
  const before = new Set<number>();
  const after = new Set<number>();
  let lineA = 1;
  let lineB = 1;
  for (const part of diffLines(a, b)) {
    const n = part.count ?? part.value.split("\n").length - 1;
    for (let i = 0; i < n; i++) {
      if (part.removed) before.add(lineA + i);
      else if (part.added) after.add(lineB + i);
    }
    if (!part.added) lineA += n;
    if (!part.removed) lineB += n;
  }
  return [before, after];
}

interface Insertion {
  at: number;
  text: string;
  /** Among insertions at one place: openers of wider spans first, closers of narrower spans first. */
  order: number;
}

/** Probes at the changed lines of `text`: each innermost statement on such a line, and the arms of its branches. */
export function instrument(text: string, lines: ReadonlySet<number>): Instrumented {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module", locations: true }) as unknown as Node;
  const points: ChangedPoint[] = [];
  const inserts: Insertion[] = [];
  const lineOf = (n: Node) => n.loc!.start.line;
  const touches = (n: Node) => {
    for (let l = n.loc!.start.line; l <= n.loc!.end.line; l++) if (lines.has(l)) return true;
    return false;
  };
  const probe = (n: Node, kind: ChangedPoint["kind"]) => {
    points.push({ line: lineOf(n), kind, code: excerpt(text, n) });
    return `${REACH}(${points.length - 1})`;
  };
  const wrapStatement = (n: Node, call: string) => {
    const span = n.end - n.start;
    inserts.push({ at: n.start, text: `{ ${call}; `, order: -span }, { at: n.end, text: " }", order: span });
  };
  const wrapExpression = (n: Node, call: string) => {
    const span = n.end - n.start;
    inserts.push({ at: n.start, text: `(${call}, `, order: -span }, { at: n.end, text: ")", order: span });
  };
  let depth = 0;
  walk(ast as unknown as EstreeNode, {
    enter(raw, parent, key) {
      const n = raw as unknown as Node;
      const p = parent as unknown as Node | null;
      if (isFunctionNode(n)) depth++;
      if (depth === 0 || !touches(n)) return;
      if (isStatement(n) && innermostOnChangedLine(n, lines)) {
        const call = probe(n, "statement");
        // In a list a probe goes before the statement (a declaration keeps its scope); elsewhere, a block around it.
        if (p && Array.isArray((p as unknown as Record<string, unknown>)[key as string]))
          inserts.push({ at: n.start, text: `${call}; `, order: -(n.end - n.start) - 1 });
        else wrapStatement(n, call);
      }
      if (n.type === "IfStatement") {
        if (lines.has(lineOf(n))) {
          wrapStatement(n.consequent as Node, probe(n.consequent as Node, "branch"));
          if (n.alternate) wrapStatement(n.alternate as Node, probe(n.alternate as Node, "branch"));
        }
      } else if (n.type === "ConditionalExpression" && lines.has(lineOf(n))) {
        wrapExpression(n.consequent as Node, probe(n.consequent as Node, "branch"));
        wrapExpression(n.alternate as Node, probe(n.alternate as Node, "branch"));
      } else if (n.type === "LogicalExpression" && lines.has(lineOf(n.right as Node))) {
        wrapExpression(n.right as Node, probe(n.right as Node, "branch"));
      }
    },
    leave(raw) {
      if (isFunctionNode(raw as unknown as Node)) depth--;
    },
  });
  return { text: applyInsertions(text, inserts) + recorder(), points };
}

/** The recorder, at the end of the module (a hoisted declaration): which probes ran, and the first call to reach each. */
function recorder(): string {
  return `
var __searchliftReached = new Map(), __searchliftCall = -1;
function ${REACH}(i) { if (!__searchliftReached.has(i)) __searchliftReached.set(i, __searchliftCall); }
function ${COVERAGE_EXPORT}(call) { if (call === undefined) return [...__searchliftReached]; __searchliftCall = call; }
export { ${COVERAGE_EXPORT} };
`;
}

function applyInsertions(text: string, inserts: Insertion[]): string {
  const sorted = inserts.map((x, i) => ({ ...x, i })).sort((x, y) => x.at - y.at || x.order - y.order || x.i - y.i);
  let out = "";
  let at = 0;
  for (const x of sorted) {
    out += text.slice(at, x.at) + x.text;
    at = x.at;
  }
  return out + text.slice(at);
}

function isFunctionNode(n: Node): boolean {
  return n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression";
}

/** Statements a probe stands for: not blocks, not functions or classes (their statements have their own). */
function isStatement(n: Node): boolean {
  if (n.type === "BlockStatement" || n.type === "FunctionDeclaration" || n.type === "ClassDeclaration") return false;
  return n.type.endsWith("Statement") || n.type === "VariableDeclaration";
}

/** A statement with a changed line that none of its nested statements holds. */
function innermostOnChangedLine(n: Node, lines: ReadonlySet<number>): boolean {
  const own = new Set<number>();
  for (let l = n.loc!.start.line; l <= n.loc!.end.line; l++) if (lines.has(l)) own.add(l);
  walk(n as unknown as EstreeNode, {
    enter(raw) {
      const c = raw as unknown as Node;
      if (c === n) return;
      if (isFunctionNode(c) || isStatement(c) || c.type === "BlockStatement") {
        for (let l = c.loc!.start.line; l <= c.loc!.end.line; l++) own.delete(l);
        this.skip();
      }
    },
  });
  // The statement's own first line stays its own even when a nested statement starts there (`if (x) y();`).
  return own.size > 0 || lines.has(n.loc!.start.line);
}

function excerpt(text: string, n: Node): string {
  const one = text.slice(n.start, n.end).replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
