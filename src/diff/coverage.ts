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
 * (each arm of the `?:` gets its own probe too). A branch that ran is not yet a condition that mattered: the
 * tests on those lines (the operands of `&&`/`||`/`??`, `if` and `?:` tests, what a `.some`/`.filter`/… callback
 * returns) each get two points, seen true and seen false, and an operand the other module's chain lacks (a new
 * disjunct or conjunct) a third, seen deciding its chain — the one case in which it changes anything. What is
 * never reached is named by its line, so that "no difference found" can say whether the changed code ran at
 * all, and each way that matters. A point the contract's functions can never run (reachability.ts) says why,
 * and is counted apart.
 */
import { parse } from "acorn";
import { diffLines } from "diff";
import { walk } from "estree-walker";
import type { Node } from "../ast/pattern.js";
import { conditionLeaf, isFunctionNode, operandTexts, type Leaf } from "./condition-leaves.js";
import { pureExpression, regexReceivers } from "./pure-expressions.js";
import { Reachability, type Outcome } from "./reachability.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** The probe's name in an instrumented module: reserved, no lifted module uses it. */
export const REACH = "__searchliftReach";
/** The recorder's export: called with a call's index before the call, and with nothing to read the probes reached. */
export const COVERAGE_EXPORT = "__searchliftCoverage";
/** The condition probes' names (reserved too): an outcome, a new operand's deciding, regexes kept as they were. */
const COND = "__searchliftCond";
const DECIDE = "__searchliftDecide";
const KEEP = "__searchliftKeep";
/** The comparison log's name (reserved too): passes an operand on as it was, keeping the strings seen. */
const SEEN = "__searchliftSeen";
/** The same for the members of a Set or an array looked in (`shellWords.has(word)`: the words it looks for). */
const SEEN_ALL = "__searchliftSeenAll";
/** The methods whose argument the changed code compares a value against (a name looked up, a prefix tested). */
const COMPARING = new Set(["includes", "startsWith", "endsWith", "has", "get", "indexOf"]);

export interface ChangedPoint {
  /** 1-based line in the module's text. */
  line: number;
  /** A condition point is one outcome of a test on a changed line: its operand seen true, seen false, or seen
   *  deciding its `&&`/`||` (conditionPoints). */
  kind: "statement" | "branch" | "condition";
  /** The code at the point, on one line, at most 80 characters. */
  code: string;
  /** For a condition point, the outcome it stands for ("never false", "never seen deciding …"). */
  why?: string;
  /** Why the contract's functions can never run the point, from what the module itself states
   *  (reachability.ts): "reachable only when … — the tool search …". Such a point is not counted as code
   *  the search must see; a point that is merely hard to reach has none. */
  unreachable?: string;
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
  /** Among those of one span: the order of the wraps, so that they nest. */
  seq?: number;
}

/**
 * Probes at the changed lines of `text`: each innermost statement on such a line, the arms of its branches, and
 * the outcomes of its conditions (conditionLeaf). `counterpart`, the other module's text, tells which operands of
 * an `&&`/`||` are new: one it does not have, in a chain whose other operands it has.
 */
export function instrument(text: string, lines: ReadonlySet<number>, counterpart?: string): Instrumented {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module", locations: true, ranges: true });
  const points: ChangedPoint[] = [];
  const inserts: Insertion[] = [];
  const ancestors: Node[] = [];
  const otherOperands = counterpart === undefined ? null : operandTexts(counterpart);
  const reach = new Reachability(text, ast);
  const point = (n: Node, kind: ChangedPoint["kind"], why?: string, need?: Outcome) => {
    const unreachable = reach.unreachable(ancestors.at(-1) === n ? ancestors : [...ancestors, n], need);
    points.push({
      line: n.loc!.start.line,
      kind,
      code: excerpt(text, n),
      ...(why ? { why } : {}),
      ...(unreachable ? { unreachable } : {}),
    });
    return points.length - 1;
  };
  const probe = (n: Node, kind: ChangedPoint["kind"]) => `${REACH}(${point(n, kind)})`;
  // Wraps made first are outermost: openers in the order made, closers in the reverse.
  const wrap = (n: Node, open: string, close: string) => {
    const span = n.end - n.start;
    const seq = inserts.length;
    inserts.push({ at: n.start, text: open, order: -span, seq }, { at: n.end, text: close, order: span, seq: -seq });
  };
  /** An operand's outcomes: seen true and seen false (for `??`'s left, set and null); and for a new operand of an
   *  `&&`/`||`, seen deciding it: true while the operands after it are false (`||`), false while they are true (`&&`). */
  const condition = (n: Node, leaf: Leaf) => {
    const words: [string, string] = leaf.nullish
      ? ["never set (always null or undefined)", "never null or undefined"]
      : ["never true", "never false"];
    if (leaf.decides) {
      const { op, rest } = leaf.decides;
      const seen = op === "||" ? "true while the rest of it was false" : "false while the rest of it was true";
      const pure = rest.every((r) => pureExpression(r, false));
      const d = point(
        n,
        "condition",
        `never seen deciding its \`${op}\` (${seen})${pure ? "" : "; not checked: the rest may change state"}`,
        op === "||" ? "decides||" : "decides&&",
      );
      if (pure) {
        const receivers = [...new Set(rest.flatMap((r) => regexReceivers(r)).map((r) => text.slice(r.start, r.end)))];
        // The last operand has no rest: `||`'s is false, `&&`'s true, and the operand alone decides.
        const restText = rest.length ? rest.map((r) => `(${text.slice(r.start, r.end)})`).join(` ${op} `) : op === "||" ? "false" : "true";
        const thunk = `() => ${KEEP}([${receivers.join(", ")}], () => ${restText})`;
        wrap(n, `${DECIDE}(${d}, (`, `), ${op === "||" ? 1 : 0}, ${thunk})`);
      }
    }
    const i = point(n, "condition", words[0], leaf.nullish ? "set" : "true");
    point(n, "condition", words[1], leaf.nullish ? "nullish" : "false");
    wrap(n, `${COND}(${i}, (`, `), ${leaf.nullish ? 1 : 0})`);
  };
  const chosen = changedStatements(ast, text, lines);
  let depth = 0;
  walk(toEstree(ast), {
    enter(raw, parent, key) {
      const n = fromEstree(raw);
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
      const leaf = conditionLeaf(text, ancestors, key as string, otherOperands);
      if (leaf) condition(n, leaf);
      for (const operand of comparedOperands(n)) wrap(operand, `${SEEN}(`, ")");
      const held = searchedCollection(n);
      if (held) wrap(held, `${SEEN_ALL}(`, ")");
      if (n.type === "IfStatement") {
        wrap(n.consequent, `{ ${probe(n.consequent, "branch")}; `, " }");
        if (n.alternate) wrap(n.alternate, `{ ${probe(n.alternate, "branch")}; `, " }");
      } else if (n.type === "ConditionalExpression") {
        wrap(n.consequent, `(${probe(n.consequent, "branch")}, `, ")");
        wrap(n.alternate, `(${probe(n.alternate, "branch")}, `, ")");
      } else if (n.type === "LogicalExpression") {
        wrap(n.right, `(${probe(n.right, "branch")}, `, ")");
      }
    },
    leave(raw) {
      if (isFunctionNode(fromEstree(raw))) depth--;
      ancestors.pop();
    },
  });
  return { text: applyInsertions(text, inserts) + recorder(), points };
}

/**
 * The operands of a comparison the changed code makes, whose strings the search then puts in its calls (the
 * comparison log of input-to-state fuzzing): both sides of `===`/`!==`/`==`/`!=`, and the argument of a lookup
 * or a test (`names.includes(copyName(name))`, `map.get(term)`, `name.startsWith(prefix)`).
 */
function comparedOperands(n: Node): Node[] {
  if (n.type === "BinaryExpression" && ["===", "!==", "==", "!="].includes(n.operator))
    return [n.left as Node, n.right].filter((x) => x.type !== "Literal" && x.type !== "PrivateIdentifier");
  if (n.type !== "CallExpression" || n.callee.type !== "MemberExpression" || n.callee.computed) return [];
  const method = n.callee.property.type === "Identifier" ? n.callee.property.name : "";
  const first = n.arguments[0];
  return COMPARING.has(method) && first && first.type !== "SpreadElement" && first.type !== "Literal" ? [first] : [];
}

/** The collection a `has`/`includes` call looks in, when it is named (`shellWords.has(w)`, `this.#names.includes(n)`). */
function searchedCollection(n: Node): Node | null {
  if (n.type !== "CallExpression" || n.callee.type !== "MemberExpression" || n.callee.computed || n.callee.optional) return null;
  const method = n.callee.property.type === "Identifier" ? n.callee.property.name : "";
  const recv = n.callee.object as Node;
  const named = recv.type === "Identifier" || (recv.type === "MemberExpression" && !recv.computed && recv.object.type === "ThisExpression");
  return (method === "has" || method === "includes") && named ? recv : null;
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
  walk(toEstree(ast), {
    enter(raw, _parent, key) {
      const n = fromEstree(raw);
      if (isFunctionNode(n)) depth++;
      // A declaration in a loop's head (`for (let x of xs)`) is part of the loop, not a statement of its own.
      if (depth > 0 && isStatement(n) && key !== "left" && key !== "init") statements.push(n);
    },
    leave(raw) {
      if (isFunctionNode(fromEstree(raw))) depth--;
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

/**
 * The recorder, at the end of the module (hoisted declarations): which probes ran, and the first call to reach
 * each. A condition's probe passes its value on as it was; a new operand's deciding is checked by running the
 * rest of its chain (pure, regexes' lastIndex put back) only until it is first seen, and a throw there counts as
 * not deciding. A compared operand's strings (and the first 16 of a Set or an array looked in) are kept with the first calls that made each (at most 256 strings of
 * at most 120 characters, 4 calls each), read with the argument "seen".
 */
function recorder(): string {
  return `
var __searchliftReached = new Map(), __searchliftCall = -1;
function ${REACH}(i) { if (!__searchliftReached.has(i)) __searchliftReached.set(i, __searchliftCall); }
function ${COND}(i, v, nullish) { ${REACH}((nullish ? v != null : v) ? i : i + 1); return v; }
function ${DECIDE}(i, v, or, rest) {
  if ((or ? v : !v) && !__searchliftReached.has(i)) {
    let r;
    try { r = rest(); } catch { return v; }
    if (or ? !r : r) ${REACH}(i);
  }
  return v;
}
function ${KEEP}(rs, f) {
  var kept = rs.map((r) => (r instanceof RegExp ? r.lastIndex : 0));
  try { return f(); } finally { rs.forEach((r, k) => { if (r instanceof RegExp) r.lastIndex = kept[k]; }); }
}
var __searchliftSeenStrings = new Map();
function ${SEEN}(v) {
  if (typeof v !== "string" || v.length === 0 || v.length > 120) return v;
  var calls = __searchliftSeenStrings.get(v);
  if (calls === undefined && __searchliftSeenStrings.size < 256) __searchliftSeenStrings.set(v, [__searchliftCall]);
  else if (calls !== undefined && calls.length < 4 && calls[calls.length - 1] !== __searchliftCall) calls.push(__searchliftCall);
  return v;
}
function ${SEEN_ALL}(c) {
  if (c instanceof Set || Array.isArray(c)) {
    var k = 0;
    for (var x of c) {
      if (k++ >= 16) break;
      ${SEEN}(x);
    }
  }
  return c;
}
function ${COVERAGE_EXPORT}(call) {
  if (call === undefined) return [...__searchliftReached];
  if (call === "seen") return [...__searchliftSeenStrings];
  __searchliftCall = call;
}
export { ${COVERAGE_EXPORT} };
`;
}

function applyInsertions(text: string, inserts: Insertion[]): string {
  const sorted = inserts
    .map((x, i) => ({ ...x, i }))
    .sort((x, y) => x.at - y.at || x.order - y.order || (x.seq ?? 0) - (y.seq ?? 0) || x.i - y.i);
  let out = "";
  let at = 0;
  for (const x of sorted) {
    out += text.slice(at, x.at) + x.text;
    at = x.at;
  }
  return out + text.slice(at);
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
