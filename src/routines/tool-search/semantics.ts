/**
 * The semantic view of `searchlift diff`: the scoring weights and matching features of a lifted
 * tool-search module, read structurally from its code (acorn over the module text) — never from a
 * table of releases. A rule is an `if (<test>) score += <weight>` in the release's code; the test
 * says which rule it is (`parts.includes(term)`, `coarseParts.some(…)`, `full.includes(term)`, a
 * word-boundary RegExp over the searchHint or the description, …) and the weight may depend on
 * `isMcp`. Features are shapes: `startsWith("+")`, `startsWith("mcp__")` guarding a prefix filter,
 * `split(",")` on the `select:` match, numeric caps on the query, its words and the select list.
 */
import { parse } from "acorn";
import type { SemanticRow, Semantics } from "../pack.js";
import "../../ast/acorn-warm.js"; // before any parse: see acorn-warm.ts
import { type Node, memberName, walk } from "../../ast/pattern.js";
import { capKind, Context, isMethod, hasCall, isLoweredLookup, isLoweredName, propName, oneLine } from "./semantics-context.js";

/** One row per weight or feature, in a fixed order; weights absent are "—", features absent "no". */
export type { Semantics, SemanticRow };

const WEIGHTS: Array<[key: string, label: string]> = [
  ["name-equal", "weight: name equals term (first generation)"],
  ["name-contains", "weight: name contains term (first generation)"],
  ["server-exact", "weight: server name equals term"],
  ["server-substring", "weight: server name contains term"],
  ["action-exact", "weight: action word equals term"],
  ["action-substring", "weight: action word contains term"],
  ["part-exact:mcp", "weight: exact part (MCP)"],
  ["part-exact:builtin", "weight: exact part (built-in)"],
  ["part-substring:mcp", "weight: substring part (MCP)"],
  ["part-substring:builtin", "weight: substring part (built-in)"],
  ["coarse-exact:mcp", "weight: coarse part exact (MCP)"],
  ["coarse-exact:builtin", "weight: coarse part exact (built-in)"],
  ["coarse-substring:mcp", "weight: coarse part substring (MCP)"],
  ["coarse-substring:builtin", "weight: coarse part substring (built-in)"],
  ["fullname-fallback", "weight: full-name fallback"],
  ["hint-word", "weight: searchHint word"],
  ["description", "weight: description match"],
];

const FEATURES = [
  "searches",
  "select: lookup",
  "select: comma list",
  "select: by alias",
  "+required terms",
  "mcp__ prefix fast path",
  "exact-name fast path",
  "exact-name fast path: loaded tools too",
  "select: loaded tools too",
  "searchHint",
  "coarse parts",
  "word-boundary description match",
  "query cap (characters)",
  "query cap (words)",
  "select: cap (names)",
  "searchHint cap (characters)",
  "default max results",
] as const;

type Feature = (typeof FEATURES)[number];

export function semanticDiff(a: Semantics, b: Semantics): SemanticRow[] {
  const before = new Map(a.map((r) => [r.feature, r.value]));
  const after = new Map(b.map((r) => [r.feature, r.value]));
  const order = [...new Set([...a.map((r) => r.feature), ...b.map((r) => r.feature)])];
  return order.map((feature) => {
    const absent = feature.startsWith("weight:") ? "—" : "no";
    const x = before.get(feature) ?? absent;
    const y = after.get(feature) ?? absent;
    return { feature, before: x, after: y, changed: x !== y };
  });
}

/** The weights and features of one lifted module's text. */
export function moduleSemantics(text: string): Semantics {
  const program = parse(text, { ecmaVersion: "latest", sourceType: "module" });
  const ctx = new Context(text, program);
  const root = ctx.factory ?? program;
  const scores = scoreWeights(ctx, root, text);
  const code = codeFeatures(ctx, root, text);
  const features = featureValues(code, scores.descriptionKind);
  const value = (s: Set<number>) => [...s].join(" / ");
  const rows: Semantics = [];
  for (const [key, label] of WEIGHTS) rows.push({ feature: label, value: scores.weights.has(key) ? value(scores.weights.get(key)!) : "—" });
  for (const [label, s] of [...scores.other].sort(([x], [y]) => x.localeCompare(y))) rows.push({ feature: label, value: value(s) });
  for (const f of FEATURES) rows.push({ feature: f, value: features.get(f) ?? "no" });
  // Only where the module reads some: the table of every other module stays as it was.
  const fields = passedToolFields(program);
  if (fields.length > 0) rows.push({ feature: TOOL_FIELDS_FEATURE, value: fields.join(", ") });
  return rows;
}

/** The row of the tool fields a module reads beyond the contract's (provenance.toolFields). */
export const TOOL_FIELDS_FEATURE = "tool fields read beyond the contract";

/** The fields the contract's adapter passes, `if (tool.x !== undefined) seen.x = tool.x;` in releaseTool. */
const ADAPTER_FIELDS = new Set(["searchHint", "mcpInfo", "aliases"]);

/**
 * The tool fields a lifted module passes to its release beyond the contract's: the adapter's lines
 * `if (tool.x !== undefined) seen.x = tool.x;` in `releaseTool` (tool-search-code.ts), and the properties read
 * inside a contract field that provenance.toolFields lists (`mcpInfo.nameKey`), sorted.
 */
export function passedToolFields(program: Node): string[] {
  const out = new Set<string>();
  // Properties read inside a contract field (`mcpInfo.nameKey`) pass with the field: provenance.toolFields names them.
  for (const s of (program as unknown as { body: Node[] }).body) {
    const d = s.type === "VariableDeclaration" ? s.declarations[0] : undefined;
    if (d?.id.type !== "Identifier" || d.id.name !== "provenance" || d.init?.type !== "ObjectExpression") continue;
    for (const p of d.init.properties)
      if (
        p.type === "Property" &&
        (p.key.type === "Literal" ? p.key.value : p.key.type === "Identifier" ? p.key.name : null) === "toolFields" &&
        p.value.type === "ArrayExpression"
      )
        for (const e of p.value.elements)
          if (e?.type === "Literal" && typeof e.value === "string" && e.value.includes(".")) out.add(e.value);
  }
  const adapter = (program as unknown as { body: Node[] }).body.find(
    (s) => s.type === "FunctionDeclaration" && s.id?.name === "releaseTool",
  );
  if (!adapter) return [...out].sort();
  walk(adapter, (n) => {
    if (n.type !== "IfStatement" || n.test.type !== "BinaryExpression" || n.test.operator !== "!==") return;
    const read = n.test.left;
    if (read.type !== "MemberExpression" || read.computed || read.object.type !== "Identifier" || read.object.name !== "tool") return;
    const name = memberName(read);
    const c = n.consequent.type === "ExpressionStatement" ? n.consequent.expression : null;
    if (c?.type !== "AssignmentExpression" || c.left.type !== "MemberExpression" || memberName(c.left) !== name) return;
    if (name && !ADAPTER_FIELDS.has(name)) out.add(name);
  });
  return [...out].sort();
}

/** The tool fields one module reads and the other does not, as a row and sentences for diff. */
export function inputChanges(before: string, after: string): { rows: SemanticRow[]; sentences: string[] } {
  const read = (text: string) => {
    try {
      return passedToolFields(parse(text, { ecmaVersion: "latest", sourceType: "module" }));
    } catch {
      return [];
    }
  };
  const [a, b] = [read(before), read(after)];
  if (a.length === 0 && b.length === 0) return { rows: [], sentences: [] };
  const shown = (fs: string[]) => (fs.length === 0 ? "none" : fs.join(", "));
  const row: SemanticRow = { feature: TOOL_FIELDS_FEATURE, before: shown(a), after: shown(b), changed: shown(a) !== shown(b) };
  const quoted = (fs: string[]) => fs.map((f) => `\`${f}\``).join(", ");
  const field = (fs: string[]) => (fs.length === 1 ? "field" : "fields");
  const added = b.filter((f) => !a.includes(f));
  const gone = a.filter((f) => !b.includes(f));
  const sentences = [
    ...(added.length > 0
      ? [`now reads the tool ${field(added)} ${quoted(added)}, which the contract does not name (passed through as given)`]
      : []),
    ...(gone.length > 0 ? [`no longer reads the tool ${field(gone)} ${quoted(gone)}`] : []),
  ];
  return { rows: [row], sentences };
}

/** The score rules' weights by what they match (`weights`), those of rules not recognised (`other`, by
 *  their condition), and how descriptions are matched, when a rule shows it. */
function scoreWeights(ctx: Context, root: Node, text: string) {
  const weights = new Map<string, Set<number>>();
  const other = new Map<string, Set<number>>();
  let descriptionKind: "word" | "substring" | null = null;
  const add = (m: Map<string, Set<number>>, key: string, n: number) => {
    if (!m.has(key)) m.set(key, new Set());
    m.get(key)!.add(n);
  };

  walk(root, (n) => {
    if (n.type !== "IfStatement") return;
    const rule = scoreRule(n.consequent, (x) => ctx.number(x));
    if (!rule) return;
    const c = ctx.classify(n.test, rule.target);
    if (c.descriptionKind) descriptionKind ??= c.descriptionKind;
    if (!c.key) {
      for (const w of rule.weights)
        add(
          other,
          `weight: other rule if (${oneLine(text.slice(n.test.start, n.test.end))})${w.mcp === undefined ? "" : w.mcp ? " (MCP)" : " (built-in)"}`,
          w.n,
        );
      return;
    }
    const split = ["part-exact", "part-substring", "coarse-exact", "coarse-substring"].includes(c.key);
    for (const w of rule.weights) {
      if (!split) add(weights, c.key, w.n);
      else if (w.mcp === undefined) {
        add(weights, `${c.key}:mcp`, w.n);
        add(weights, `${c.key}:builtin`, w.n);
      } else add(weights, `${c.key}:${w.mcp ? "mcp" : "builtin"}`, w.n);
    }
  });
  return { weights, other, descriptionKind: descriptionKind as "word" | "substring" | null };
}

/** What the code shows, node by node, before it is worded as feature rows (featureValues). */
interface CodeFeatures {
  resultKeys: Set<string>;
  selectRegex: boolean;
  selectList: boolean;
  aliases: boolean;
  required: boolean;
  prefixFastPath: boolean;
  exactFastPath: boolean;
  exactLoadedToo: boolean;
  selectLoadedToo: boolean;
  hint: boolean;
  coarse: boolean;
  boundaryRegExp: boolean;
  caps: Partial<Record<"chars" | "words" | "select" | "hint", Set<number>>>;
  defaultMax: number | undefined;
}

function codeFeatures(ctx: Context, root: Node, text: string): CodeFeatures {
  const f: CodeFeatures = {
    resultKeys: new Set<string>(),
    selectRegex: false,
    selectList: false,
    aliases: false,
    required: false,
    prefixFastPath: false,
    exactFastPath: false,
    exactLoadedToo: false,
    selectLoadedToo: false,
    hint: false,
    coarse: false,
    boundaryRegExp: false,
    caps: {},
    defaultMax: undefined,
  };
  const addCap = (kind: keyof CodeFeatures["caps"], n: number) => (f.caps[kind] ??= new Set()).add(n);

  walk(root, (n) => {
    if (n.type === "Property" && !n.computed) {
      const k = propName(n.key);
      if (k) f.resultKeys.add(k);
      if (k === "max_results" && n.value.type === "AssignmentPattern") f.defaultMax ??= ctx.number(n.value.right);
    }
    if (n.type === "Literal" && n.regex && /^\^select:/i.test(n.regex.pattern)) f.selectRegex = true;
    if (n.type === "MemberExpression" && !n.computed) {
      const p = memberName(n);
      if (p === "aliases") f.aliases = true;
      if (p === "searchHint") f.hint = true;
      if (p === "coarseParts") f.coarse = true;
    }
    if (n.type === "NewExpression" && n.callee.type === "Identifier" && n.callee.name === "RegExp" && n.arguments[0]) {
      if (/\\\\b/.test(text.slice(n.arguments[0].start, n.arguments[0].end))) f.boundaryRegExp = true;
    }
    if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && !n.callee.computed) {
      const method = memberName(n.callee);
      const arg0 = n.arguments[0];
      if (method === "split" && arg0?.type === "Literal" && arg0.value === "," && ctx.origins(n.callee.object).has("select"))
        f.selectList = true;
      if (method === "startsWith" && arg0?.type === "Literal" && arg0.value === "+") f.required = true;
      if ((method === "slice" || method === "substring") && n.arguments.length === 2 && ctx.number(arg0) === 0) {
        const cap = ctx.number(n.arguments[1]);
        const kind = cap === undefined ? undefined : capKind(ctx.origins(n.callee.object));
        if (kind) addCap(kind, cap!);
      }
    }
    if (n.type === "BinaryExpression" && [">", ">=", "<", "<="].includes(n.operator)) {
      for (const [side, other] of [
        [n.left, n.right],
        [n.right, n.left],
      ] as Array<[Node, Node]>) {
        if (side.type !== "MemberExpression" || side.computed || memberName(side) !== "length") continue;
        const cap = ctx.number(other);
        // Small numbers compared with lengths are shapes ("mcp__".length, "+x"), not caps.
        if (cap === undefined || cap < 16) continue;
        const kind = capKind(ctx.origins(side.object));
        if (kind) addCap(kind, n.operator === ">=" || n.operator === "<" ? cap - 1 : cap);
      }
    }
    fastPaths(ctx, n, f);
  });
  if (f.defaultMax === undefined) f.defaultMax = ctx.defaultsMaxResults();
  return f;
}

/** The fast paths and second lookups one node shows (part of codeFeatures' walk). */
function fastPaths(ctx: Context, n: Node, f: CodeFeatures): void {
  if (
    n.type === "IfStatement" &&
    hasCall(n.test, (c) => isMethod(c, "startsWith") && c.arguments[0]?.type === "Literal" && c.arguments[0].value === "mcp__")
  ) {
    if (hasCall(n.consequent, (c) => isMethod(c, "startsWith") && c.arguments[0] !== undefined && c.arguments[0].type !== "Literal"))
      f.prefixFastPath = true;
  }
  // `lookup(deferred, key) ?? lookup(all, key)`: a second place to look.
  if (
    n.type === "LogicalExpression" &&
    (n.operator === "??" || n.operator === "||") &&
    ctx.isNameLookup(n.left) &&
    ctx.isNameLookup(n.right)
  ) {
    if (isLoweredLookup(n.left) || isLoweredLookup(n.right)) f.exactLoadedToo = true;
    else if (ctx.origins(n.left).has("select")) f.selectLoadedToo = true;
  }
  if ((n.type === "ArrowFunctionExpression" || n.type === "FunctionExpression") && n.params.length === 1) {
    const body =
      n.body.type === "BlockStatement" && n.body.body.length === 1 && n.body.body[0]?.type === "ReturnStatement"
        ? n.body.body[0].argument
        : n.body;
    if (body?.type === "BinaryExpression" && body.operator === "===" && (isLoweredName(body.left) || isLoweredName(body.right)))
      f.exactFastPath = true;
  }
}

/** The feature rows' values, worded. */
function featureValues(f: CodeFeatures, descriptionKind: "word" | "substring" | null): Map<Feature, string> {
  const features = new Map<Feature, string>();
  const yes = (k: Feature, v: boolean) => features.set(k, v ? "yes" : "no");
  features.set(
    "searches",
    f.resultKeys.has("total_mcp_tools") ? "MCP tools" : f.resultKeys.has("total_deferred_tools") ? "deferred tools" : "—",
  );
  yes("select: lookup", f.selectRegex);
  yes("select: comma list", f.selectList);
  yes("select: by alias", f.selectRegex && f.aliases);
  yes("+required terms", f.required);
  yes("mcp__ prefix fast path", f.prefixFastPath);
  yes("exact-name fast path", f.exactFastPath);
  yes("exact-name fast path: loaded tools too", f.exactFastPath && f.exactLoadedToo);
  yes("select: loaded tools too", f.selectRegex && f.selectLoadedToo);
  yes("searchHint", f.hint);
  yes("coarse parts", f.coarse);
  yes("word-boundary description match", descriptionKind ? descriptionKind === "word" : f.boundaryRegExp);
  const capValue = (s: Set<number> | undefined) => (s ? [...s].sort((x, y) => x - y).join(" / ") : "no");
  features.set("query cap (characters)", capValue(f.caps.chars));
  features.set("query cap (words)", capValue(f.caps.words));
  features.set("select: cap (names)", capValue(f.caps.select));
  features.set("searchHint cap (characters)", capValue(f.caps.hint));
  features.set("default max results", f.defaultMax === undefined ? "—" : String(f.defaultMax));
  return features;
}

interface Weight {
  n: number;
  /** true: MCP tools only; false: built-ins only; undefined: both. */
  mcp?: boolean;
}

/** `score += N` or `score += x.isMcp ? A : B` (alone, or alone in a block). */
function scoreRule(s: Node, number: (n: Node) => number | undefined): { target: string; weights: Weight[] } | null {
  if (s.type === "BlockStatement" && s.body.length === 1) s = s.body[0]!;
  if (s.type !== "ExpressionStatement") return null;
  const e = s.expression;
  if (e.type !== "AssignmentExpression" || e.operator !== "+=" || e.left.type !== "Identifier") return null;
  const r = e.right;
  const n = number(r);
  if (n !== undefined) return { target: e.left.name, weights: [{ n }] };
  if (r.type === "ConditionalExpression") {
    const mcp = number(r.consequent);
    const builtin = number(r.alternate);
    if (mcp === undefined || builtin === undefined) return null;
    let isMcp = false;
    walk(r.test, (n) => {
      if (
        (n.type === "Identifier" && /mcp/i.test(n.name)) ||
        (n.type === "MemberExpression" && !n.computed && /mcp/i.test(memberName(n) ?? ""))
      )
        isMcp = true;
    });
    if (!isMcp) return null;
    return {
      target: e.left.name,
      weights: [
        { n: mcp, mcp: true },
        { n: builtin, mcp: false },
      ],
    };
  }
  return null;
}
