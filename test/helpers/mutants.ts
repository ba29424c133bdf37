/**
 * The mutation corpus (issue 39): future-shaped edits to the tool-search scorer of a release, made as splices
 * of its source text at AST node positions. Each mutant is one plausible change a maintainer might ship —
 * a weight that depends on a second condition, a tie-breaker, a clause on a field no release reads, a loop
 * rewritten, a helper split out or inlined, a function turned into a class method — labelled by construction
 * as changing the routine's behaviour or as a pure refactor. Every edit is found structurally in the located
 * scorer (its term loop, its score variable, its result sort), never by a release's literal text, so the same
 * generator runs on the sample releases and on real ones whose names are minified. Deterministic: the same
 * base gives the same mutants on every run. samples/mutants/README.md describes the kinds.
 */
import * as acorn from "acorn";
import { analyze } from "eslint-scope";

export type MutantKind =
  | "weight-literal"
  | "weight-condition"
  | "sort-order"
  | "clause-existing-field"
  | "clause-new-field"
  | "cap"
  | "loop-rewrite"
  | "helper-split"
  | "helper-inline"
  | "class-method"
  | "scorer-method"
  | "rename-marker"
  | "fast-path";

export const MUTANT_KINDS: readonly MutantKind[] = [
  "weight-literal",
  "weight-condition",
  "sort-order",
  "clause-existing-field",
  "clause-new-field",
  "cap",
  "loop-rewrite",
  "helper-split",
  "helper-inline",
  "class-method",
  "scorer-method",
  "rename-marker",
  "fast-path",
];

export interface Mutant {
  /** `<base>/<kind>/<variant>`: stable across runs. */
  id: string;
  base: string;
  kind: MutantKind;
  description: string;
  /** By construction: true when some call of the contract answers differently, false for a pure refactor. */
  changesBehaviour: boolean;
  text: string;
}

export interface MutantBase {
  /** A short name for ids (e.g. "0.3.0", "2.1.112"). */
  name: string;
  text: string;
  /** The scorer's range in `text`, in characters (locate reports bytes: see charRange). */
  start: number;
  end: number;
  sourceType: "module" | "script";
}

type N = acorn.Node & Record<string, any>;

interface Splice {
  start: number;
  end: number;
  text: string;
}

interface Edit {
  variant: string;
  description: string;
  changesBehaviour: boolean;
  splices: Splice[];
}

/** locate's byte offsets (UTF-8 text) as character offsets. */
export function charRange(text: string, fileStart: number, fileEnd: number): { start: number; end: number } {
  const b = Buffer.from(text, "utf8");
  const start = b.subarray(0, fileStart).toString("utf8").length;
  return { start, end: start + b.subarray(fileStart, fileEnd).toString("utf8").length };
}

const parseOptions = (sourceType: "module" | "script"): acorn.Options => ({
  ecmaVersion: "latest",
  sourceType,
  allowHashBang: true,
  allowReturnOutsideFunction: sourceType === "script",
  allowAwaitOutsideFunction: true,
});

/** Every mutant of `base` (or the first `perKind` of each kind), in a fixed order; each one parses. */
export function generateMutants(base: MutantBase, options: { perKind?: number } = {}): Mutant[] {
  const program = acorn.parse(base.text, parseOptions(base.sourceType)) as N;
  const cx = analyse(base, program);
  const out: Mutant[] = [];
  for (const kind of MUTANT_KINDS) {
    for (const e of GENERATORS[kind](cx).slice(0, options.perKind ?? Infinity)) {
      const text = applySplices(base.text, e.splices);
      checkParses(base, text);
      out.push({
        id: `${base.name}/${kind}/${e.variant}`,
        base: base.name,
        kind,
        description: e.description,
        changesBehaviour: e.changesBehaviour,
        text,
      });
    }
  }
  return out;
}

function applySplices(text: string, splices: Splice[]): string {
  const sorted = [...splices].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let last = Infinity;
  for (const s of sorted) {
    if (s.end > last) throw new Error("overlapping splices");
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
    last = s.start;
  }
  return out;
}

/** The mutant parses (as a whole: a real release's 14 MB take a few seconds). */
function checkParses(base: MutantBase, text: string): void {
  acorn.parse(text, parseOptions(base.sourceType));
}

// ---------------------------------------------------------------------------------------------------------
// Analysis: the scorer's parts, found by shape.

interface Context {
  base: MutantBase;
  text: string;
  program: N;
  fn: N;
  /** The statement (in a statement list) holding the scorer, and where new top-level code goes. */
  stmt: N;
  insertAt: number;
  /** The statement lists enclosing the scorer, innermost first. */
  lists: N[][];
  query: string | null;
  deferred: string | null;
  termLoop: N;
  term: string;
  terms: N;
  score: string;
  toolFn: N;
  tool: string;
  /** `score += …` in the term loop whose guard does not read the score (fallbacks such as `score === 0 && …` are
   *  often unreachable, so their weights are left alone). */
  increments: N[];
  sort: N | null;
  cmp: N | null;
  sortKey: string | null;
  nameKey: string | null;
  parsed: { name: string; decl: N } | null;
  /** The description read in the per-tool function (the first local initialised from an await). */
  description: string | null;
  /** Names bound anywhere inside the scorer. */
  locals: Set<string>;
  fresh: (stem: string) => string;
}

function children(n: N): N[] {
  const out: N[] = [];
  for (const k of Object.keys(n)) {
    if (k === "loc" || k === "range") continue;
    const v = n[k];
    if (Array.isArray(v)) out.push(...v.filter((x) => x && typeof x.type === "string"));
    else if (v && typeof v.type === "string") out.push(v);
  }
  return out;
}

function walk(n: N, visit: (n: N, parents: N[]) => boolean | void, parents: N[] = []): void {
  if (visit(n, parents) === false) return;
  parents.push(n);
  for (const c of children(n)) walk(c, visit, parents);
  parents.pop();
}

function find(root: N, pred: (n: N, parents: N[]) => boolean): N | null {
  let found: N | null = null;
  walk(root, (n, p) => {
    if (found) return false;
    if (pred(n, p)) {
      found = n;
      return false;
    }
  });
  return found;
}

function findAll(root: N, pred: (n: N, parents: N[]) => boolean): N[] {
  const out: N[] = [];
  walk(root, (n, p) => {
    if (pred(n, p)) out.push(n);
  });
  return out;
}

const isFunction = (n: N) => /Function/.test(n.type);

function analyse(base: MutantBase, program: N): Context {
  const { text } = base;
  let fn: N | null = null;
  let chain: N[] = [];
  walk(program, (n, parents) => {
    if (fn || n.end < base.start || n.start > base.end) return false;
    if (isFunction(n) && n.start <= base.start && n.end >= base.end - 1 && n.end - n.start <= base.end - base.start + 1) {
      fn = n;
      chain = [...parents];
      return false;
    }
  });
  if (!fn) throw new Error(`${base.name}: no function at the scorer's range ${base.start}-${base.end}`);
  const f = fn as N;
  // The nearest statement in a statement list holding the scorer.
  const lists: N[][] = [];
  let stmt: N | null = null;
  const path = [...chain, f];
  for (let i = path.length - 1; i > 0; i--) {
    const parent = path[i - 1]!;
    const list: N[] | undefined = parent.type === "SwitchCase" ? parent.consequent : Array.isArray(parent.body) ? parent.body : undefined;
    if (list && list.includes(path[i]!)) {
      stmt ??= path[i]!;
      lists.push(list);
    }
  }
  if (!stmt) throw new Error(`${base.name}: the scorer is in no statement list`);
  const paramName = (p: N | undefined) => (p?.type === "Identifier" ? (p.name as string) : null);

  // The term loop: a for-of whose body adds to an identifier.
  let termLoop: N | null = null;
  let score = "";
  walk(f, (n) => {
    if (termLoop) return false;
    if (n.type !== "ForOfStatement") return;
    const inc = find(n.body, (m) => m.type === "AssignmentExpression" && m.operator === "+=" && m.left.type === "Identifier");
    if (inc) {
      termLoop = n;
      score = inc.left.name;
    }
  });
  if (!termLoop) throw new Error(`${base.name}: no term loop in the scorer`);
  const loop = termLoop as N;
  const term = loop.left.type === "VariableDeclaration" ? loop.left.declarations[0].id.name : loop.left.name;
  // The per-tool function: the innermost function around the term loop.
  let toolFn: N | null = null;
  walk(f, (n, parents) => {
    if (n === loop) {
      toolFn = [...parents].reverse().find(isFunction) ?? null;
      return false;
    }
  });
  if (!toolFn || toolFn === f) throw new Error(`${base.name}: the term loop is not in a per-tool function`);
  const tf = toolFn as N;
  const tool = paramName(tf.params[0]);
  if (!tool) throw new Error(`${base.name}: the per-tool function's parameter is not a name`);

  const increments = findAll(loop.body, (n) => n.type === "AssignmentExpression" && n.operator === "+=" && n.left.name === score).filter(
    (inc) => {
      let guard: N | null = null;
      walk(loop.body, (n) => {
        if (n.type === "IfStatement" && n.consequent.start <= inc.start && inc.end <= n.consequent.end) guard = n;
      });
      return !guard || !findAll((guard as N).test, (m) => m.type === "Identifier" && m.name === score).length;
    },
  );

  const sort = find(
    f,
    (n) =>
      n.type === "CallExpression" &&
      n.callee.type === "MemberExpression" &&
      n.callee.property.name === "sort" &&
      n.arguments.length === 1 &&
      n.arguments[0].type === "ArrowFunctionExpression" &&
      n.arguments[0].params.length === 2,
  );
  const cmp = sort ? (sort.arguments[0] as N) : null;
  let sortKey: string | null = null;
  if (cmp && cmp.body.type === "BinaryExpression" && cmp.body.operator === "-" && cmp.body.left.type === "MemberExpression")
    sortKey = cmp.body.left.property.name ?? null;
  // The result object's name key: `{ name: tool.name, score }`.
  let nameKey: string | null = null;
  const resultObj = find(tf, (n) => n.type === "ObjectExpression" && n.properties.some((p: N) => p.key?.name === sortKey));
  for (const p of resultObj?.properties ?? [])
    if (p.value?.type === "MemberExpression" && p.value.object.name === tool && p.value.property.name === "name") nameKey = p.key.name;

  // The parsed name: a local of the per-tool function read as `.parts` in the term loop.
  let parsed: Context["parsed"] = null;
  for (const d of findAll(tf.body, (n) => n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.init)) {
    const used = find(loop.body, (n) => n.type === "MemberExpression" && n.object.name === d.id.name && n.property.name === "parts");
    if (used) {
      parsed = { name: d.id.name, decl: d };
      break;
    }
  }
  let description: string | null = null;
  for (const d of findAll(tf.body, (n) => n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.init)) {
    if (find(d.init, (n) => n.type === "AwaitExpression")) {
      description = d.id.name;
      break;
    }
  }

  const locals = new Set<string>();
  walk(f, (n) => {
    if (isFunction(n)) for (const p of n.params) for (const id of findAll(p, (m) => m.type === "Identifier")) locals.add(id.name);
    if (n.type === "VariableDeclarator") for (const id of findAll(n.id, (m) => m.type === "Identifier")) locals.add(id.name);
    if (n.type === "CatchClause" && n.param) for (const id of findAll(n.param, (m) => m.type === "Identifier")) locals.add(id.name);
    if ((n.type === "FunctionDeclaration" || n.type === "ClassDeclaration") && n.id) locals.add(n.id.name);
  });
  const taken = new Set<string>();
  const fresh = (stem: string) => {
    for (let i = 0; ; i++) {
      const name = i === 0 ? stem : `${stem}${i}`;
      if (!taken.has(name) && !new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`).test(text)) {
        taken.add(name);
        return name;
      }
    }
  };
  return {
    base,
    text,
    program,
    fn: f,
    stmt,
    insertAt: stmt.start,
    lists,
    query: paramName(f.params[0]),
    deferred: paramName(f.params[1]),
    termLoop: loop,
    term,
    terms: loop.right,
    score,
    toolFn: tf,
    tool,
    increments,
    sort,
    cmp,
    sortKey,
    nameKey,
    parsed,
    description,
    locals,
    fresh,
  };
}

const src = (cx: Context, n: N) => cx.text.slice(n.start, n.end);

/** A statement appended at the end of the term loop's body. */
function appendToTermLoop(cx: Context, statement: string): Splice[] {
  const body = cx.termLoop.body;
  if (body.type === "BlockStatement") return [{ start: body.end - 1, end: body.end - 1, text: `;${statement}` }];
  return [{ start: body.start, end: body.end, text: `{${src(cx, body)}${/[;}]$/.test(src(cx, body)) ? "" : ";"}${statement}}` }];
}

/** The term loop's terms as an expression that can be read again (an identifier), or null. */
const termsName = (cx: Context) => (cx.terms.type === "Identifier" ? (cx.terms.name as string) : null);

/** A top-level function declaration `name`, in the statement lists around the scorer (innermost first). */
function topLevelFunction(cx: Context, name: string): N | null {
  if (cx.locals.has(name)) return null;
  for (const list of cx.lists) {
    const d = list.find((s) => s.type === "FunctionDeclaration" && s.id?.name === name);
    if (d) return d;
  }
  return null;
}

/** Whether `n` uses this, arguments, new.target or super outside nested non-arrow functions. */
function usesOwnReceiver(n: N): boolean {
  let found = false;
  walk(n, (m, parents) => {
    if (found) return false;
    if (m !== n && (m.type === "FunctionDeclaration" || m.type === "FunctionExpression")) return false;
    if (m.type === "ThisExpression" || m.type === "Super" || m.type === "MetaProperty") found = true;
    if (m.type === "Identifier" && m.name === "arguments" && parents.at(-1)?.type !== "MemberExpression") found = true;
  });
  return found;
}

/** Names an expression of the scorer reads that are bound inside the scorer (outside the expression). */
function capturedLocals(cx: Context, expr: N): string[] | null {
  // Scope analysis of the scorer alone: what `expr` reads resolved to a variable of the scorer's scopes.
  const fnText = src(cx, cx.fn);
  const prefix =
    cx.fn.type === "FunctionDeclaration" || cx.fn.type === "FunctionExpression" || cx.fn.type === "ArrowFunctionExpression" ? "(" : "({";
  let ast: N;
  try {
    ast = acorn.parse(`${prefix}${fnText}${prefix === "(" ? ")" : "})"};`, {
      ecmaVersion: "latest",
      sourceType: "module",
      ranges: true,
    }) as N;
  } catch {
    return null;
  }
  const shift = cx.fn.start - prefix.length;
  const sm = analyze(ast as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" } as never);
  const names = new Set<string>();
  for (const scope of sm.scopes)
    for (const ref of scope.references) {
      const id = ref.identifier as unknown as N;
      const at = id.start + shift;
      if (at < expr.start || at >= expr.end) continue;
      const v = ref.resolved;
      if (!v) continue;
      const def = v.defs[0]?.name as unknown as N | undefined;
      if (!def) continue;
      const defAt = def.start + shift;
      if (defAt >= expr.start && defAt < expr.end) continue;
      if (v.scope.type === "module" || v.scope.type === "global") continue;
      names.add(v.name);
    }
  return [...names].sort();
}

// ---------------------------------------------------------------------------------------------------------
// The kinds.

type Generator = (cx: Context) => Edit[];

function literalOf(n: N | undefined): number | null {
  return n?.type === "Literal" && typeof n.value === "number" ? n.value : null;
}

const weightLiteral: Generator = (cx) => {
  const out: Edit[] = [];
  const cond = cx.increments.find((i) => i.right.type === "ConditionalExpression" && literalOf(i.right.consequent) !== null);
  if (cond) {
    const lit = cond.right.consequent;
    out.push({
      variant: "conditional-weight",
      description: `the first conditional weight's ${lit.value} becomes ${lit.value + 1}`,
      changesBehaviour: true,
      splices: [{ start: lit.start, end: lit.end, text: String(lit.value + 1) }],
    });
  }
  const plain = [...cx.increments].reverse().find((i) => literalOf(i.right) !== null);
  if (plain) {
    out.push({
      variant: "last-weight",
      description: `the last plain weight (+${plain.right.value}) becomes +${plain.right.value + 1}`,
      changesBehaviour: true,
      splices: [{ start: plain.right.start, end: plain.right.end, text: String(plain.right.value + 1) }],
    });
  }
  return out;
};

const weightCondition: Generator = (cx) => {
  const out: Edit[] = [];
  const cond = cx.increments.find((i) => i.right.type === "ConditionalExpression");
  if (cond) {
    const t = cond.right.test;
    out.push({
      variant: "term-length",
      description: "the first conditional weight also asks that the term be longer than 3 characters",
      changesBehaviour: true,
      splices: [{ start: t.start, end: t.end, text: `(${src(cx, t)}) && ${cx.term}.length > 3` }],
    });
    const terms = termsName(cx);
    if (terms)
      out.push({
        variant: "term-count",
        description: "the first conditional weight applies only to queries of more than one term",
        changesBehaviour: true,
        splices: [{ start: t.start, end: t.end, text: `(${src(cx, t)}) && ${terms}.length > 1` }],
      });
  }
  const first = cx.increments.find((i) => literalOf(i.right) !== null);
  const last = [...cx.increments].reverse().find((i) => literalOf(i.right) !== null);
  if (first)
    out.push({
      variant: "short-term-weight",
      description: `the first plain weight (+${first.right.value}) drops by one for terms of 3 characters or fewer`,
      changesBehaviour: true,
      splices: [
        {
          start: first.right.start,
          end: first.right.end,
          text: `(${cx.term}.length > 3 ? ${first.right.value} : ${first.right.value - 1})`,
        },
      ],
    });
  if (last)
    out.push({
      variant: "tool-flag-weight",
      description: `the last plain weight (+${last.right.value}) rises by one for tools whose isMcp flag is true`,
      changesBehaviour: true,
      splices: [
        {
          start: last.right.start,
          end: last.right.end,
          text: `(${cx.tool}.isMcp === true ? ${last.right.value + 1} : ${last.right.value})`,
        },
      ],
    });
  return out;
};

const sortOrder: Generator = (cx) => {
  const { cmp, sortKey } = cx;
  if (!cmp || !sortKey || cmp.body.type !== "BinaryExpression") return [];
  const [a, b] = cmp.params.map((p: N) => p.name as string);
  const body = cmp.body;
  const out: Edit[] = [];
  if (cx.nameKey)
    out.push({
      variant: "name-tie-breaker",
      description: `equal scores are ordered by name (before: in the order the tools came)`,
      changesBehaviour: true,
      splices: [
        {
          start: body.start,
          end: body.end,
          text: `${src(cx, body)} || String(${a}.${cx.nameKey}).localeCompare(String(${b}.${cx.nameKey}))`,
        },
      ],
    });
  out.push(
    {
      variant: "ascending",
      description: "results sorted by ascending score",
      changesBehaviour: true,
      splices: [{ start: body.start, end: body.end, text: `${a}.${sortKey} - ${b}.${sortKey}` }],
    },
    {
      variant: "ascending-reversed",
      description: "sorted ascending, then reversed: equal scores come out in reverse order",
      changesBehaviour: true,
      splices: [
        { start: body.start, end: body.end, text: `${a}.${sortKey} - ${b}.${sortKey}` },
        { start: cx.sort!.end, end: cx.sort!.end, text: ".reverse()" },
      ],
    },
    {
      variant: "zero-tie-breaker",
      description: "a tie-breaker that is always 0 (`|| 0`): the order cannot change",
      changesBehaviour: false,
      splices: [{ start: body.start, end: body.end, text: `${src(cx, body)} || 0` }],
    },
    {
      variant: "three-way",
      description: "the comparator written as a three-way comparison of the same scores",
      changesBehaviour: false,
      splices: [
        {
          start: body.start,
          end: body.end,
          text: `${b}.${sortKey} > ${a}.${sortKey} ? 1 : ${b}.${sortKey} < ${a}.${sortKey} ? -1 : 0`,
        },
      ],
    },
  );
  return out;
};

const clauseExistingField: Generator = (cx) => {
  const { tool, term, score } = cx;
  const out: Edit[] = [
    {
      variant: "name-prefix",
      description: "a new clause: +1 when the tool's name starts with the term",
      changesBehaviour: true,
      splices: appendToTermLoop(cx, `if (String(${tool}.name).toLowerCase().startsWith(${term})) ${score} += 1;`),
    },
  ];
  if (cx.description)
    out.push({
      variant: "description-prefix",
      description: "a new clause: +1 when the description starts with the term",
      changesBehaviour: true,
      splices: appendToTermLoop(cx, `if (String(${cx.description}).toLowerCase().startsWith(${term})) ${score} += 1;`),
    });
  if (cx.parsed)
    out.push({
      variant: "single-part-name",
      description: "a new clause: +2 when the parsed name is the term alone",
      changesBehaviour: true,
      splices: appendToTermLoop(cx, `if (${cx.parsed.name}.parts.length === 1 && ${cx.parsed.name}.parts[0] === ${term}) ${score} += 2;`),
    });
  return out;
};

const clauseNewField: Generator = (cx) => {
  const { tool, term, score } = cx;
  const t = cx.fresh("tag$");
  return [
    {
      variant: "title",
      description: "a new clause on a new field: +3 when tool.title contains the term",
      changesBehaviour: true,
      splices: appendToTermLoop(
        cx,
        `if (typeof ${tool}.title === "string" && ${tool}.title.toLowerCase().includes(${term})) ${score} += 3;`,
      ),
    },
    {
      variant: "annotations-category",
      description: "a new clause on a new field: +2 when tool.annotations?.category is the term",
      changesBehaviour: true,
      splices: appendToTermLoop(
        cx,
        `if (${tool}.annotations?.category != null && String(${tool}.annotations.category).toLowerCase() === ${term}) ${score} += 2;`,
      ),
    },
    {
      variant: "tags",
      description: "a new clause on a new field: +4 when one of tool.tags is the term",
      changesBehaviour: true,
      splices: appendToTermLoop(
        cx,
        `if (Array.isArray(${tool}.tags) && ${tool}.tags.some((${t}) => String(${t}).toLowerCase() === ${term})) ${score} += 4;`,
      ),
    },
  ];
};

/** A statement at the start of the scorer's body. */
const atScorerStart = (cx: Context, statement: string): Splice => ({
  start: cx.fn.body.start + 1,
  end: cx.fn.body.start + 1,
  text: statement,
});

const cap: Generator = (cx) => {
  const out: Edit[] = [
    {
      variant: "three-terms",
      description: "only the first 3 terms are scored",
      changesBehaviour: true,
      splices: [{ start: cx.terms.start, end: cx.terms.end, text: `(${src(cx, cx.terms)}).slice(0, 3)` }],
    },
  ];
  const q = cx.query;
  if (q && cx.fn.body.type === "BlockStatement")
    out.push(
      {
        variant: "query-30",
        description: "queries are cut to 30 characters",
        changesBehaviour: true,
        splices: [atScorerStart(cx, `if (typeof ${q} === "string" && ${q}.length > 30) ${q} = ${q}.slice(0, 30);`)],
      },
      {
        variant: "query-1e9",
        description: "queries are cut to 1e9 characters, longer than any string V8 can hold: no query changes",
        changesBehaviour: false,
        splices: [atScorerStart(cx, `if (typeof ${q} === "string" && ${q}.length > 1e9) ${q} = ${q}.slice(0, 1e9);`)],
      },
    );
  return out;
};

/** The declared name of a for-of loop, with its declaration keyword. */
function loopBinding(loop: N): { kind: string; name: string } | null {
  if (loop.left.type !== "VariableDeclaration" || loop.left.declarations[0].id.type !== "Identifier") return null;
  return { kind: loop.left.kind, name: loop.left.declarations[0].id.name };
}

/** Whether a loop body can move into a callback: no await, yield, break, continue or return of its own. */
function callbackSafe(body: N): boolean {
  let ok = true;
  walk(body, (m) => {
    if (!ok) return false;
    if (isFunction(m)) return false;
    if (/^(AwaitExpression|YieldExpression|BreakStatement|ContinueStatement|ReturnStatement|LabeledStatement)$/.test(m.type)) ok = false;
  });
  return ok && !usesOwnReceiver(body);
}

function bodyStatements(cx: Context, body: N): string {
  return body.type === "BlockStatement" ? cx.text.slice(body.start + 1, body.end - 1) : src(cx, body);
}

function blockDeclares(body: N, name: string): boolean {
  return (
    body.type === "BlockStatement" &&
    body.body.some(
      (s: N) =>
        (s.type === "VariableDeclaration" && s.declarations.some((d: N) => d.id.name === name)) ||
        ((s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") && s.id?.name === name),
    )
  );
}

const loopRewrite: Generator = (cx) => {
  const out: Edit[] = [];
  // Every for-of over a name in the scorer becomes an index loop (the term loop, a loop over the tools).
  const loops = findAll(cx.fn, (n) => n.type === "ForOfStatement" && !n.await && n.right.type === "Identifier");
  loops.slice(0, 2).forEach((loop, k) => {
    const b = loopBinding(loop);
    if (!b || blockDeclares(loop.body, b.name)) return;
    const i = cx.fresh("i$");
    const xs = loop.right.name;
    out.push({
      variant: `index-loop-${k + 1}`,
      description: `for (… of ${loop === cx.termLoop ? "terms" : "a list"}) rewritten as an index loop`,
      changesBehaviour: false,
      splices: [
        {
          start: loop.start,
          end: loop.end,
          text: `for (let ${i} = 0; ${i} < ${xs}.length; ${i}++) { ${b.kind} ${b.name} = ${xs}[${i}]; ${bodyStatements(cx, loop.body)} }`,
        },
      ],
    });
  });
  const b = loopBinding(cx.termLoop);
  const terms = termsName(cx);
  if (b && terms && callbackSafe(cx.termLoop.body)) {
    out.push({
      variant: "for-each",
      description: "the term loop rewritten as terms.forEach",
      changesBehaviour: false,
      splices: [
        {
          start: cx.termLoop.start,
          end: cx.termLoop.end,
          text: `${terms}.forEach((${b.name}) => { ${bodyStatements(cx, cx.termLoop.body)} });`,
        },
      ],
    });
    const acc = cx.fresh("acc$");
    out.push({
      variant: "reduce",
      description: "the term loop rewritten as a reduce over the terms that carries the score",
      changesBehaviour: false,
      splices: [
        {
          start: cx.termLoop.start,
          end: cx.termLoop.end,
          text: `${cx.score} = ${terms}.reduce((${acc}, ${b.name}) => { ${bodyStatements(cx, cx.termLoop.body)}; return ${cx.score}; }, ${cx.score});`,
        },
      ],
    });
  }
  // Promise.all(xs.map(async (t) => …)) → a sequential for … of with await.
  const all = find(
    cx.fn,
    (n) =>
      n.type === "CallExpression" &&
      n.callee.type === "MemberExpression" &&
      n.callee.object.name === "Promise" &&
      n.callee.property.name === "all" &&
      n.arguments[0]?.type === "CallExpression" &&
      n.arguments[0].callee.type === "MemberExpression" &&
      n.arguments[0].callee.property.name === "map" &&
      n.arguments[0].arguments.length === 1 &&
      (n.arguments[0].arguments[0].type === "Identifier" ||
        (isFunction(n.arguments[0].arguments[0]) && n.arguments[0].arguments[0].params.length <= 1)),
  );
  if (all) {
    const map = all.arguments[0];
    const [r, v] = [cx.fresh("results$"), cx.fresh("item$")];
    out.push({
      variant: "sequential",
      description: "Promise.all(xs.map(async …)) rewritten as a sequential for … of with await",
      changesBehaviour: false,
      splices: [
        {
          start: all.start,
          end: all.end,
          text: `(async () => { const ${r} = []; for (const ${v} of ${src(cx, map.callee.object)}) ${r}.push(await (${src(cx, map.arguments[0])})(${v})); return ${r}; })()`,
        },
      ],
    });
  }
  return out;
};

/** Split `expr` (in the scorer) out into a new function declared before the scorer. */
function splitOut(cx: Context, expr: N, stem: string): Splice[] | null {
  if (find(expr, (n) => n.type === "AwaitExpression" || n.type === "YieldExpression") || usesOwnReceiver(expr)) return null;
  const params = capturedLocals(cx, expr);
  if (!params) return null;
  const name = cx.fresh(stem);
  return [
    { start: cx.insertAt, end: cx.insertAt, text: `function ${name}(${params.join(", ")}) { return ${src(cx, expr)}; }\n` },
    { start: expr.start, end: expr.end, text: `${name}(${params.join(", ")})` },
  ];
}

const helperSplit: Generator = (cx) => {
  const out: Edit[] = [];
  const ifs = findAll(cx.termLoop.body, (n) => n.type === "IfStatement");
  const first = ifs[0];
  const firstSplit = first && splitOut(cx, first.test, "matchesTerm$");
  if (firstSplit)
    out.push({
      variant: "first-test",
      description: "the term loop's first test split out into a helper",
      changesBehaviour: false,
      splices: firstSplit,
    });
  const last = ifs.at(-1);
  const lastSplit = last && last !== first && splitOut(cx, last.test, "describesTerm$");
  if (lastSplit)
    out.push({
      variant: "last-test",
      description: "the term loop's last test split out into a helper",
      changesBehaviour: false,
      splices: lastSplit,
    });
  if (cx.cmp && !usesOwnReceiver(cx.cmp) && !capturedLocals(cx, cx.cmp)?.length) {
    const name = cx.fresh("byScore$");
    const [a, b] = cx.cmp.params.map((p: N) => src(cx, p));
    const body = cx.cmp.body.type === "BlockStatement" ? src(cx, cx.cmp.body) : `{ return ${src(cx, cx.cmp.body)}; }`;
    out.push({
      variant: "comparator",
      description: "the sort's comparator split out into a named function",
      changesBehaviour: false,
      splices: [
        { start: cx.insertAt, end: cx.insertAt, text: `function ${name}(${a}, ${b}) ${body}\n` },
        { start: cx.cmp.start, end: cx.cmp.end, text: name },
      ],
    });
  }
  return out;
};

/** Calls in the scorer to top-level function declarations, one per callee, in source order. */
function helperCalls(cx: Context): Array<{ call: N; decl: N }> {
  const seen = new Set<string>();
  const out: Array<{ call: N; decl: N }> = [];
  for (const call of findAll(cx.fn, (n) => n.type === "CallExpression" && n.callee.type === "Identifier")) {
    const name = call.callee.name as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const decl = topLevelFunction(cx, name);
    if (decl && !decl.generator && !usesOwnReceiver(decl.body) && !decl.params.some((p: N) => p.type !== "Identifier"))
      out.push({ call, decl });
  }
  return out;
}

/** Free names of a helper's body that the scorer binds itself: inlining would capture them. */
function freeNamesClash(cx: Context, decl: N): boolean {
  const params = new Set(decl.params.map((p: N) => p.name));
  const own = new Set<string>();
  walk(decl.body, (n) => {
    if (n.type === "VariableDeclarator") for (const id of findAll(n.id, (m) => m.type === "Identifier")) own.add(id.name);
    if (isFunction(n)) for (const p of n.params) for (const id of findAll(p, (m) => m.type === "Identifier")) own.add(id.name);
  });
  let clash = false;
  walk(decl.body, (n, parents) => {
    const parent = parents.at(-1);
    if (n.type !== "Identifier") return;
    if (parent?.type === "MemberExpression" && parent.property === n && !parent.computed) return;
    if (parent?.type === "Property" && parent.key === n && !parent.computed && !parent.shorthand) return;
    if (!params.has(n.name) && !own.has(n.name) && cx.locals.has(n.name)) clash = true;
  });
  return clash;
}

const helperInline: Generator = (cx) => {
  const out: Edit[] = [];
  for (const { call, decl } of helperCalls(cx)) {
    if (out.length >= 2) break;
    if (freeNamesClash(cx, decl)) continue;
    const calls = findAll(
      cx.fn,
      (n) => n.type === "CallExpression" && n.callee.type === "Identifier" && n.callee.name === call.callee.name,
    );
    const params = decl.params.map((p: N) => src(cx, p)).join(", ");
    const fnText = `(${decl.async ? "async " : ""}(${params}) => ${src(cx, decl.body)})`;
    const single = decl.body.body.length === 1 && decl.body.body[0].type === "ReturnStatement" && decl.body.body[0].argument;
    out.push({
      variant: `inline-${decl.id.name.replace(/\$/g, "_")}`,
      description: single
        ? "a one-line helper inlined at its calls in the scorer (as an arrow applied in place)"
        : "a helper's body inlined at its calls in the scorer (as an arrow applied in place)",
      changesBehaviour: false,
      splices: calls.map((c) => ({ start: c.callee.start, end: c.callee.end, text: fnText })),
    });
  }
  return out;
};

/** The helper a class-method edit moves: the name parser when there is one, else the first helper called. */
function methodTarget(cx: Context): { decl: N; calls: N[]; method: string } | null {
  let name: string | null = null;
  let method = "run";
  const init = cx.parsed?.decl.init;
  if (init?.type === "CallExpression" && init.callee.type === "Identifier") {
    name = init.callee.name;
    method = "parseName";
  }
  const decl = name ? topLevelFunction(cx, name) : (helperCalls(cx)[0]?.decl ?? null);
  if (!decl || decl.generator || usesOwnReceiver(decl.body)) return null;
  const calls = findAll(cx.fn, (n) => n.type === "CallExpression" && n.callee.type === "Identifier" && n.callee.name === decl.id.name);
  return { decl, calls, method };
}

const classMethod: Generator = (cx) => {
  const t = methodTarget(cx);
  if (!t) return [];
  const { decl, calls, method } = t;
  const rest = cx.fresh("args$");
  const head = `${decl.async ? "async " : ""}${method}(${decl.params.map((p: N) => src(cx, p)).join(", ")}) ${src(cx, decl.body)}`;
  const delegate = (holder: string) =>
    `${decl.async ? "async " : ""}function ${decl.id.name}(...${rest}) { return ${holder}.${method}(...${rest}); }`;
  const atCalls = (holder: string) => calls.map((c) => ({ start: c.callee.start, end: c.callee.end, text: `${holder}.${method}` }));
  const cls = cx.fresh("Names$");
  const obj = cx.fresh("names$");
  return [
    {
      variant: "static-method",
      description: `${decl.id.name} becomes a static method of a new class; the scorer calls the method, the old name delegates`,
      changesBehaviour: false,
      splices: [{ start: decl.start, end: decl.end, text: `${delegate(cls)}\nclass ${cls} { static ${head} }` }, ...atCalls(cls)],
    },
    {
      variant: "object-method",
      description: `${decl.id.name} becomes a method of an object literal; the scorer calls the method, the old name delegates`,
      changesBehaviour: false,
      splices: [{ start: decl.start, end: decl.end, text: `${delegate(obj)}\nvar ${obj} = { ${head} };` }, ...atCalls(obj)],
    },
  ];
};

/**
 * The scorer itself as a method: of a class (called through a one-line arrow of its old name, `new C().m(…)`),
 * static (call() calls `C.m(…)`), or of an object literal (call() calls `o.m(…)`). The old name stays for the
 * release's other uses (its exports), delegating. Only for a top-level scorer declaration that uses no receiver
 * of its own (`this`, `arguments`, `super`), whose body reads the same as a method's.
 */
const scorerMethod: Generator = (cx) => {
  const decl = cx.fn;
  if (decl.type !== "FunctionDeclaration" || !decl.id || decl.generator || usesOwnReceiver(decl.body) || cx.stmt !== decl) return [];
  const name: string = decl.id.name;
  const calls = findAll(
    cx.program,
    (n) =>
      n.type === "CallExpression" &&
      n.callee.type === "Identifier" &&
      n.callee.name === name &&
      !(decl.start <= n.start && n.end <= decl.end),
  );
  if (calls.length === 0) return [];
  const method = cx.fresh("rankTools");
  const rest = cx.fresh("args$");
  const head = `${decl.async ? "async " : ""}${method}(${decl.params.map((p: N) => src(cx, p)).join(", ")}) ${src(cx, decl.body)}`;
  const delegate = (holder: string) =>
    `${decl.async ? "async " : ""}function ${name}(...${rest}) { return ${holder}.${method}(...${rest}); }`;
  const atCalls = (holder: string) => calls.map((c) => ({ start: c.callee.start, end: c.callee.end, text: `${holder}.${method}` }));
  const cls = cx.fresh("KeywordSearch$");
  const obj = cx.fresh("keywordSearch$");
  return [
    {
      variant: "class-method",
      description: `the scorer becomes a method of a new class; ${name} is an arrow that calls it on a new instance`,
      changesBehaviour: false,
      splices: [
        {
          start: decl.start,
          end: decl.end,
          text: `class ${cls} { ${head} }\nvar ${name} = (...${rest}) => new ${cls}().${method}(...${rest});`,
        },
      ],
    },
    {
      variant: "static-method",
      description: `the scorer becomes a static method of a new class; call() calls the method, ${name} delegates`,
      changesBehaviour: false,
      splices: [{ start: decl.start, end: decl.end, text: `${delegate(cls)}\nclass ${cls} { static ${head} }` }, ...atCalls(cls)],
    },
    {
      variant: "object-method",
      description: `the scorer becomes a method of an object literal; call() calls the method, ${name} delegates`,
      changesBehaviour: false,
      splices: [{ start: decl.start, end: decl.end, text: `${delegate(obj)}\nvar ${obj} = { ${head} };` }, ...atCalls(obj)],
    },
  ];
};

const RENAMED: Record<string, string> = { isMcp: "isMcpTool", parts: "nameParts", full: "fullName", coarseParts: "coarseNameParts" };

/** Identifiers named `name` inside `fn`, leaving out nested functions that bind the name again. */
function usesIn(fn: N, name: string): N[] {
  const out: N[] = [];
  const rebinds = (f: N) =>
    f.params.some((p: N) => findAll(p, (m) => m.type === "Identifier" && m.name === name).length) ||
    !!find(f.body, (m) => m.type === "VariableDeclarator" && m.id.type === "Identifier" && m.id.name === name && !isInner(f, m));
  const isInner = (f: N, m: N) => !!find(f.body, (g) => g !== f && isFunction(g) && g.start <= m.start && m.end <= g.end);
  walk(fn.body, (n) => {
    if (isFunction(n) && rebinds(n)) return false;
    if (n.type === "Identifier" && n.name === name) out.push(n);
  });
  return out;
}

const renameMarker: Generator = (cx) => {
  const init = cx.parsed?.decl.init;
  if (init?.type !== "CallExpression" || init.callee.type !== "Identifier") return [];
  const producer = topLevelFunction(cx, init.callee.name);
  if (!producer) return [];
  const name = producer.id.name as string;
  // Every call of the producer in the scorer initialises a local that is read only as `local.field`.
  const named = findAll(cx.fn, (n) => n.type === "Identifier" && n.name === name);
  const calls = findAll(cx.fn, (n) => n.type === "CallExpression" && n.callee.type === "Identifier" && n.callee.name === name);
  if (named.length !== calls.length) return [];
  const members: N[] = [];
  for (const call of calls) {
    let decl: N | null = null;
    let owner: N | null = null;
    walk(cx.fn, (n, parents) => {
      if (n.type === "VariableDeclarator" && n.init === call && n.id.type === "Identifier") {
        decl = n;
        owner = [...parents].reverse().find(isFunction) ?? null;
      }
    });
    if (!decl || !owner) return [];
    const local = (decl as N).id.name as string;
    const uses = usesIn(owner, local).filter((u) => u !== (decl as N).id);
    const reads = findAll((owner as N).body, (n) => n.type === "MemberExpression" && !n.computed && uses.includes(n.object));
    if (reads.length !== uses.length) return [];
    members.push(...reads);
  }
  // No other consumer: the producer's name occurs nowhere else but in export lists.
  const elsewhere = findAll(cx.program, (n, parents) => {
    if (n.type !== "Identifier" || n.name !== name) return false;
    if (n.start >= cx.fn.start && n.end <= cx.fn.end) return false;
    if (n.start >= producer.start && n.end <= producer.end) return false;
    return parents.at(-1)?.type !== "ExportSpecifier";
  });
  if (elsewhere.length) return [];
  // Every return of the producer (not of nested functions) is an object literal of plain properties.
  const returns: N[] = [];
  let plain = true;
  walk(producer.body, (n) => {
    if (isFunction(n)) return false;
    if (n.type === "ReturnStatement") {
      if (n.argument?.type === "ObjectExpression" && n.argument.properties.every((q: N) => q.type === "Property" && !q.computed))
        returns.push(n.argument);
      else plain = false;
    }
  });
  if (!plain || !returns.length) return [];
  const fields = [...new Set(members.map((m) => m.property.name as string))];
  const out: Edit[] = [];
  for (const field of fields) {
    const props = returns.map((o) => o.properties.find((q: N) => (q.key.name ?? q.key.value) === field));
    if (props.some((q) => !q)) continue;
    const to = RENAMED[field] ?? `${field}Value`;
    out.push({
      variant: field,
      description: `the parsed name's field ${field} renamed ${to} in its producer and in the scorer`,
      changesBehaviour: false,
      splices: [
        ...props.map((q: N) =>
          q.shorthand ? { start: q.start, end: q.end, text: `${to}: ${q.key.name}` } : { start: q.key.start, end: q.key.end, text: to },
        ),
        ...members.filter((m) => m.property.name === field).map((m) => ({ start: m.property.start, end: m.property.end, text: to })),
      ],
    });
  }
  return out;
};

const fastPath: Generator = (cx) => {
  const { query: q, deferred: d } = cx;
  if (!q || !d || cx.fn.body.type !== "BlockStatement") return [];
  const [qq, hit, t] = [cx.fresh("bare$"), cx.fresh("hit$"), cx.fresh("t$")];
  const out: Edit[] = [
    {
      variant: "bare-name",
      description: "a new fast path: a query equal to an MCP tool's bare name (after its last __) returns that tool alone",
      changesBehaviour: true,
      splices: [
        atScorerStart(
          cx,
          `{ const ${qq} = String(${q}).trim().toLowerCase(); const ${hit} = ${d}.find((${t}) => typeof ${t}.name === "string" && ${t}.name.includes("__") && ${t}.name.slice(${t}.name.lastIndexOf("__") + 2).toLowerCase() === ${qq}); if (${hit}) return [${hit}.name]; }`,
        ),
      ],
    },
    {
      variant: "short-query",
      description: "a new early return: queries shorter than 2 characters (after trimming) find nothing",
      changesBehaviour: true,
      splices: [atScorerStart(cx, `if (typeof ${q} === "string" && ${q}.trim().length < 2) return [];`)],
    },
  ];
  if (!find(cx.fn, (n) => n.type === "CallExpression" && n.callee.type === "MemberExpression" && n.callee.property.name === "find"))
    out.push({
      variant: "exact-name",
      description: "a new fast path: a query equal to a tool's name returns that tool alone",
      changesBehaviour: true,
      splices: [atScorerStart(cx, `{ const ${hit} = ${d}.find((${t}) => ${t}.name === ${q}); if (${hit}) return [${hit}.name]; }`)],
    });
  // No tools, no results: returned early, just before the statement that scores the tools.
  const stmt = (cx.fn.body.body as N[]).find((s) => s.start <= cx.toolFn.start && cx.toolFn.end <= s.end);
  if (stmt)
    out.push({
      variant: "no-tools",
      description: "a new early return that cannot change anything: no deferred tools, no results, just before the tools are scored",
      changesBehaviour: false,
      splices: [{ start: stmt.start, end: stmt.start, text: `if (${d}.length === 0) return [];\n` }],
    });
  return out;
};

const GENERATORS: Record<MutantKind, Generator> = {
  "weight-literal": weightLiteral,
  "weight-condition": weightCondition,
  "sort-order": sortOrder,
  "clause-existing-field": clauseExistingField,
  "clause-new-field": clauseNewField,
  cap,
  "loop-rewrite": loopRewrite,
  "helper-split": helperSplit,
  "helper-inline": helperInline,
  "class-method": classMethod,
  "scorer-method": scorerMethod,
  "rename-marker": renameMarker,
  "fast-path": fastPath,
};
