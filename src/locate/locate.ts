import type { Container, ModuleEntry } from "../extract/types.js";
import { indexByType, matchVariant, METHOD_OF, roleNames, type TypeIndex, type VariantMatch } from "./match-signature.js";
import { lineColumn, parseModule } from "../ast/parse-module.js";
import { sharedModuleText, type StatementParser } from "./partial-parse.js";
import { fieldsOf, walk, type Node } from "../ast/pattern.js";
import { MarkerIndex } from "./prefilter.js";
import { markerBytes, markerLabel, type Signature, type Variant } from "./signature.js";
import { borrowedBindings, changedParts, nearest, type ChangedParts, type Closest } from "./nearest.js";

export interface Candidate {
  module: string;
  start: number;
  end: number;
  line: number;
  column: number;
  variant: string;
  roles: Record<string, string>;
}

export interface RoutineResult extends Partial<Candidate> {
  id: string;
  status: "found" | "absent" | "ambiguous";
  /** Absolute byte range of the routine in the input file (module contents as stored). */
  fileStart?: number;
  fileEnd?: number;
  /** For "ambiguous": every candidate, so the user can tell them apart. */
  candidates?: Candidate[];
  /** Markers that occur more often in the program than the signature allows. */
  warnings?: string[];
  /** A routine written as a method: what holds it (a class or an object literal, and its name where it has one). */
  method?: MethodOf;
  /** Found by a linked variant: the known variant closest to it, and that variant's parts it lacks. */
  changed?: ChangedParts;
  /** For "absent": the code that came closest to a known variant, and what it lacked. */
  closest?: Closest;
}

export interface MethodOf {
  holder: "class" | "object";
  /** The class's name, or the variable (or assigned name) holding the class or object; null when it has none. */
  name: string | null;
  static: boolean;
}

/**
 * Find each signature's routine in the container's JavaScript. Markers select the modules worth
 * reading; in those, only the statements around the rarest marker of each variant are parsed
 * (the whole module only if that fails), and each parsed statement is shared by every signature.
 */
/** A found routine with its syntax: what the lift stage starts from. */
export interface LocatedRoutine {
  result: RoutineResult;
  /** Present when status is "found". */
  match?: { module: ModuleEntry; text: string; node: Node; bindings: VariantMatch["bindings"] };
}

export function locate(container: Container, signatures: Signature[]): RoutineResult[] {
  return locateRoutines(container, signatures).map((r) => r.result);
}

export function locateRoutines(container: Container, signatures: Signature[]): LocatedRoutine[] {
  const markers = new MarkerIndex(container);
  markers.prepare(signatures);
  const views = new Map<ModuleEntry, ModuleView>();
  const view = (m: ModuleEntry) => {
    let v = views.get(m);
    if (!v) views.set(m, (v = new ModuleView(sharedModuleText(container, m))));
    return v;
  };
  const search = (sig: Signature, v: Variant): Found[] => {
    const out: Found[] = [];
    const markerSet = [...sig.markers, ...v.markers].map(markerBytes);
    for (const m of markers.candidates(sig, v)) {
      const mv = view(m);
      for (const match of matchVariant(
        v,
        mv.indexAround(markerSet, (t) => markers.countIn(m, t)),
      ))
        out.push({ module: m, text: mv.text, match });
    }
    return out;
  };

  // Variants in order of preference: once one matches somewhere, later (older, looser) ones
  // could only add look-alikes that the preference would discard, so they are not searched.
  const own = signatures.map((sig) => {
    const found: Found[] = [];
    const searched: Variant[] = [];
    for (const v of sig.variants.filter((x) => !x.linked)) {
      searched.push(v);
      found.push(...search(sig, v));
      if (found.length) break;
    }
    return { found, searched };
  });
  // The last resort, for routines whose statements no variant knows: linked variants, each match
  // kept only when the linked routine names the same identifier in the linked role.
  const loose = signatures.map((sig, i) =>
    own[i]!.found.length ? [] : sig.variants.filter((v) => v.linked).flatMap((v) => search(sig, v)),
  );
  const bound = (sig: Signature, f: Found, role: string) => roleNames(sig, f.match.bindings)[role];
  return signatures.map((sig, i): LocatedRoutine => {
    const { found, searched } = own[i]!;
    if (!found.length && loose[i]!.length) {
      for (const f of loose[i]!) {
        const link = sig.variants.find((v) => v.name === f.match.variant)!.linked!;
        const j = signatures.findIndex((s) => s.id === link.signature);
        if (j < 0) continue;
        const partners = own[j]!.found.length ? own[j]!.found : loose[j]!;
        const name = bound(sig, f, link.role);
        if (name && partners.some((p) => calleeNames(signatures[j]!, p, link.role, view(p.module)).includes(name))) found.push(f);
      }
      searched.push(...sig.variants.filter((v) => v.linked));
    }
    const located = resultOf(sig, found, searched, markers);
    const method = located.match && (located.match.node as { [METHOD_OF]?: Node })[METHOD_OF];
    if (method) located.result.method = methodOf(view(located.match!.module), method);
    if (located.match && sig.variants.find((v) => v.name === located.result.variant)?.linked) {
      const changed = changedParts(sig, located.match.text, located.match.node);
      if (changed) {
        located.result.changed = changed;
        located.match.bindings = borrowedBindings(sig, changed.variant, located.match.node, located.match.bindings);
        located.result.roles = roleNames(sig, located.match.bindings);
      }
    } else if (located.result.status === "absent") {
      const near = nearest(
        sig,
        loose[i]!.length ? loose[i]! : sig.variants.filter((v) => v.linked).flatMap((v) => search(sig, { ...v, has: [], not: [] })),
      );
      if (near) located.result.closest = near;
    }
    return located;
  });
}

/**
 * The names a linked routine may have where `f` uses it in `role`: a plain name, and what a one-line wrapper of
 * that name forwards to (`run = (…) => new Search().run(…)`, `function run(…) { return holder.run(…) }`), or
 * the method a member call names (`Search.run(…)`): a routine written as a method is located by its key.
 */
function calleeNames(sig: Signature, f: Found, role: string, mv: ModuleView): string[] {
  const meta = Object.entries(sig.roles).find(([, r]) => r === role)?.[0];
  const b = meta ? f.match.bindings.get(meta) : undefined;
  if (!b || Array.isArray(b)) return [];
  const out: string[] = [];
  let next: Node | null = b;
  for (let hops = 0; next && hops < 4; hops++) {
    const name = calleeName(next);
    if (!name || out.includes(name)) break;
    out.push(name);
    next = next.type === "Identifier" ? forwardedCallee(mv, name) : null;
  }
  return out;
}

/** What holds `method` (a MethodDefinition or an object's Property), found in the statement around it. */
function methodOf(mv: ModuleView, method: Node): MethodOf | undefined {
  const same = (n: Node) => n.start === method.start && n.end === method.end;
  let out: MethodOf | undefined;
  const parents: Node[] = [];
  const visit = (n: Node) => {
    // Only the nodes around the method are walked.
    if (out || !n || typeof n.type !== "string" || n.start > method.start || n.end < method.end) return;
    if ((n.type === "ClassBody" && n.body.some(same)) || (n.type === "ObjectExpression" && n.properties.some(same))) {
      const holder = n.type === "ClassBody" ? parents.at(-1)! : n;
      const around = parents.at(n.type === "ClassBody" ? -2 : -1);
      const own = holder.type === "ClassDeclaration" || holder.type === "ClassExpression" ? holder.id?.name : undefined;
      const bound =
        around?.type === "VariableDeclarator" && around.id.type === "Identifier"
          ? around.id.name
          : around?.type === "AssignmentExpression" && around.left.type === "Identifier"
            ? around.left.name
            : undefined;
      out = {
        holder: n.type === "ClassBody" ? "class" : "object",
        name: own ?? bound ?? null,
        static: method.type === "MethodDefinition" && method.static,
      };
      return;
    }
    parents.push(n);
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (Array.isArray(v)) for (const c of v) visit(c as Node);
      else if (v && typeof v === "object") visit(v as Node);
    }
    parents.pop();
  };
  for (const stmt of mv.statementsAt(method.start) ?? []) visit(stmt);
  return out;
}

/** The name a callee calls: an identifier, or the method of a member access by dot. */
function calleeName(n: Node): string | null {
  if (n.type === "Identifier") return n.name;
  if (n.type === "MemberExpression" && !n.computed && n.property.type === "Identifier") return n.property.name;
  return null;
}

/**
 * The callee that a module-level one-line wrapper named `name` forwards its parameters to, as they are: an arrow
 * or function whose body is `callee(…params)` (awaited or not, returned). null when `name` is no such wrapper.
 */
function forwardedCallee(mv: ModuleView, name: string): Node | null {
  const escaped = name.replace(/\$/g, "\\$");
  const at = new RegExp(`(?<![\\w$.])(?:function\\s*\\*?\\s*${escaped}\\s*\\(|${escaped}\\s*=(?!=))`, "g");
  for (const m of mv.text.matchAll(at)) {
    for (const stmt of mv.statementsAt(m.index) ?? []) {
      let out: Node | null = null;
      walk(stmt, (n) => {
        if (out) return;
        const fn =
          n.type === "FunctionDeclaration" && n.id?.name === name
            ? n
            : n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.id.name === name
              ? n.init
              : null;
        if (fn && (fn.type === "ArrowFunctionExpression" || fn.type === "FunctionExpression" || fn.type === "FunctionDeclaration"))
          out = forwardingCall(fn);
      });
      if (out) return out;
    }
  }
  return null;
}

/** The callee of a function whose whole body passes its parameters on, in order, to one call. */
function forwardingCall(fn: Node): Node | null {
  if (fn.type !== "ArrowFunctionExpression" && fn.type !== "FunctionExpression" && fn.type !== "FunctionDeclaration") return null;
  let e: Node | null | undefined = fn.body;
  if (e?.type === "BlockStatement") e = e.body.length === 1 && e.body[0]!.type === "ReturnStatement" ? e.body[0].argument : null;
  if (e?.type === "AwaitExpression") e = e.argument;
  if (e?.type !== "CallExpression") return null;
  const params = fn.params;
  const args = e.arguments;
  // `(…rest) => f(…rest)`, or `(a, b) => f(a, b)`.
  const same =
    params.length === args.length &&
    params.every((p: Node, i: number) => {
      const a = args[i]!;
      if (p.type === "RestElement")
        return (
          a.type === "SpreadElement" &&
          p.argument.type === "Identifier" &&
          a.argument.type === "Identifier" &&
          a.argument.name === p.argument.name
        );
      return p.type === "Identifier" && a.type === "Identifier" && a.name === p.name;
    });
  return same ? e.callee : null;
}

interface Found {
  module: ModuleEntry;
  text: string;
  match: VariantMatch;
}

/** The result of a signature's search, from what its variants found. */
function resultOf(sig: Signature, found: Found[], searched: Variant[], markers: MarkerIndex): LocatedRoutine {
  // Markers of the variants searched that occur more often in the program than allowed.
  const limited = new Map(
    [...sig.markers, ...searched.flatMap((v) => v.markers)].filter((m) => m.max !== undefined).map((m) => [markerBytes(m), m]),
  );
  const warnings = [...limited]
    .filter(([text, m]) => markers.count(text) > m.max!)
    .map(([text, m]) => `${markerLabel(m)} occurs ${markers.count(text)} times (signature allows ${m.max})`);
  const cands = found.map(({ module, text, match }) => ({ module, text, c: candidate(sig, module, text, match) }));
  const result: RoutineResult = { id: sig.id, status: "absent" };
  if (warnings.length) result.warnings = warnings;
  if (cands.length === 0) return { result };
  if (cands.length > 1) {
    const kept = preferred(sig, cands, found);
    if (kept.length !== 1) return { result: { ...result, status: "ambiguous", candidates: cands.map((x) => x.c) } };
    for (const other of cands.filter((x) => x !== kept[0])) {
      (result.warnings ??= []).push(`ignored ${other.c.variant} look-alike at ${other.c.module}:${other.c.line}:${other.c.column}`);
    }
    cands.splice(0, cands.length, kept[0]!);
  }
  const [{ module, text, c }] = cands as [(typeof cands)[0]];
  const startByte = byteOffset(text, c.start, module);
  const endByte = byteOffset(text, c.end, module);
  const { match } = found.find((f) => f.module === module && f.match.node.start === c.start)!;
  return {
    result: {
      ...result,
      status: "found",
      ...c,
      start: startByte,
      end: endByte,
      fileStart: module.start + startByte,
      fileEnd: module.start + endByte,
    },
    match: { module, text, node: match.node, bindings: match.bindings },
  };
}

/** One module's text, parsed lazily: statement by statement where possible, whole as a fallback. */
class ModuleView {
  private statements: StatementParser;
  private whole: TypeIndex | null | undefined;
  private perStatement = new Map<Node, TypeIndex>();

  readonly text: string;

  constructor(shared: { text: string; parser: StatementParser }) {
    this.text = shared.text;
    this.statements = shared.parser;
  }

  /**
   * A type index over the statements holding the rarest of `markerSet`. Falls back to the whole
   * module when a statement cannot be isolated.
   */
  indexAround(markerSet: string[], known: (marker: string) => number | undefined): TypeIndex {
    const picked = new Set<Node>();
    const rarest = this.rarest(markerSet, known);
    if (rarest === null) return new Map();
    for (let at = this.text.indexOf(rarest); at !== -1; at = this.text.indexOf(rarest, at + rarest.length)) {
      const stmts = this.statements.statementsCovering(at, at + rarest.length);
      if (!stmts) return this.wholeIndex();
      for (const s of stmts) picked.add(s);
    }
    const index: TypeIndex = new Map();
    for (const s of [...picked].sort((a, b) => a.start - b.start)) {
      let own = this.perStatement.get(s);
      if (!own) this.perStatement.set(s, (own = indexByType(s)));
      for (const [type, nodes] of own) {
        const list = index.get(type);
        // Appended one by one: a spread of an input-sized array overflows the stack.
        if (list) for (const n of nodes) list.push(n);
        else index.set(type, nodes.slice());
      }
    }
    return index;
  }

  /** The statements holding the text at `at`, or null where none parses. */
  statementsAt(at: number): Node[] | null {
    return this.statements.statementsCovering(at, at + 1);
  }

  /** The marker of the set that occurs least here; `known` gives the counts the prefilter has. */
  private rarest(set: string[], known: (marker: string) => number | undefined): string | null {
    let best: string | null = null;
    let bestCount = Infinity;
    // Signature-specific markers come last in a set and are usually the rarest: count them first.
    for (const t of [...set].reverse()) {
      let c = known(t);
      if (c === undefined) {
        c = 0;
        for (let at = this.text.indexOf(t); at !== -1 && c < bestCount; at = this.text.indexOf(t, at + t.length)) c++;
      }
      if (c === 0) return null; // this variant cannot match here
      if (c < bestCount) {
        best = t;
        bestCount = c;
      }
    }
    return best;
  }

  private wholeIndex(): TypeIndex {
    if (this.whole === undefined) {
      const ast = parseModule(this.text, this.statements.goal);
      this.whole = ast ? indexByType(ast) : null;
    }
    return this.whole ?? new Map<string, Node[]>();
  }
}

function candidate(sig: Signature, module: ModuleEntry, text: string, m: VariantMatch): Candidate {
  const { line, column } = lineColumn(text, m.node.start);
  return { module: module.path, start: m.node.start, end: m.node.end, line, column, variant: m.variant, roles: roleNames(sig, m.bindings) };
}

/**
 * Among several candidates: those matched by the earliest (most specific) variant, and of those
 * the ones still referenced — bundles keep dead or internal copies of old code.
 */
function preferred<T extends { module: ModuleEntry; text: string; c: Candidate }>(
  sig: Signature,
  cands: T[],
  found: Array<{ module: ModuleEntry; match: VariantMatch }>,
): T[] {
  const rank = (x: T) => sig.variants.findIndex((v) => v.name === x.c.variant);
  const best = cands.reduce((m, x) => Math.min(m, rank(x)), Infinity);
  const top = cands.filter((x) => rank(x) === best);
  if (top.length <= 1) return top;
  const nodeOf = (x: T) => found.find((f) => f.module === x.module && f.match.node.start === x.c.start)!.match.node;
  return top.filter((x) => isReferenced(x.text, nodeOf(x)));
}

/** A declared function whose name occurs elsewhere in its module (a call, an export, a reference). */
function isReferenced(text: string, node: Node): boolean {
  if (node.type !== "FunctionDeclaration" || !node.id) return true;
  const name: string = node.id.name;
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$$")}(?![\\w$])`, "g");
  let count = 0;
  for (const _ of text.matchAll(word)) if (++count > 1) return true;
  return false;
}

/** Character offset in decoded text → byte offset in the module's stored contents. */
function byteOffset(text: string, chars: number, m: ModuleEntry): number {
  switch (m.encoding) {
    case "utf16le":
      return chars * 2;
    case "utf8":
      return Buffer.byteLength(text.slice(0, chars), "utf8");
    default:
      return chars;
  }
}
