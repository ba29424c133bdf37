/**
 * What two lifted modules' code says, as material for the witness search: their string literals, regular
 * expressions, numbers and property names, those on lines that differ between the two first, and apart
 * (`changedCode`): the tokens and text of the changed lines alone, which hold the literals that would find the
 * change (a cap `slice(0, 4)`, a threshold `term.length > 3`, a field read `tool.title`). The changed lines are
 * those of the code view's diff (code-diff.ts: the lifted code without provenance, line by line, here with
 * indentation ignored): the lines removed from the first module and added in the second. Read with acorn's
 * tokenizer over the lifted code, and the texts the changed lines test names against (`nameTests`) with its
 * parser, so nothing runs; the same two routines give the same tokens whatever input they were lifted from.
 */
import { parse, tokenizer } from "acorn";
import { walk } from "estree-walker";
import type { Node } from "../ast/pattern.js";
import { diffArrays } from "diff";
import { liftedCode } from "../lift/lift.js";
import type { ChangedCode, CodeTokens, NameTest } from "../routines/contract.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

// Declared with the contract, where the routine packs that read them find them.
export type { ChangedCode, CodeTokens, NameTest };

interface Tok {
  kind: "string" | "number" | "name";
  value: string | number;
  line: number;
  /** A name read as a property: after `.` or `?.`. */
  member?: boolean;
  /** For a member, the name it is read on when that is a name (`mcpInfo` in `entry.mcpInfo.nameKey`). */
  on?: string;
}

function tokens(code: string): Tok[] {
  const out: Tok[] = [];
  let prev = "";
  // The name just before the last `.`/`?.`, when the dot followed a name directly.
  let lastName: string | undefined;
  let onName: string | undefined;
  try {
    for (const tok of tokenizer(code, { ecmaVersion: "latest", sourceType: "module", locations: true })) {
      const t = tok as typeof tok & { value: unknown };
      const label = t.type.label;
      const line = t.loc?.start.line ?? 0;
      const afterDot = prev === "." || prev === "?.";
      let name: string | undefined;
      if (label === "string" || label === "template") out.push({ kind: "string", value: String(t.value), line });
      else if (label === "regexp") out.push({ kind: "string", value: String((t.value as { pattern: string }).pattern), line });
      else if (label === "num" && typeof t.value === "number") out.push({ kind: "number", value: t.value, line });
      else if (label === "name" || (t.type.keyword !== undefined && afterDot)) {
        name = String(t.value);
        out.push({
          kind: "name",
          value: name,
          line,
          ...(afterDot ? { member: true, ...(onName !== undefined ? { on: onName } : {}) } : {}),
        });
      }
      onName = label === "." || label === "?." ? lastName : undefined;
      lastName = name;
      prev = label;
    }
  } catch {
    // A module the tokenizer cannot read gives what was read so far; the search has other sources.
  }
  return out;
}

/** Property names of the built-ins a routine calls on strings, arrays, regexes, maps and promises. */
const BUILT_IN_MEMBERS: ReadonlySet<string> = new Set([
  ...[String.prototype, Array.prototype, RegExp.prototype, Object.prototype, Map.prototype, Set.prototype, Promise.prototype].flatMap((p) =>
    Object.getOwnPropertyNames(p),
  ),
  ...Object.getOwnPropertyNames(Math),
  ...Object.getOwnPropertyNames(JSON),
  ...["from", "of", "isArray", "keys", "values", "entries", "assign", "fromEntries", "all", "allSettled", "resolve", "parseInt"],
  ...["parseFloat", "isInteger", "isFinite", "isNaN", "raw", "fromCharCode", "fromCodePoint"],
]);

const MAX_CHANGED_LINES = 400;
const MAX_NAME_TESTS = 16;
/** Edits beyond which the line diff gives up (deterministically) and a line counts as changed when its text is
 *  found nowhere in the other module: two unrelated routines are compared in a bounded time. */
const MAX_EDITS = 20_000;

/** For each module, whether each line (1-based) is one the diff removes (first module) or adds (second). */
function changedLineSets(ca: string, cb: string): [Set<number>, Set<number>] {
  const [la, lb] = [ca.split("\n").map((l) => l.trim()), cb.split("\n").map((l) => l.trim())];
  const parts = diffArrays(la, lb, { maxEditLength: MAX_EDITS });
  const [ra, rb] = [new Set<number>(), new Set<number>()];
  if (parts === undefined) {
    const [sa, sb] = [new Set(la), new Set(lb)];
    la.forEach((l, i) => !sb.has(l) && ra.add(i + 1));
    lb.forEach((l, i) => !sa.has(l) && rb.add(i + 1));
    return [ra, rb];
  }
  let [ia, ib] = [1, 1];
  for (const p of parts) {
    const n = p.value.length;
    if (p.removed) for (let k = 0; k < n; k++) ra.add(ia + k);
    if (p.added) for (let k = 0; k < n; k++) rb.add(ib + k);
    if (!p.added) ia += n;
    if (!p.removed) ib += n;
  }
  return [ra, rb];
}

/** The tokens of both modules, those on lines the diff of the two changes first. */
export function codeTokens(a: string, b: string): CodeTokens {
  const [ca, cb] = [liftedCode(a), liftedCode(b)];
  const [changedA, changedB] = changedLineSets(ca, cb);
  const all: Array<Tok & { changed: boolean }> = [];
  const lines: string[] = [];
  for (const [code, changed] of [
    [ca, changedA],
    [cb, changedB],
  ] as const) {
    for (const t of tokens(code)) all.push({ ...t, changed: changed.has(t.line) });
    const text = code.split("\n");
    for (const n of [...changed].sort((x, y) => x - y)) {
      const line = text[n - 1]?.trim();
      if (line && lines.length < MAX_CHANGED_LINES) lines.push(line);
    }
  }
  const nameTests = [...nameTestsOf(ca, changedA), ...nameTestsOf(cb, changedB)];
  const inChanged = all.filter((t) => t.changed);
  const ordered = [...inChanged, ...all.filter((t) => !t.changed)];
  const pick = <T>(ts: typeof all, kind: Tok["kind"]) => [...new Set(ts.filter((t) => t.kind === kind).map((t) => t.value as T))];
  return {
    strings: pick<string>(ordered, "string"),
    numbers: pick<number>(ordered, "number"),
    names: pick<string>(ordered, "name"),
    changed: inChanged.length,
    changedCode: {
      strings: pick<string>(inChanged, "string"),
      numbers: pick<number>(inChanged, "number"),
      names: pick<string>(inChanged, "name"),
      members: [...new Set(inChanged.filter((t) => t.member && !BUILT_IN_MEMBERS.has(t.value as string)).map((t) => t.value as string))],
      paths: [
        ...new Set(
          inChanged.filter((t) => t.on !== undefined && !BUILT_IN_MEMBERS.has(t.value as string)).map((t) => `${t.on}.${String(t.value)}`),
        ),
      ],
      nameTests: [...new Map(nameTests.map((n) => [`${n.test} ${n.text}`, n])).values()].slice(0, MAX_NAME_TESTS),
      lines: [...new Set(lines)],
    },
  };
}

// indexOf and split look for a part too: where a name is cut (`name.indexOf("__", prefix.length)`).
const TEST_METHODS: Record<string, NameTest["test"]> = {
  startsWith: "prefix",
  endsWith: "suffix",
  includes: "part",
  indexOf: "part",
  lastIndexOf: "part",
  split: "part",
};

/**
 * The texts the code on `lines` tests strings against (ChangedCode.nameTests), in the order of the code. Constants
 * are the module's `let`/`const` names bound once to a text (a literal, or a template or `+` of such names and
 * literals), wherever declared. A module the parser cannot read gives none.
 */
function nameTestsOf(code: string, lines: ReadonlySet<number>): NameTest[] {
  if (lines.size === 0) return [];
  let program: Node;
  try {
    program = parse(code, { ecmaVersion: "latest", sourceType: "module", locations: true });
  } catch {
    return [];
  }
  const inits = new Map<string, Node | null>();
  walk(toEstree(program), {
    enter(raw) {
      const n = fromEstree(raw);
      if (n.type === "VariableDeclarator" && n.id.type === "Identifier")
        inits.set(n.id.name, inits.has(n.id.name) ? null : (n.init ?? null));
    },
  });
  const text = (e: Node | null | undefined, depth = 0): string | null => {
    if (!e || depth > 8) return null;
    switch (e.type) {
      case "Literal":
        return typeof e.value === "string" ? e.value : null;
      case "Identifier":
        return text(inits.get(e.name), depth + 1);
      case "TemplateLiteral": {
        let out = e.quasis[0]!.value.cooked ?? "";
        for (let i = 0; i < e.expressions.length; i++) {
          const part = text(e.expressions[i], depth + 1);
          if (part === null) return null;
          out += part + (e.quasis[i + 1]!.value.cooked ?? "");
        }
        return out;
      }
      case "BinaryExpression": {
        if (e.operator !== "+") return null;
        const [l, r] = [text(e.left, depth + 1), text(e.right, depth + 1)];
        return l === null || r === null ? null : l + r;
      }
      default:
        return null;
    }
  };
  const out: NameTest[] = [];
  walk(toEstree(program), {
    enter(raw) {
      const n = fromEstree(raw);
      if (!lines.has(n.loc?.start.line ?? 0)) return;
      if (
        n.type === "CallExpression" &&
        n.callee.type === "MemberExpression" &&
        !n.callee.computed &&
        n.callee.property.type === "Identifier"
      ) {
        const test = Object.hasOwn(TEST_METHODS, n.callee.property.name) ? TEST_METHODS[n.callee.property.name]! : null;
        const t = test && n.arguments.length >= 1 ? text(n.arguments[0]) : null;
        if (test && t) out.push({ test, text: t });
      }
      if (n.type === "BinaryExpression" && ["===", "!==", "==", "!="].includes(n.operator)) {
        const t = text(n.left) ?? text(n.right);
        if (t) out.push({ test: "equal", text: t });
      }
    },
  });
  return out;
}
