/**
 * What a module-level name stands for, found without parsing the whole module.
 *
 * Minified bundles define helpers in a few ways: a top-level function, class or variable; a
 * `var x;` whose value is assigned inside a lazy-init wrapper (`var init = L(() => { x = … })`, as
 * esbuild and Bun emit); a function inside a CJS wrapper's body; or an import from another chunk.
 * Candidate places are found by text (`function x(`, `class x`, `x=`), and only the statements
 * there are parsed and checked.
 */
import type { Container, ModuleEntry } from "../extract/types.js";
import { sharedModuleText, StatementParser } from "../locate/partial-parse.js";
import type { AssignmentExpression } from "acorn";
import type { Node } from "../ast/pattern.js";

export type DefinitionKind = "function" | "class" | "variable" | "assigned" | "member";

export interface Definition {
  /** The name bound at module level, in its own module. */
  name: string;
  module: ModuleEntry;
  kind: DefinitionKind;
  /** FunctionDeclaration, ClassDeclaration, VariableDeclarator or AssignmentExpression. */
  node: Node;
}

/** `F.prototype.clear = …`, `F.Cache = …`: a module-level assignment to a property of a definition. */
export interface MemberAssignment {
  node: Node;
  /** The assigned path, e.g. "prototype.clear". */
  path: string;
}

export interface ImportBinding {
  local: string;
  imported: string;
  from: string;
}

/** Candidate places by name, for every name of a module at once. */
export interface PlaceIndex {
  /** Offsets of `name` where a declaration of it may begin. */
  declarations(name: string): number[];
  /** Offsets of `name` where a property path of it may be assigned. */
  members(name: string): number[];
}

const isIdentStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
const isIdentPart = (c: number) => isIdentStart(c) || (c >= 48 && c <= 57);
/** ASCII characters of a dotted path, by kind (0: none), for the place index's hot loop. */
const IDENT_START = 1;
const CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) CHAR[c] = isIdentStart(c) ? IDENT_START : isIdentPart(c) ? 2 : c === 46 ? 3 : 0;
// What `\s` matches.
const isSpace = (c: number) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const FUNCTION_NAME = /function\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/y;
const CLASS_NAME = /class\s+([A-Za-z_$][\w$]*)(?![\w$])/y;

/**
 * The places of every name at once: `function x(`, `class x`,
 * `x=` (declaration places) and `x.a.b=` (member places), with `x=` not `x==`/`x=>`, never `.x=` or `#x=`.
 * Found from each `=` backwards and from each `function`/`class` forwards: indexOf runs at memchr
 * speed, where one regular expression would be tried at every character of a six-megabyte chunk.
 */
export function indexPlaces(text: string): PlaceIndex {
  // Places are filed under a number made from the name's characters and length, not under the
  // name, in a hash table of typed arrays: a six-megabyte chunk has 170,000 places of 60,000
  // names, and a string, array or Map entry each was most of the cost (and of the collector's work,
  // as the index lives as long as the lift). A lookup checks that the text at each place really is the name.
  // About one declaration place in 40 characters of minified code, and a member place in 400.
  const declarations = new PlaceTable(text.length >> 5);
  const members = new PlaceTable(text.length >> 8);
  for (let eq = text.indexOf("="); eq !== -1; eq = text.indexOf("=", eq + 1)) {
    const next = text.charCodeAt(eq + 1);
    if (next === 61 /* = */ || next === 62 /* > */) {
      if (next === 61) while (text.charCodeAt(eq + 1) === 61) eq++;
      continue;
    }
    let end = eq;
    while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
    // Back over the longest run of identifier characters and dots, which must be a path of
    // identifiers: `a.b.c`, not `.a`, `a..b`, `a.` or `1.5`. The first dot ends the name.
    let start = end;
    let firstEnd = -1;
    let ok = true;
    for (let c = text.charCodeAt(start - 1); start > 0 && c < 128 && CHAR[c] !== 0; c = text.charCodeAt(start - 1)) {
      start--;
      if (c === 46 /* . */) {
        const after = start + 1 < end ? text.charCodeAt(start + 1) : 0;
        if (after >= 128 || CHAR[after] !== IDENT_START) ok = false;
        firstEnd = start;
      }
    }
    if (!ok || start === end || CHAR[text.charCodeAt(start)] !== IDENT_START) continue;
    // `#x=`, `this.#x=`: a class's private name, never a module-level one (minifiers give private
    // fields the same short names as locals, dozens of places each, all parsed for nothing).
    if (text.charCodeAt(start - 1) === 35 /* # */) continue;
    if (firstEnd < 0) declarations.add(keyOf(text, start, end), start);
    else members.add(keyOf(text, start, firstEnd), start);
  }
  for (const [word, re] of [
    ["function", FUNCTION_NAME],
    ["class", CLASS_NAME],
  ] as const) {
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) {
      re.lastIndex = at;
      const m = re.exec(text);
      if (!m) continue;
      const nameAt = at + m[0].indexOf(m[1]!, word.length);
      declarations.add(keyOf(text, nameAt, nameAt + m[1]!.length), nameAt);
    }
  }
  const lookup = (t: PlaceTable, name: string, sorted: boolean) => {
    const at = t.get(keyOf(name, 0, name.length)).filter((p) => text.startsWith(name, p) && !isIdentPart(text.charCodeAt(p + name.length)));
    return sorted ? at.sort((x, y) => x - y) : at;
  };
  return { declarations: (name) => lookup(declarations, name, true), members: (name) => lookup(members, name, false) };
}

/** Positions filed by key, in insertion order per key: a chained hash table in typed arrays. */
class PlaceTable {
  private heads: Int32Array;
  private keys: Int32Array;
  private positions: Int32Array;
  /** Index of the entry added before this one under the same bucket (-1: none). */
  private links: Int32Array;
  private size = 0;

  /** `expected`: about how many entries there will be (room for them is made at once; the buckets never grow). */
  constructor(expected: number) {
    let buckets = 64;
    while (buckets < expected) buckets <<= 1;
    this.heads = new Int32Array(buckets).fill(-1);
    this.keys = new Int32Array(buckets);
    this.positions = new Int32Array(buckets);
    this.links = new Int32Array(buckets);
  }

  add(key: number, position: number): void {
    if (this.size === this.keys.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.keys = grow(this.keys);
      this.positions = grow(this.positions);
      this.links = grow(this.links);
    }
    const bucket = key & (this.heads.length - 1);
    const i = this.size++;
    this.keys[i] = key;
    this.positions[i] = position;
    this.links[i] = this.heads[bucket]!;
    this.heads[bucket] = i;
  }

  /** The positions filed under `key`, in the order they were added. */
  get(key: number): number[] {
    const out: number[] = [];
    for (let i = this.heads[key & (this.heads.length - 1)]!; i !== -1; i = this.links[i]!)
      if (this.keys[i] === key) out.push(this.positions[i]!);
    return out.reverse();
  }
}

/** A number for the characters [start, end) of `text`; equal names give equal numbers. */
function keyOf(text: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

export class ModuleScope {
  readonly text: string;
  private readonly statements: StatementParser;
  private importMap: Map<string, ImportBinding> | null = null;
  private exportMap: Map<string, string> | null = null;
  private found = new Map<string, Definition | null>();
  // Candidate places by name: one pass over the text for every name asked about (a module is
  // asked about dozens), instead of one regular expression per name.
  private places: PlaceIndex | null = null;

  constructor(
    readonly module: ModuleEntry,
    text: string,
    statements = new StatementParser(text),
  ) {
    this.text = text;
    this.statements = statements;
  }

  /** The module's scope over the text and parsed statements every stage shares (see sharedModuleText). */
  static of(container: Container, module: ModuleEntry): ModuleScope {
    const { text, parser } = sharedModuleText(container, module);
    return new ModuleScope(module, text, parser);
  }

  /** Whether `definition(name)` has been answered already (it then costs nothing). */
  knows(name: string): boolean {
    return this.found.has(name);
  }

  /** The module-level definition of `name`, or null if this module does not define it. */
  definition(name: string): Definition | null {
    if (!this.found.has(name)) this.found.set(name, this.search(name));
    return this.found.get(name)!;
  }

  /**
   * Assignments to properties of `name` made at module level or in a lazy-init body (lodash-style
   * prototypes, `memoize.Cache = …`), in source order. They are part of what `name` is.
   */
  memberAssignments(name: string): MemberAssignment[] {
    const out: MemberAssignment[] = [];
    const seen = new Set<Node>();
    for (const [at, length] of this.memberPlaces(name)) {
      for (const s of this.statements.statementsCovering(at, at + length) ?? []) {
        for (const a of topLevelAssignments(s)) {
          if (seen.has(a) || a.start > at || a.end < at + length) continue;
          const path = memberPath(a.left, name);
          if (path) {
            seen.add(a);
            out.push({ node: a, path });
          }
        }
      }
    }
    return out;
  }

  /** The import that binds `name` in this module, if any. */
  importOf(name: string): ImportBinding | null {
    return this.imports().get(name) ?? null;
  }

  /** The local name this module exports as `exported`. */
  exportedLocal(exported: string): string | null {
    if (!this.exportMap) {
      this.exportMap = new Map();
      for (const m of this.text.matchAll(/export\s*\{([^}]*)\}/g)) {
        for (const spec of m[1]!.split(",")) {
          const parts = spec.trim().split(/\s+as\s+/);
          if (!parts[0]) continue;
          this.exportMap.set((parts[1] ?? parts[0]).trim(), parts[0].trim());
        }
      }
    }
    return this.exportMap.get(exported) ?? null;
  }

  private imports(): Map<string, ImportBinding> {
    if (!this.importMap) {
      this.importMap = new Map();
      const re = /import\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\2/g;
      for (const m of this.text.matchAll(re)) {
        for (const spec of m[1]!.split(",")) {
          const parts = spec.trim().split(/\s+as\s+/);
          if (!parts[0]) continue;
          const imported = parts[0].trim();
          this.importMap.set((parts[1] ?? imported).trim(), { local: (parts[1] ?? imported).trim(), imported, from: m[3]! });
        }
      }
    }
    return this.importMap;
  }

  /** [offset, length] of each place `name.a.b =` may be assigned. */
  private memberPlaces(name: string): Array<[number, number]> {
    this.places ??= indexPlaces(this.text);
    return this.places.members(name).map((at) => [at, name.length + 1]);
  }

  /** [offset, length] of each place a declaration of `name` may begin. */
  private declarationPlaces(name: string): Array<[number, number]> {
    this.places ??= indexPlaces(this.text);
    return this.places.declarations(name).map((at) => [at, name.length]);
  }

  private search(name: string): Definition | null {
    const places = this.declarationPlaces(name);
    // A function, class or variable declaration names its binding at the top level of its
    // statement: those places first, so that a short name assigned in a hundred function bodies
    // does not have each of them parsed. The first such declaration is the one a search of every
    // place in order would find (a place before it that sees it lies in the same statement).
    for (const [at, length] of places) {
      if (!this.statements.atTopLevel(at)) continue;
      for (const s of this.statements.statementsCovering(at, at + length) ?? []) {
        const d = this.declaredIn(s, name);
        if (d && d.kind !== "assigned") return d;
      }
    }
    // Otherwise the first assignment, in a lazy-init body or at the top level.
    for (const [at, length] of places) {
      for (const s of this.statements.statementsCovering(at, at + length) ?? []) {
        const d = this.declaredIn(s, name);
        if (d) return d;
      }
    }
    return null;
  }

  /** A definition of `name` made by top-level statement `s` itself (not by code nested in a function). */
  private declaredIn(s: Node, name: string): Definition | null {
    const node = s.type === "ExportNamedDeclaration" && s.declaration ? s.declaration : s;
    if ((node.type === "FunctionDeclaration" || node.type === "ClassDeclaration") && node.id?.name === name) {
      return { name, module: this.module, kind: node.type === "FunctionDeclaration" ? "function" : "class", node };
    }
    if (node.type === "VariableDeclaration") {
      for (const d of node.declarations) {
        if (d.id.type === "Identifier" && d.id.name === name && d.init) return { name, module: this.module, kind: "variable", node: d };
      }
      // A declaration list may also hold the lazy-init wrapper that assigns `name`.
      for (const d of node.declarations) {
        const a = d.init && lazyInitAssignment(d.init, name);
        if (a) return { name, module: this.module, kind: "assigned", node: a };
      }
      return null;
    }
    if (node.type === "ExpressionStatement") {
      const a = assignmentIn(node.expression, name) ?? lazyInitAssignment(node.expression, name);
      if (a) return { name, module: this.module, kind: "assigned", node: a };
    }
    return null;
  }
}

/** Assignments made by a top-level statement itself or directly in the lazy-init body it holds. */
function topLevelAssignments(s: Node): AssignmentExpression[] {
  const out: AssignmentExpression[] = [];
  const collect = (e: Node) => {
    if (e.type === "AssignmentExpression" && e.operator === "=") out.push(e);
    else if (e.type === "SequenceExpression") e.expressions.forEach(collect);
  };
  const fromCall = (e: Node) => {
    const fn = e?.type === "CallExpression" && e.arguments.length === 1 ? e.arguments[0] : null;
    if (fn?.type === "ArrowFunctionExpression" && fn.params.length === 0 && fn.body.type === "BlockStatement") {
      for (const st of fn.body.body) if (st.type === "ExpressionStatement") collect(st.expression);
    }
  };
  if (s.type === "ExpressionStatement") {
    collect(s.expression);
    fromCall(s.expression);
  } else if (s.type === "VariableDeclaration") {
    for (const d of s.declarations) if (d.init) fromCall(d.init);
  }
  return out;
}

/** "prototype.clear" for `name.prototype.clear`, null if the target is not a dotted path on `name`. */
function memberPath(target: Node, name: string): string | null {
  const parts: string[] = [];
  let cur = target;
  while (cur.type === "MemberExpression" && !cur.computed && cur.property.type === "Identifier") {
    parts.unshift(cur.property.name);
    cur = cur.object;
  }
  return cur.type === "Identifier" && cur.name === name && parts.length ? parts.join(".") : null;
}

/** `name = …` directly in an expression (or one element of a comma sequence). */
function assignmentIn(e: Node, name: string): Node | null {
  if (e.type === "AssignmentExpression" && e.operator === "=" && e.left.type === "Identifier" && e.left.name === name) return e;
  if (e.type === "SequenceExpression") {
    for (const x of e.expressions) {
      const a = assignmentIn(x, name);
      if (a) return a;
    }
  }
  return null;
}

/** `F(() => { …; name = …; … })`: an assignment among the statements of a lazy-init arrow. */
function lazyInitAssignment(e: Node, name: string): Node | null {
  if (e.type !== "CallExpression" || e.arguments.length !== 1) return null;
  const fn = e.arguments[0]!;
  if (fn.type !== "ArrowFunctionExpression" || fn.params.length !== 0 || fn.body.type !== "BlockStatement") return null;
  for (const st of fn.body.body) {
    if (st.type === "ExpressionStatement") {
      const a = assignmentIn(st.expression, name);
      if (a) return a;
    }
  }
  return null;
}
