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
  /** When the code says so, what must hold for the point to run: "reached only when …" (optionGuard). */
  why?: string;
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
  const ancestors: Node[] = [];
  const probe = (n: Node, kind: ChangedPoint["kind"]) => {
    const why = optionGuard(ast, [...ancestors, n]);
    points.push({ line: n.loc!.start.line, kind, code: excerpt(text, n), ...(why ? { why } : {}) });
    return `${REACH}(${points.length - 1})`;
  };
  const wrap = (n: Node, open: string, close: string) => {
    const span = n.end - n.start;
    inserts.push({ at: n.start, text: open, order: -span }, { at: n.end, text: close, order: span });
  };
  const chosen = changedStatements(ast, text, lines);
  let depth = 0;
  walk(ast as unknown as EstreeNode, {
    enter(raw, parent, key) {
      const n = raw as unknown as Node;
      if (isFunctionNode(n)) depth++;
      ancestors.push(n);
      if (chosen.has(n)) {
        ancestors.pop();
        const call = probe(n, "statement");
        // In a list a probe goes before the statement (a declaration keeps its scope); elsewhere, a block around it.
        if (parent && Array.isArray((parent as unknown as Record<string, unknown>)[key as string]))
          inserts.push({ at: n.start, text: `${call}; `, order: -(n.end - n.start) - 1 });
        else wrap(n, `{ ${call}; `, " }");
        ancestors.push(n);
      }
      // Branches inside functions only: the routine's code, not the module's top level.
      if (depth === 0 || !lines.has(n.loc!.start.line)) return;
      if (n.type === "IfStatement") {
        wrap(n.consequent as Node, `{ ${probe(n.consequent as Node, "branch")}; `, " }");
        if (n.alternate) wrap(n.alternate as Node, `{ ${probe(n.alternate as Node, "branch")}; `, " }");
      } else if (n.type === "ConditionalExpression") {
        wrap(n.consequent as Node, `(${probe(n.consequent as Node, "branch")}, `, ")");
        wrap(n.alternate as Node, `(${probe(n.alternate as Node, "branch")}, `, ")");
      } else if (n.type === "LogicalExpression") {
        wrap(n.right as Node, `(${probe(n.right as Node, "branch")}, `, ")");
      }
    },
    leave(raw) {
      if (isFunctionNode(raw as unknown as Node)) depth--;
      ancestors.pop();
    },
  });
  return { text: applyInsertions(text, inserts) + recorder(), points };
}

/**
 * "reached only when C is made with its constructor option p, which no code in this module passes": when the
 * code at the end of `path` (the root's descendants down to it) runs only if `this.f` holds (an `&&`'s right, a
 * `?:`'s or an `if`'s consequent under a test whose conjuncts include `this.f`), and class C sets f in its
 * constructor alone, from parameter p with a falsy default or none, and every `new C(…)` of the module leaves p
 * out. Otherwise null.
 */
function optionGuard(root: Node, path: readonly Node[]): string | null {
  for (let i = path.length - 1; i > 0; i--) {
    const [parent, child] = [path[i - 1]!, path[i]!];
    const guard =
      parent.type === "LogicalExpression" && parent.operator === "&&" && parent.right === child
        ? parent.left
        : (parent.type === "ConditionalExpression" || parent.type === "IfStatement") && parent.consequent === child
          ? parent.test
          : null;
    if (!guard) continue;
    const cls = [...path.slice(0, i)].reverse().find((n) => n.type === "ClassDeclaration" || n.type === "ClassExpression");
    if (!cls || !("id" in cls) || !cls.id) continue;
    for (const field of conjuncts(guard as Node).flatMap((c) => (thisField(c) === null ? [] : [thisField(c)!]))) {
      const option = constructorOption(cls, field);
      if (option && !constructedWith(root, cls.id.name, option.index))
        return `reached only when ${cls.id.name} is made with its constructor option ${option.name}, which no code in this module passes`;
    }
  }
  return null;
}

function conjuncts(e: Node): Node[] {
  return e.type === "LogicalExpression" && e.operator === "&&" ? [...conjuncts(e.left as Node), ...conjuncts(e.right as Node)] : [e];
}

/** `this.f` or `this.#f`: "f" or "#f". */
function thisField(e: Node): string | null {
  if (e.type !== "MemberExpression" || e.computed || e.object.type !== "ThisExpression") return null;
  return e.property.type === "PrivateIdentifier" ? `#${e.property.name}` : e.property.type === "Identifier" ? e.property.name : null;
}

/** The constructor parameter that alone sets `field` (`this.f = p`), when its default is falsy or absent. */
function constructorOption(cls: Node, field: string): { name: string; index: number } | null {
  const writes: Node[] = [];
  walk(cls as unknown as EstreeNode, {
    enter(raw) {
      const n = raw as unknown as Node;
      if (
        (n.type === "AssignmentExpression" || n.type === "UpdateExpression") &&
        thisField(n.type === "AssignmentExpression" ? n.left : n.argument) === field
      )
        writes.push(n);
    },
  });
  const body = (cls as Node & { body: { body: Node[] } }).body.body;
  const ctor = body.find((m) => m.type === "MethodDefinition" && m.kind === "constructor") as (Node & { value: Node }) | undefined;
  const w = writes[0];
  if (!ctor || writes.length !== 1 || w?.type !== "AssignmentExpression" || w.operator !== "=" || w.right.type !== "Identifier")
    return null;
  if (!(ctor.value.start <= w.start && w.end <= ctor.value.end)) return null;
  const name = w.right.name;
  const params = (ctor.value as Node & { params: Node[] }).params;
  const index = params.findIndex(
    (p) =>
      (p.type === "AssignmentPattern" ? p.left : p).type === "Identifier" &&
      ((p.type === "AssignmentPattern" ? p.left : p) as { name: string }).name === name,
  );
  if (index < 0) return null;
  const p = params[index]!;
  const falsy =
    p.type !== "AssignmentPattern" ||
    (p.right.type === "Literal" && !p.right.value) ||
    (p.right.type === "Identifier" && p.right.name === "undefined");
  return falsy ? { name, index } : null;
}

/** Whether some `new C(…)` in the module passes an argument at `index` (a spread may). */
function constructedWith(root: Node, name: string, index: number): boolean {
  let found = false;
  walk(root as unknown as EstreeNode, {
    enter(raw) {
      const n = raw as unknown as Node;
      if (n.type === "NewExpression" && n.callee.type === "Identifier" && n.callee.name === name)
        if (n.arguments.length > index || n.arguments.some((a) => a.type === "SpreadElement")) found = true;
    },
  });
  return found;
}

/**
 * The statements inside functions that a changed line belongs to: the innermost one holding the line's first
 * character (a line that continues a statement belongs to it), and every one that starts on the line.
 */
function changedStatements(ast: Node, text: string, lines: ReadonlySet<number>): Set<Node> {
  const starts = lineStarts(text);
  const firstChars = [...lines].flatMap((l) => {
    const from = starts[l - 1];
    if (from === undefined) return [];
    const at = text.slice(from, starts[l] ?? text.length).search(/\S/);
    return at < 0 ? [] : [from + at];
  });
  const statements: Node[] = [];
  let depth = 0;
  walk(ast as unknown as EstreeNode, {
    enter(raw, _parent, key) {
      const n = raw as unknown as Node;
      if (isFunctionNode(n)) depth++;
      // A declaration in a loop's head (`for (let x of xs)`) is part of the loop, not a statement of its own.
      if (depth > 0 && isStatement(n) && key !== "left" && key !== "init") statements.push(n);
    },
    leave(raw) {
      if (isFunctionNode(raw as unknown as Node)) depth--;
    },
  });
  const chosen = new Set<Node>();
  for (const at of firstChars) {
    let best: Node | undefined;
    for (const s of statements) if (s.start <= at && at < s.end && (!best || s.end - s.start < best.end - best.start)) best = s;
    if (best) chosen.add(best);
  }
  for (const s of statements) if (lines.has(s.loc!.start.line)) chosen.add(s);
  return chosen;
}

function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) out.push(i + 1);
  return out;
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

function excerpt(text: string, n: Node): string {
  const one = text.slice(n.start, n.end).replace(/\s+/g, " ").trim();
  return one.length > 80 ? `${one.slice(0, 77)}...` : one;
}
