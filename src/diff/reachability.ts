/**
 * The code of a lifted module that the contract's functions can never run, from facts the module states
 * itself: what the adapter passes call() (a part of the client's state filled with `emptyState()`, a hook
 * given as `undefined`), a constructor option that no code passes, a binding or a parameter that holds one
 * value on every path, code after a `return`. Used by coverage.ts to take such points out of the count of
 * changed code the search must see: "no difference found" then means the search saw every point it could.
 *
 * Sound, not complete: a value is known only when every way it can be made is known (a binding never
 * written again, a function called only by its name, an object never handed on), so what is left unknown
 * stays a point the search must reach. A point merely missed is never called unreachable.
 *
 *   function getNames() {                                   // getAppState: the adapter's emptyState()
 *     let pending = getAppState().mcp.clients.filter(…);    // an empty array, never written: the callback never runs
 *     return pending.length > 0 ? pending.map(…) : undefined;  // always undefined: the `?:`'s consequent never runs
 *   }
 */
import { analyze, type Variable } from "eslint-scope";
import { walk } from "estree-walker";
import type { Node as EstreeNode } from "estree";
import { isFunction, memberName, type FunctionNode, type Node } from "../ast/pattern.js";
import { heldEntry, type MapContext } from "./map-entries.js";

type Primitive = undefined | null | boolean | number | string;

/** What an expression is on every run of the contract's functions, and the fact that makes it so. */
type Value =
  /** One primitive value. */
  | { kind: "const"; value: Primitive; why: string }
  /** The adapter's emptyState(): every read gives another, a call does nothing, an iteration yields nothing. */
  | { kind: "empty"; why: string }
  /** An array made empty and never written: it holds nothing. */
  | { kind: "none"; why: string }
  /** An object the adapter makes for call() and nothing writes: its properties, as the adapter's expressions. */
  | { kind: "object"; props: Map<string, Node>; node: Node; why: string }
  /** One array literal just made, element by element (null: not known). Never kept by a binding. */
  | { kind: "tuple"; elems: Array<Value | null>; why: string }
  /** An array of array literals each made afresh by the same `map` callback, element by element, nothing writes. */
  | { kind: "rows"; elems: Array<Value | null>; why: string }
  /** An object a map holds under the key read (map-entries.ts): never undefined, never a primitive. */
  | { kind: "entry"; why: string };

/** What must hold for a point to run: one outcome of a test, seen deciding its `&&`/`||`, or nothing more. */
export type Outcome = "true" | "false" | "set" | "nullish" | "decides||" | "decides&&";

/** Methods of an array that read it and write nothing (an empty array's callbacks never run). */
/** The members the adapter's emptyState() answers with a function of its own rather than another empty state. */
const EMPTY_METHODS = new Set([
  "filter",
  "map",
  "flatMap",
  "slice",
  "concat",
  "some",
  "includes",
  "has",
  "findIndex",
  "findLastIndex",
  "indexOf",
  "lastIndexOf",
  "every",
  "get",
  "find",
  "forEach",
]);

const ARRAY_READS = new Set([
  "length",
  "filter",
  "map",
  "flatMap",
  "slice",
  "some",
  "every",
  "find",
  "findLast",
  "findIndex",
  "findLastIndex",
  "indexOf",
  "lastIndexOf",
  "includes",
  "forEach",
  "join",
  "at",
  "toSorted",
]);

/** Methods of an array that call a callback with each element and keep none of them in what they return. */
const ELEMENT_READS = new Set(["flatMap", "map", "some", "every", "forEach", "findIndex", "findLastIndex"]);

/** Methods of an array that give a new array: on an array, their result is one. */
const ARRAY_MAKERS = new Set(["filter", "map", "flatMap", "slice", "concat", "split"]);

export class Reachability implements MapContext {
  private readonly parents = new Map<Node, Node>();
  private readonly variableOf = new Map<Node, Variable>();
  private readonly declared = new Map<Node, Variable>();
  private readonly values = new Map<Node | Variable, Value | null | "pending">();
  /** Roots of the code never run, each with why: `reachable only when … — …`. */
  private readonly dead = new Map<Node, string>();
  private readonly adapter: { call: FunctionNode; args: Node[] } | null;
  private checking = false;
  private depth = 0;
  /** Bindings some empty array was handed to while their own value was still being worked out. */
  private readonly assumed = new Set<Variable>();

  constructor(
    private readonly text: string,
    ast: Node,
  ) {
    walk(ast as unknown as EstreeNode, {
      enter: (raw, parent) => {
        if (parent) this.parents.set(raw as unknown as Node, parent as unknown as Node);
      },
    });
    try {
      const scopes = analyze(ast as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
      for (const scope of scopes.scopes)
        for (const v of scope.variables) {
          // A class's name is bound twice, outside it and inside it: the outer binding (listed first) has the uses.
          for (const d of v.defs) if (!this.declared.has(d.name as unknown as Node)) this.declared.set(d.name as unknown as Node, v);
          for (const r of v.references) this.variableOf.set(r.identifier as unknown as Node, v);
        }
    } catch {
      // Code the scope analysis does not take: nothing is known, every point counts.
      this.adapter = null;
      return;
    }
    this.adapter = adapterCall(ast, this);
    this.findDead(ast);
    this.findDeadFunctions(ast);
  }

  /** Why the point at the end of `path` can never run (for a test, with `outcome`), or null when it may. */
  unreachable(path: readonly Node[], outcome?: Outcome): string | null {
    for (let i = path.length - 1; i >= 0; i--) {
      const why = this.dead.get(path[i]!);
      if (why !== undefined) return why;
    }
    const n = path[path.length - 1];
    if (!n || !outcome) return null;
    const v = this.value(n);
    if (!v) return null;
    const truth = truthOf(v);
    const nullish = v.kind === "const" && v.value == null;
    const never =
      ((outcome === "true" || outcome === "decides||") && !truth) ||
      ((outcome === "false" || outcome === "decides&&") && truth) ||
      (outcome === "set" && nullish) ||
      (outcome === "nullish" && !nullish);
    if (!never) return outcome === "decides&&" && nullish ? this.restThrows(n, v) : null;
    const want =
      outcome === "set"
        ? "set"
        : outcome === "nullish"
          ? "null or undefined"
          : outcome.startsWith("decides")
            ? outcome === "decides||"
              ? "true"
              : "false"
            : outcome;
    return `reachable only when \`${this.code(n)}\` is ${want} — ${because(v)}`;
  }

  /**
   * For `x && rest` with `x` always null or undefined: `x` decides the `&&` false with the rest true only if the
   * rest, evaluated, is true — but the first thing it does is read a property of `x`, which throws.
   */
  private restThrows(n: Node, v: Value): string | null {
    if (n.type !== "Identifier") return null;
    let x: Node = n;
    for (let p = this.parent(x); p?.type === "LogicalExpression" && p.operator === "&&" && p.right === x; p = this.parent(x)) x = p;
    const p = this.parent(x);
    if (p?.type !== "LogicalExpression" || p.operator !== "&&" || p.left !== x) return null;
    // What the rest evaluates first: down the left of operators, callees and member objects.
    let e: Node = p.right;
    for (;;) {
      if (e.type === "MemberExpression") {
        if (e.object.type === "Identifier") break;
        e = e.object;
      } else if (e.type === "BinaryExpression" || e.type === "LogicalExpression") e = e.left;
      else if (e.type === "CallExpression") e = e.callee;
      else if (e.type === "ChainExpression") e = e.expression;
      else return null;
    }
    if (e.type !== "MemberExpression" || e.optional || this.variable(e.object) !== this.variable(n) || !this.variable(n)) return null;
    const what = (v as Value & { kind: "const" }).value === null ? "null" : "undefined";
    return `reachable only when \`${this.code(p.right)}\` is true with \`${this.code(n)}\` false — \`${this.code(n)}\` is always ${what} (${because(v)}), and reading \`${this.code(e)}\` of it throws`;
  }

  /** The variable an identifier reads or declares. */
  variable(id: Node): Variable | undefined {
    return this.variableOf.get(id) ?? this.declared.get(id);
  }

  parent(n: Node): Node | undefined {
    return this.parents.get(n);
  }

  code(n: Node): string {
    // On one line: a chain broken over lines (`getAppState()\n  .mcp`) reads as written on one.
    const one = this.text.slice(n.start, n.end).replace(/\s+/g, " ").replace(/ \./g, ".").trim();
    return one.length > 60 ? `${one.slice(0, 57)}...` : one;
  }

  private markDead(n: Node | null | undefined, why: string): void {
    if (n && !this.dead.has(n)) this.dead.set(n, why);
  }

  /** The branches whose test is decided, the callbacks an empty value never calls, the loops over one, code after an exit. */
  private findDead(ast: Node): void {
    const only = (test: Node, want: string, v: Value) => {
      // Of an `&&` that is never true (an `||` never false), the operand that makes it so.
      let t = test;
      while (t.type === "LogicalExpression" && ((want === "true" && t.operator === "&&") || (want === "false" && t.operator === "||"))) {
        const l = this.value(t.left);
        if (!l || truthOf(l) !== (want === "false")) break;
        [t, v] = [t.left, l];
      }
      return `reachable only when \`${this.code(t)}\` is ${want} — ${because(v)}`;
    };
    walk(ast as unknown as EstreeNode, {
      enter: (raw) => {
        const n = raw as unknown as Node;
        if (n.type === "IfStatement" || n.type === "ConditionalExpression") {
          const v = this.value(n.test);
          if (!v) return;
          if (truthOf(v)) this.markDead(n.alternate, only(n.test, "false", v));
          else this.markDead(n.consequent, only(n.test, "true", v));
        } else if (n.type === "LogicalExpression") {
          const v = this.value(n.left);
          if (!v) return;
          const nullish = v.kind === "const" && v.value == null;
          if (n.operator === "&&" && !truthOf(v)) this.markDead(n.right, only(n.left, "true", v));
          if (n.operator === "||" && truthOf(v)) this.markDead(n.right, only(n.left, "false", v));
          if (n.operator === "??" && !nullish) this.markDead(n.right, only(n.left, "null or undefined", v));
        } else if (n.type === "CallExpression") {
          // An empty state's method, or an empty array's reading one, never calls the functions it is given.
          const callee = n.callee.type === "ChainExpression" ? n.callee.expression : n.callee;
          const receiver = callee.type === "MemberExpression" ? callee.object : callee;
          const v = this.value(receiver);
          const reads = callee.type === "MemberExpression" && ARRAY_READS.has(memberName(callee) ?? "");
          // The empty state's `get(k)` makes `new k()`: a function given to it runs.
          const constructs = v?.kind === "empty" && callee.type === "MemberExpression" && memberName(callee) === "get";
          if (!v || constructs || !(v.kind === "empty" || (v.kind === "none" && reads))) return;
          for (const a of n.arguments)
            if (isFunction(a))
              this.markDead((a as FunctionNode).body, `reachable only when \`${this.code(receiver)}\` holds something — ${because(v)}`);
        } else if (n.type === "ForOfStatement") {
          const v = this.value(n.right);
          if (v && (v.kind === "empty" || v.kind === "none"))
            this.markDead(n.body, `reachable only when \`${this.code(n.right)}\` holds something — ${because(v)}`);
        } else if (n.type === "BlockStatement" || n.type === "StaticBlock") {
          const exit = n.body.findIndex((s) => s.type === "ReturnStatement" || s.type === "ThrowStatement");
          for (const s of n.body.slice(exit < 0 ? n.body.length : exit + 1))
            if (s.type !== "FunctionDeclaration")
              this.markDead(
                s,
                `never reachable: it follows a \`${n.body[exit]!.type === "ReturnStatement" ? "return" : "throw"}\` in the same block`,
              );
        }
      },
    });
  }

  /** Whether `n` lies in code found never to run. */
  private isDead(n: Node): boolean {
    for (let x: Node | undefined = n; x; x = this.parent(x)) if (this.dead.has(x)) return true;
    return false;
  }

  /**
   * Functions whose every use is in code that never runs (or in themselves), until no more are found: a
   * helper only the dead code calls never runs either.
   */
  private findDeadFunctions(ast: Node): void {
    const named: Array<[Node, FunctionNode]> = [];
    walk(ast as unknown as EstreeNode, {
      enter: (raw) => {
        const n = raw as unknown as Node;
        if (n.type === "FunctionDeclaration" && n.id) named.push([n.id, n]);
        if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.init && isFunction(n.init)) named.push([n.id, n.init]);
      },
    });
    for (let found = true; found;) {
      found = false;
      for (const [id, fn] of named) {
        if (this.isDead(fn.body)) continue;
        const v = this.variable(id);
        if (!v || v.defs.length !== 1) continue;
        const uses = v.references.filter((r) => !r.init).map((r) => r.identifier as unknown as Node);
        if (uses.length === 0 || !uses.every((u) => contains(fn, u) || this.isDead(u))) continue;
        const name = (id as { name: string }).name;
        this.markDead(fn.body, `reachable only when \`${name}\` is called — every call of it is in code that cannot run`);
        found = true;
      }
    }
  }

  /** The value of `n` on every run, or null when it is not known. */
  value(n: Node): Value | null {
    const memo = this.values.get(n);
    if (memo === "pending") {
      // While an assumption is checked, the test being worked out when it was made is worked out again, to a
      // bounded depth and not kept.
      if (!this.checking || this.depth > 64) return null;
      this.depth++;
      try {
        return this.compute(n);
      } finally {
        this.depth--;
      }
    }
    if (memo !== undefined) return memo;
    this.values.set(n, "pending");
    let v: Value | null = null;
    try {
      v = this.compute(n);
    } finally {
      this.values.set(n, v);
    }
    return v;
  }

  private compute(n: Node): Value | null {
    switch (n.type) {
      case "Literal":
        return "regex" in n || "bigint" in n ? null : { kind: "const", value: n.value as Primitive, why: "" };
      case "TemplateLiteral":
        return n.expressions.length === 0 ? { kind: "const", value: n.quasis[0]?.value.cooked ?? "", why: "" } : null;
      case "Identifier": {
        const v = this.variable(n);
        if (!v) return n.name === "undefined" ? { kind: "const", value: undefined, why: "" } : null;
        return this.variableValue(v);
      }
      case "ChainExpression":
        return this.value(n.expression);
      case "MemberExpression": {
        if (n.object.type === "ThisExpression") return this.optionField(n);
        const o = this.value(n.object);
        if (!o) return null;
        if (n.optional && o.kind === "const" && o.value == null) return { kind: "const", value: undefined, why: o.why };
        const key =
          memberName(n) ??
          (n.computed && n.property.type === "Literal" && ["string", "number"].includes(typeof n.property.value)
            ? String(n.property.value)
            : undefined);
        return key === undefined ? null : this.member(o, key);
      }
      case "CallExpression":
        return this.call(n);
      case "UnaryExpression": {
        const a = this.value(n.argument);
        if (n.operator === "void") return { kind: "const", value: undefined, why: "`void`" };
        if (!a) return null;
        if (n.operator === "!") return { kind: "const", value: !truthOf(a), why: a.why };
        if (n.operator === "typeof")
          return { kind: "const", value: a.kind === "const" ? typeof a.value : a.kind === "empty" ? "function" : "object", why: a.why };
        return null;
      }
      case "BinaryExpression": {
        const [l, r] = [this.value(n.left), this.value(n.right)];
        if (!l || !r) return null;
        // An object (the empty state, an array) is never equal to a primitive.
        if ((l.kind === "const") !== (r.kind === "const") && ["===", "!==", "==", "!="].includes(n.operator)) {
          const c = (l.kind === "const" ? l : r) as Value & { kind: "const" };
          if (n.operator.length === 3 || c.value == null)
            return { kind: "const", value: n.operator.startsWith("!"), why: (l.kind === "const" ? r : l).why };
        }
        if (l.kind !== "const" || r.kind !== "const") return null;
        const value = binary(n.operator, l.value, r.value);
        return value === NO ? null : { kind: "const", value, why: l.why || r.why };
      }
      case "LogicalExpression": {
        const l = this.value(n.left);
        if (!l) return null;
        const nullish = l.kind === "const" && l.value == null;
        const takesRight = n.operator === "&&" ? truthOf(l) : n.operator === "||" ? !truthOf(l) : nullish;
        return takesRight ? withWhy(this.value(n.right), l.why) : l;
      }
      case "ConditionalExpression": {
        // A constant arm's value holds because the test is decided: the test's fact is the reason.
        const t = this.value(n.test);
        return t ? withWhy(this.value(truthOf(t) ? n.consequent : n.alternate), t.why) : null;
      }
      case "AwaitExpression": {
        // What an async helper returns, awaited; nothing else here is a thenable: the empty state's `then` is
        // undefined, and a primitive or an array is not one.
        const arg = n.argument;
        if (arg.type === "CallExpression" && arg.callee.type === "Identifier") {
          const fn = this.directFunction(arg.callee);
          if (fn?.async && !fn.generator) return this.returned(fn);
        }
        const a = this.value(arg);
        return a && a.kind !== "object" && a.kind !== "entry" ? a : null;
      }
      case "ArrayExpression": {
        if (n.elements.length === 0) return { kind: "none", why: "" };
        // `[...xs]`, `[...new Set(xs)]` of empty arrays: a copy that holds nothing.
        if (n.elements.every((e) => e?.type === "SpreadElement")) {
          const empties = n.elements.map((e) => this.copied(e.argument as Node));
          return empties.every((e) => e) ? { kind: "none", why: empties.find((e) => e!.why)?.why ?? "" } : null;
        }
        if (n.elements.some((e) => !e || e.type === "SpreadElement")) return null;
        return { kind: "tuple", elems: n.elements.map((e) => this.value(e as Node)), why: "" };
      }
      default:
        return null;
    }
  }

  /** What iterating `n` yields, when it yields nothing: an empty array, the empty state, or a `new Set` of one. */
  private copied(n: Node): Value | null {
    const set = n.type === "NewExpression" && n.callee.type === "Identifier" && this.isGlobalSet(n.callee);
    if (set && n.arguments.length === 0) return { kind: "none", why: "" };
    const v = this.value(set && n.arguments.length === 1 ? (n.arguments[0] as Node) : n);
    return v && (v.kind === "none" || v.kind === "empty") ? v : null;
  }

  /** Whether `n` is an array on every run: a literal, or an array's (or a string's `split`) method that makes one. */
  private isArray(n: Node): boolean {
    if (n.type === "ArrayExpression") return true;
    const v = this.value(n);
    if (v && (v.kind === "none" || v.kind === "rows")) return true;
    if (n.type === "Identifier") {
      // A binding never written again, made with an array.
      const w = this.variable(n);
      const def = w?.defs.length === 1 ? w.defs[0] : undefined;
      const decl = def?.type === "Variable" ? (def.node as unknown as Node & { type: "VariableDeclarator" }) : undefined;
      const head = decl && this.parent(this.parent(decl) ?? decl);
      if (!decl?.init || decl.id !== (def!.name as never) || head?.type === "ForOfStatement" || head?.type === "ForInStatement")
        return false;
      return !w!.references.some((r) => r.isWrite() && !r.init) && this.isArray(decl.init);
    }
    if (n.type !== "CallExpression" || n.callee.type !== "MemberExpression") return false;
    const method = memberName(n.callee) ?? "";
    if (!ARRAY_MAKERS.has(method)) return false;
    // A string's split gives an array; the other makers only when called on an array.
    return method === "split" ? n.arguments.length >= 1 && n.arguments[0]!.type === "Literal" : this.isArray(n.callee.object);
  }

  private member(o: Value, key: string): Value | null {
    switch (o.kind) {
      case "tuple":
        if (key === "length") return { kind: "const", value: o.elems.length, why: o.why };
        return /^\d+$/.test(key) && Number(key) < o.elems.length ? withWhy(o.elems[Number(key)] ?? null, o.why) : null;
      case "rows":
      case "entry":
        return null;
      case "empty":
        if (key === "length" || key === "size") return { kind: "const", value: 0, why: o.why };
        if (key === "then") return { kind: "const", value: undefined, why: o.why };
        // Its methods are functions of their own (call handles their calls); any other key, another empty state.
        return EMPTY_METHODS.has(key) ? null : o;
      case "none":
        return key === "length" ? { kind: "const", value: 0, why: o.why } : null;
      case "const":
        return typeof o.value === "string" && key === "length" ? { kind: "const", value: o.value.length, why: o.why } : null;
      case "object": {
        const e = o.props.get(key);
        if (e) return this.adapterValue(e, key);
        return key in Object.prototype ? null : { kind: "const", value: undefined, why: `the tool search gives call() no \`${key}\`` };
      }
    }
  }

  /** A property of an object the adapter gives call(): `emptyState()`, `undefined`, a literal; anything else unknown. */
  private adapterValue(e: Node, key: string): Value | null {
    if (
      e.type === "CallExpression" &&
      e.callee.type === "Identifier" &&
      e.callee.name === "emptyState" &&
      e.arguments.length === 0 &&
      this.variable(e.callee)?.scope.type === "module"
    )
      return { kind: "empty", why: `the tool search gives call() \`${key}\` as the empty state of a client it does not model` };
    if ((e.type === "Identifier" && e.name === "undefined" && !this.variable(e)) || (e.type === "Literal" && e.value === null))
      return {
        kind: "const",
        value: e.type === "Literal" ? null : undefined,
        why: `the tool search gives call() \`${key}\` as ${e.type === "Literal" ? "null" : "undefined"}`,
      };
    if (e.type === "ObjectExpression") return objectOf(e);
    return null;
  }

  private call(n: Node & { type: "CallExpression" }): Value | null {
    const callee = n.callee as Node;
    if (callee.type === "MemberExpression") {
      const o = this.value(callee.object);
      const method = memberName(callee);
      if (method === undefined) return null;
      const held = method === "get" ? heldEntry(this, n) : null;
      if (held) return { kind: "entry", why: held };
      const cb = n.arguments[0] as Node | undefined;
      const literal = cb && isFunction(cb) && !cb.async && !cb.generator ? cb : null;
      if (o?.kind === "rows") {
        // Every callback gives an empty array: flattened, nothing.
        if (method !== "flatMap" || !literal || n.arguments.length !== 1) return null;
        const r = this.returned(literal);
        return r?.kind === "none" ? { kind: "none", why: r.why || o.why } : null;
      }
      if (
        method === "map" &&
        literal &&
        n.arguments.length === 1 &&
        !callee.optional &&
        (!o || o.kind === "tuple") &&
        this.isArray(callee.object)
      ) {
        // Each element mapped to an array literal of its own, made afresh on every call of the callback.
        const r = this.returned(literal);
        if (r?.kind !== "tuple") return null;
        const why = `the \`map\` callback \`${this.code(literal)}\` pairs each element with a new empty array, filled nowhere`;
        return { kind: "rows", elems: r.elems.map((e) => (e?.kind === "none" ? { ...e, why: e.why || why } : e)), why: "" };
      }
      if (!o) return null;
      if (callee.optional && o.kind === "const" && o.value == null) return { kind: "const", value: undefined, why: o.why };
      if (o.kind === "object") {
        // A hook of the adapter's object: `context.refreshTools?.()` with it undefined, or an empty state called.
        const f = this.member(o, method);
        if (f?.kind === "const" && f.value == null && n.optional) return { kind: "const", value: undefined, why: f.why };
        return f?.kind === "empty" ? f : null;
      }
      if (o.kind === "empty" || o.kind === "none") {
        if (["filter", "map", "flatMap", "slice"].includes(method)) return { kind: "none", why: o.why };
        if (["some", "includes", "has"].includes(method)) return { kind: "const", value: false, why: o.why };
        if (["findIndex", "findLastIndex", "indexOf", "lastIndexOf"].includes(method)) return { kind: "const", value: -1, why: o.why };
        if (method === "every") return { kind: "const", value: true, why: o.why };
        if (method === "find" || method === "forEach" || (o.kind === "none" && method === "findLast"))
          return { kind: "const", value: undefined, why: o.why };
        if (o.kind === "none") return method === "join" ? { kind: "const", value: "", why: o.why } : null;
        // The empty state's other members: a call of one gives another empty state (its `get` makes an instance).
        return method === "get" || method === "concat" ? null : o;
      }
      return null;
    }
    const f = this.value(callee);
    if (f?.kind === "empty") return f;
    if (f?.kind === "const" && f.value == null && n.optional) return { kind: "const", value: undefined, why: f.why };
    if (callee.type !== "Identifier") return null;
    const fn = this.directFunction(callee);
    if (!fn || fn.async || fn.generator) return null;
    // A helper that returns a copy of its parameter (`[...new Set(items)]`): at this call, a copy of this argument.
    const at = copiedParam(fn, (id) => this.isGlobalSet(id));
    if (at >= 0) {
      const a = n.arguments[at] as Node | undefined;
      if (!a || n.arguments.slice(0, at + 1).some((x) => x.type === "SpreadElement")) return null;
      const v = this.copied(a);
      return v && { kind: "none", why: v.why };
    }
    return this.returned(fn);
  }

  /** What a function returns on every call: the same value from each of its returns, or null. */
  private returned(fn: FunctionNode): Value | null {
    const values: Array<Value | null> = [];
    if (fn.body.type !== "BlockStatement") values.push(this.value(fn.body));
    else {
      const returns: Node[] = [];
      walk(fn.body as unknown as EstreeNode, {
        enter(raw) {
          const x = raw as unknown as Node;
          if (isFunction(x)) this.skip();
          else if (x.type === "ReturnStatement") returns.push(x);
        },
      });
      for (const x of returns as Array<Node & { type: "ReturnStatement" }>)
        values.push(x.argument ? this.value(x.argument) : { kind: "const", value: undefined, why: "" });
      const last = fn.body.body.at(-1);
      if (last?.type !== "ReturnStatement" && last?.type !== "ThrowStatement") return null;
    }
    return join(values);
  }

  /** The function an identifier names when every other use of that name is a call of it (none hands it on). */
  directFunction(id: Node): FunctionNode | null {
    const v = this.variable(id);
    if (!v || v.defs.length !== 1 || v.references.some((r) => r.isWrite() && !r.init)) return null;
    const def = v.defs[0]!;
    let fn: Node | null | undefined = null;
    if (def.type === "FunctionName") fn = def.node as unknown as Node;
    else if (def.type === "Variable") fn = (def.node as unknown as { init?: Node | null }).init;
    if (!fn || !isFunction(fn)) return null;
    const calledOnly = v.references.every((r) => {
      if (r.init) return true;
      const id = r.identifier as unknown as Node;
      const p = this.parent(id);
      return p?.type === "CallExpression" && p.callee === id;
    });
    return calledOnly ? fn : null;
  }

  private variableValue(v: Variable): Value | null {
    const memo = this.values.get(v);
    if (memo === "pending") return null;
    if (memo !== undefined) return memo;
    this.values.set(v, "pending");
    // What is worked out from here on may rest on an assumption about `v`: it goes if the assumption fails.
    const known = new Set(this.values.keys());
    let out: Value | null = null;
    try {
      out = this.computeVariable(v);
      // An object of the adapter's held by a binding of the release's: known only while nothing can write it.
      if (out?.kind === "object" && !this.onlyRead(v, out.node)) out = null;
      // An array literal is known only where it is made: a binding could have it written.
      if (out?.kind === "tuple") out = null;
      // An empty array only while nothing can write it: every use of the binding reads it, or hands it on only
      // in code that runs when it holds something, or to a binding or parameter that holds an empty array
      // itself on the same terms (nothing writes it before it is handed on, so it never does).
      if (out?.kind === "none") {
        const handed = v.references.filter((r) => !r.init && !this.readsOnly(r.identifier as unknown as Node));
        if (
          handed.length > 0 &&
          !this.holds(v, out, () =>
            handed.every((r) => this.offWhileEmpty(r.identifier as unknown as Node) || this.handedToEmpty(r.identifier as unknown as Node)),
          )
        )
          out = null;
      }
      // Arrays of fresh array literals: only while every use reads them element by element, the elements'
      // bindings each holding what the literal made.
      if (out?.kind === "rows") {
        const rows = out;
        if (!this.holds(v, rows, () => v.references.every((r) => r.init || this.rowsRead(r.identifier as unknown as Node, rows))))
          out = null;
      }
      if (this.assumed.delete(v) && out?.kind !== "none") {
        // Something was handed to `v` on the assumption that it holds an empty array: it does not.
        for (const k of [...this.values.keys()]) if (!known.has(k)) this.values.delete(k);
      }
    } finally {
      this.values.set(v, out);
    }
    return out;
  }

  /** Whether `check` holds with `v` taken to be `out` meanwhile; what was worked out on that assumption goes if not. */
  private holds(v: Variable, out: Value, check: () => boolean): boolean {
    const known = new Set(this.values.keys());
    this.values.set(v, out);
    const was = this.checking;
    this.checking = true;
    let ok: boolean;
    try {
      ok = check();
    } finally {
      this.checking = was;
    }
    if (!ok) for (const k of [...this.values.keys()]) if (!known.has(k)) this.values.delete(k);
    return ok;
  }

  /**
   * Whether an empty array at `id` is handed to a binding (`let b = a`) or a parameter of a function called only
   * by name, that holds an empty array on every run itself. A binding still being worked out is taken to, and
   * what rests on that goes when it turns out not to.
   */
  private handedToEmpty(id: Node): boolean {
    const p = this.parent(id);
    let target: Node | undefined;
    if (p?.type === "VariableDeclarator" && p.init === id && p.id.type === "Identifier") target = p.id;
    else if (p?.type === "CallExpression" && p.callee !== id && p.callee.type === "Identifier") {
      const at = p.arguments.indexOf(id as never);
      if (at < 0 || p.arguments.slice(0, at).some((a) => a.type === "SpreadElement")) return false;
      const q = this.directFunction(p.callee)?.params[at] as Node | undefined;
      target = q?.type === "AssignmentPattern" ? q.left : q;
    }
    if (target?.type !== "Identifier") return false;
    const w = this.variable(target);
    if (!w) return false;
    if (p?.type === "CallExpression" && this.onlyReads(w, 8)) return true;
    if (this.values.get(w) === "pending") {
      this.assumed.add(w);
      return true;
    }
    return this.variableValue(w)?.kind === "none";
  }

  /** Whether a binding is never written and every use of it reads it, or hands it to a parameter that does the same. */
  private onlyReads(w: Variable, depth: number): boolean {
    if (depth === 0) return false;
    return w.references.every((r) => {
      if (r.init) return true;
      if (r.isWrite()) return false;
      const id = r.identifier as unknown as Node;
      if (this.readsOnly(id)) return true;
      const p = this.parent(id);
      if (p?.type !== "CallExpression" || p.callee === id || p.callee.type !== "Identifier") return false;
      const at = p.arguments.indexOf(id as never);
      if (at < 0 || p.arguments.slice(0, at).some((a) => a.type === "SpreadElement")) return false;
      const q = this.directFunction(p.callee)?.params[at] as Node | undefined;
      const t = q?.type === "AssignmentPattern" ? (q.left as Node) : q;
      const u = t?.type === "Identifier" ? this.variable(t) : undefined;
      return !!u && this.onlyReads(u, depth - 1);
    });
  }

  /**
   * Whether a use of an array of fresh literals reads it: its length, or a method that calls back with each element
   * (keeping none) where the callback takes the element apart by position, and each part the literal made empty
   * is a binding that holds an empty array by the rules above.
   */
  private rowsRead(id: Node, rows: Value & { kind: "rows" }): boolean {
    const m = this.parent(id);
    if (m?.type !== "MemberExpression" || m.object !== id) return false;
    const key = memberName(m);
    const use = this.parent(m);
    if ((use?.type === "AssignmentExpression" && use.left === m) || use?.type === "UpdateExpression") return false;
    if (key === "length") return true;
    if (!ELEMENT_READS.has(key ?? "") || use?.type !== "CallExpression" || use.callee !== m) return false;
    const cb = use.arguments[0] as Node | undefined;
    if (!cb || !isFunction(cb) || cb.params.length > 2) return false;
    const first = cb.params[0] as Node | undefined;
    if (!first) return true;
    if (first.type !== "ArrayPattern") return false;
    return first.elements.every((e, i) => {
      if (!e) return true;
      if (e.type !== "Identifier") return false;
      if (rows.elems[i]?.kind !== "none") return !rows.elems[i] || rows.elems[i].kind === "const";
      const w = this.variable(e);
      return !!w && this.variableValue(w)?.kind === "none";
    });
  }

  /** Whether `id` is in an arm of a test, in its own function, that the values known now decide against. */
  private offWhileEmpty(id: Node): boolean {
    for (let x = id, p = this.parent(id); p && !isFunction(p); x = p, p = this.parent(p)) {
      const test =
        p.type === "LogicalExpression" && p.right === x
          ? p.left
          : (p.type === "IfStatement" || p.type === "ConditionalExpression") && x !== p.test
            ? p.test
            : null;
      if (!test) continue;
      const t = this.value(test);
      if (!t) continue;
      const taken =
        p.type === "LogicalExpression"
          ? p.operator === "&&"
            ? truthOf(t)
            : p.operator === "||"
              ? !truthOf(t)
              : t.kind === "const" && t.value == null
          : x === (p as Node & { consequent: Node }).consequent
            ? truthOf(t)
            : !truthOf(t);
      if (!taken) return true;
    }
    return false;
  }

  private readsOnly(id: Node): boolean {
    const p = this.parent(id);
    if (p?.type === "ForOfStatement" && p.right === id) return true;
    // Copied element by element: spread into an array literal, made a Set, or flattened out of a flatMap callback.
    if (p?.type === "SpreadElement" && this.parent(p)?.type === "ArrayExpression") return true;
    if (p?.type === "NewExpression" && p.callee.type === "Identifier" && this.isGlobalSet(p.callee)) return true;
    if (p?.type === "CallExpression" && p.callee.type === "Identifier" && p.callee !== id) {
      const fn = this.directFunction(p.callee);
      const at = p.arguments.indexOf(id as never);
      if (fn && !fn.async && !fn.generator && at >= 0 && copiedParam(fn, (x) => this.isGlobalSet(x)) === at) return true;
    }
    const fn = p?.type === "ReturnStatement" ? this.enclosingFunction(p) : p && isFunction(p) && p.body === (id as never) ? p : null;
    const call = fn && this.parent(fn);
    if (call?.type === "CallExpression" && call.arguments[0] === (fn as never) && call.callee.type === "MemberExpression")
      return memberName(call.callee) === "flatMap";
    if (p?.type !== "MemberExpression" || p.object !== id || !ARRAY_READS.has(memberName(p) ?? "")) return false;
    const pp = this.parent(p);
    return !(pp?.type === "AssignmentExpression" && pp.left === p) && pp?.type !== "UpdateExpression";
  }

  private isGlobalSet(id: Node): boolean {
    return id.type === "Identifier" && id.name === "Set" && !this.variable(id);
  }

  private enclosingFunction(n: Node): FunctionNode | null {
    for (let x = this.parent(n); x; x = this.parent(x)) if (isFunction(x)) return x;
    return null;
  }

  private computeVariable(v: Variable): Value | null {
    if (v.defs.length !== 1 || v.references.some((r) => r.isWrite() && !r.init)) return null;
    const def = v.defs[0]!;
    const name = def.name as unknown as Node;
    if (def.type === "Variable") {
      const decl = def.node as unknown as Node & { type: "VariableDeclarator" };
      const head = this.parent(this.parent(decl) ?? decl);
      if (head && (head.type === "ForOfStatement" || head.type === "ForInStatement")) return null;
      const steps = patternPath(decl.id, name);
      if (!steps) return null;
      const base: Value | null = decl.init ? this.value(decl.init) : { kind: "const", value: undefined, why: "" };
      return named(this.project(base, steps), name);
    }
    if (def.type === "Parameter") {
      const fn = def.node as unknown as FunctionNode;
      const index = fn.params.findIndex((p) => contains(p, name));
      if (index < 0) return null;
      const steps = patternPath(fn.params[index] as Node, name);
      if (!steps) return null;
      // A callback an array of fresh literals calls with each element: that element's literal.
      const call = this.parent(fn);
      if (
        index === 0 &&
        call?.type === "CallExpression" &&
        call.arguments[0] === (fn as never) &&
        call.callee.type === "MemberExpression" &&
        ELEMENT_READS.has(memberName(call.callee) ?? "")
      ) {
        const rows = this.value(call.callee.object);
        if (rows?.kind === "rows") return named(this.project({ kind: "tuple", elems: rows.elems, why: "" }, steps), name);
      }
      // Each call's argument through the pattern (its defaults where a call leaves it out), then one value for all.
      const given = this.argument(fn, index);
      return given === null ? null : named(join(given.map((g) => this.project(g, steps))), name);
    }
    return null;
  }

  /** What a function's parameter is given at each of its calls: the adapter's object for call(), a helper's arguments. */
  private argument(fn: FunctionNode, index: number): Array<Value | null> | null {
    if (this.adapter && fn === this.adapter.call) {
      const arg = this.adapter.args[index - 1];
      if (index === 0 || arg?.type !== "ObjectExpression" || !this.keptWhole(fn.params[index] as Node, arg)) return null;
      return [objectOf(arg)];
    }
    const id = fn.type === "FunctionDeclaration" ? fn.id : (this.parent(fn) as { id?: Node } | undefined)?.id;
    if (!id || fn.params.slice(0, index + 1).some((p) => p.type === "RestElement")) return null;
    const v = this.variable(id);
    if (!v || !this.directFunction(id)) return null;
    const values = v.references
      .filter((r) => !r.init)
      .map((r): Value | null => {
        const call = this.parent(r.identifier as unknown as Node) as Node & { type: "CallExpression" };
        if (call.arguments.slice(0, index + 1).some((a) => a.type === "SpreadElement")) return null;
        const a = call.arguments[index] as Node | undefined;
        return a ? this.value(a) : { kind: "const", value: undefined, why: `no call of \`${(id as { name: string }).name}\` passes it` };
      });
    return values.length ? values : null;
  }

  /** Whether call()'s parameter is only read (destructured, or a property read), never written or handed on. */
  /** Whether a parameter given the adapter's object `literal` only reads it (destructured, a property read). */
  private keptWhole(param: Node, literal: Node, seen = new Set<Node>()): boolean {
    const target = param.type === "AssignmentPattern" ? param.left : param;
    // Destructured: each binding that holds an object of its own is checked where its value is worked out.
    if (target.type === "ObjectPattern") return true;
    if (target.type !== "Identifier" || seen.has(target)) return false;
    seen.add(target);
    const v = this.variable(target);
    return !!v && this.onlyRead(v, literal, seen);
  }

  /**
   * Whether every use of a binding of the adapter's object `literal` reads it: destructured, handed to a helper
   * called only by name that reads it too, or a chain of property reads that writes none of them and hands on
   * no object of the adapter's, nor calls a function of its own. Then nothing can change what call() reads.
   */
  private onlyRead(v: Variable, literal: Node, seen = new Set<Node>()): boolean {
    return v.references.every((r) => {
      if (r.isWrite() && !r.init) return false;
      if (r.init) return true;
      const id = r.identifier as unknown as Node;
      const p = this.parent(id);
      if (p?.type === "VariableDeclarator" && p.init === id) return p.id.type === "ObjectPattern";
      if (p?.type === "CallExpression" && p.callee !== id && p.callee.type === "Identifier") {
        const at = p.arguments.indexOf(id as never);
        const q = this.directFunction(p.callee)?.params[at] as Node | undefined;
        return at >= 0 && !!q && q.type !== "RestElement" && this.keptWhole(q, literal, seen);
      }
      let top = id;
      let at: Node | undefined = literal;
      for (let m = this.parent(top); m?.type === "MemberExpression" && m.object === top; m = this.parent(top)) {
        const key = memberName(m);
        if (key === undefined) return false;
        const pm = this.parent(m);
        if (
          (pm?.type === "AssignmentExpression" && pm.left === m) ||
          pm?.type === "UpdateExpression" ||
          (pm?.type === "UnaryExpression" && pm.operator === "delete")
        )
          return false;
        at = at?.type === "ObjectExpression" ? propertyNode(at, key) : undefined;
        top = m;
      }
      if (top === id) return false;
      const use = this.parent(top);
      if (at && isFunction(at)) return false;
      if (use?.type === "CallExpression" && use.callee === top) return true;
      if (use?.type === "VariableDeclarator" && use.init === top && use.id.type === "ObjectPattern") return true;
      // An object of the adapter's handed on could be written by whoever gets it.
      return at?.type !== "ObjectExpression";
    });
  }

  private project(base: Value | null, steps: Step[]): Value | null {
    let v = base;
    for (const s of steps) {
      if (!v) return null;
      if ("key" in s) v = this.member(v, s.key);
      // An array pattern takes an iterable's elements: known only of an array literal's.
      else if ("index" in s) v = v.kind === "tuple" ? this.member(v, String(s.index)) : null;
      else if (v.kind === "const" && v.value === undefined) v = this.value(s.fallback);
    }
    return v;
  }

  /**
   * `this.f` or `this.#f` in a class that sets it in its constructor alone, from a parameter with a falsy
   * default or none, when no code makes the class with that argument: the default, always.
   */
  private optionField(m: Node & { type: "MemberExpression" }): Value | null {
    const field = m.computed
      ? null
      : m.property.type === "PrivateIdentifier"
        ? `#${m.property.name}`
        : m.property.type === "Identifier"
          ? m.property.name
          : null;
    if (field === null) return null;
    let cls: Node | undefined = m;
    while (cls && cls.type !== "ClassDeclaration" && cls.type !== "ClassExpression") {
      // `this` inside a function of its own is not the instance, nor in a static member (there it is the class).
      if (cls.type === "FunctionDeclaration" || cls.type === "FunctionExpression") {
        const p = this.parent(cls);
        if (p?.type !== "MethodDefinition") return null;
      }
      if ((cls.type === "MethodDefinition" || cls.type === "PropertyDefinition") && cls.static) return null;
      if (cls.type === "StaticBlock") return null;
      cls = this.parent(cls);
    }
    if (!cls || (cls.type !== "ClassDeclaration" && cls.type !== "ClassExpression")) return null;
    // The class's name: its own, or that of the binding it is made for (`let Cache = class { … }`), never written again.
    const holder = this.parent(cls);
    const name =
      cls.id ?? (holder?.type === "VariableDeclarator" && holder.init === cls && holder.id.type === "Identifier" ? holder.id : null);
    if (!name) return null;
    const option = constructorOption(cls, field);
    if (!option) return null;
    const v = this.variable(name);
    if (!v || v.defs.length !== 1 || v.references.some((r) => r.isWrite() && !r.init)) return null;
    const made = v.references.every((r) => {
      if (r.init) return true;
      const id = r.identifier as unknown as Node;
      const p = this.parent(id);
      if (p?.type === "NewExpression" && p.callee === id)
        return p.arguments.length <= option.index && p.arguments.every((a) => a.type !== "SpreadElement");
      if (p?.type === "BinaryExpression" && p.operator === "instanceof" && p.right === id) return true;
      // The empty state's `get(C)` makes `new C()`, with no arguments.
      if (
        p?.type === "CallExpression" &&
        p.arguments.length === 1 &&
        p.callee.type === "MemberExpression" &&
        memberName(p.callee) === "get"
      )
        return this.value(p.callee.object)?.kind === "empty";
      return false;
    });
    if (!made) return null;
    return {
      kind: "const",
      value: option.value,
      why: `the tool search never makes ${name.name} with its constructor option ${option.name}`,
    };
  }
}

/** An object literal of the adapter's, property by property; null with a spread, a computed key or a method. */
/** The value node of property `key` of an object literal, if it has one by that name. */
function propertyNode(o: Node & { type: "ObjectExpression" }, key: string): Node | undefined {
  for (const p of o.properties)
    if (
      p.type === "Property" &&
      !p.computed &&
      (p.key.type === "Identifier" ? p.key.name : String((p.key as { value: unknown }).value)) === key
    )
      return p.value;
  return undefined;
}

function objectOf(e: Node & { type: "ObjectExpression" }): Value | null {
  const props = new Map<string, Node>();
  for (const p of e.properties) {
    if (p.type !== "Property" || p.computed || p.kind !== "init") return null;
    props.set(p.key.type === "Identifier" ? p.key.name : String((p.key as { value: unknown }).value), p.value);
  }
  return { kind: "object", props, node: e, why: "" };
}

const NO = Symbol("not known");

function binary(op: string, l: Primitive, r: Primitive): Primitive | typeof NO {
  switch (op) {
    case "===":
      return l === r;
    case "!==":
      return l !== r;
    case "==":
      return l == r;
    case "!=":
      return l != r;
    case "<":
    case ">":
    case "<=":
    case ">=":
      if (typeof l !== "number" || typeof r !== "number") return NO;
      return op === "<" ? l < r : op === ">" ? l > r : op === "<=" ? l <= r : l >= r;
    default:
      return NO;
  }
}

/** A value the code itself fixes (a literal, `[]`), said by the binding that holds it. */
function named(v: Value | null, id: Node): Value | null {
  if (!v || v.why !== "" || (v.kind !== "const" && v.kind !== "none")) return v;
  const what = v.kind === "none" ? "an empty array" : v.value === undefined ? "undefined" : JSON.stringify(v.value);
  return { ...v, why: `\`${(id as { name: string }).name}\` is always ${what}` };
}

function withWhy(v: Value | null, why: string): Value | null {
  return v && !v.why ? { ...v, why } : v;
}

/** The fact behind a value, or what it is when the code itself fixes it. */
function because(v: Value): string {
  return v.why || "it is a constant of the code";
}

function truthOf(v: Value): boolean {
  return v.kind === "const" ? Boolean(v.value) : true;
}

/**
 * The index of the parameter a function returns a copy of, element by element — its body `return [...p]` or
 * `return [...new Set(p)]` with the global Set — or -1.
 */
function copiedParam(fn: FunctionNode, globalSet: (id: Node) => boolean): number {
  const body = fn.body as Node;
  const ret =
    body.type === "BlockStatement"
      ? body.body.length === 1 && body.body[0]!.type === "ReturnStatement"
        ? body.body[0].argument
        : null
      : body;
  if (ret?.type !== "ArrayExpression" || ret.elements.length !== 1 || ret.elements[0]?.type !== "SpreadElement") return -1;
  let inner = ret.elements[0].argument as Node;
  if (inner.type === "NewExpression" && inner.callee.type === "Identifier" && inner.arguments.length === 1) {
    if (!globalSet(inner.callee)) return -1;
    inner = inner.arguments[0] as Node;
  }
  if (inner.type !== "Identifier") return -1;
  const name = inner.name;
  return fn.params.findIndex((p) => p.type === "Identifier" && p.name === name);
}

/** One value when all are the same known value, else null. */
function join(values: Array<Value | null>): Value | null {
  const first = values[0];
  if (!first) return null;
  if (values.length === 1) return first;
  for (const v of values) {
    if (!v || v.kind !== first.kind) return null;
    if (v.kind === "const" && first.kind === "const" && !Object.is(v.value, first.value)) return null;
    if (v.kind === "object" || v.kind === "tuple" || v.kind === "rows") return null;
  }
  return first;
}

type Step = { key: string } | { fallback: Node } | { index: number };

/** The keys (and defaults) from a pattern down to the identifier `name`; null through an array or a rest. */
function patternPath(pattern: Node, name: Node): Step[] | null {
  if (pattern === name) return [];
  if (pattern.type === "AssignmentPattern") {
    const inner = patternPath(pattern.left, name);
    return inner ? [{ fallback: pattern.right as Node }, ...inner] : null;
  }
  if (pattern.type === "ArrayPattern")
    for (const [i, e] of pattern.elements.entries()) {
      if (!e || !contains(e, name)) continue;
      if (e.type === "RestElement") return null;
      const inner = patternPath(e, name);
      return inner ? [{ index: i }, ...inner] : null;
    }
  if (pattern.type === "ObjectPattern")
    for (const p of pattern.properties) {
      if (p.type !== "Property" || !contains(p.value, name)) continue;
      if (p.computed) return null;
      const key = p.key.type === "Identifier" ? p.key.name : String((p.key as { value: unknown }).value);
      const inner = patternPath(p.value, name);
      return inner ? [{ key }, ...inner] : null;
    }
  return null;
}

function contains(n: Node, inner: Node): boolean {
  return n.start <= inner.start && inner.end <= n.end;
}

/** The constructor parameter that alone sets `field` (`this.f = p`), with the value it has when left out: a falsy default, or undefined. */
function constructorOption(cls: Node, field: string): { name: string; index: number; value: Primitive } | null {
  const writes: Node[] = [];
  const fieldOf = (e: Node) =>
    e.type === "MemberExpression" && !e.computed && e.object.type === "ThisExpression"
      ? e.property.type === "PrivateIdentifier"
        ? `#${e.property.name}`
        : e.property.type === "Identifier"
          ? e.property.name
          : null
      : null;
  walk(cls as unknown as EstreeNode, {
    enter(raw) {
      const n = raw as unknown as Node;
      if (
        (n.type === "AssignmentExpression" && fieldOf(n.left) === field) ||
        (n.type === "UpdateExpression" && fieldOf(n.argument) === field)
      )
        writes.push(n);
    },
  });
  const body = (cls as Node & { body: { body: Node[] } }).body.body;
  // A field's own initialiser sets it too.
  if (
    body.some(
      (m) =>
        m.type === "PropertyDefinition" &&
        m.value &&
        fieldOf({ type: "MemberExpression", computed: false, object: { type: "ThisExpression" }, property: m.key } as unknown as Node) ===
          field,
    )
  )
    return null;
  const ctor = body.find((m) => m.type === "MethodDefinition" && m.kind === "constructor") as (Node & { value: FunctionNode }) | undefined;
  const w = writes[0];
  if (!ctor || writes.length !== 1 || w?.type !== "AssignmentExpression" || w.operator !== "=" || w.right.type !== "Identifier")
    return null;
  if (!(ctor.value.start <= w.start && w.end <= ctor.value.end)) return null;
  const name = w.right.name;
  const index = ctor.value.params.findIndex((p) => {
    const id = p.type === "AssignmentPattern" ? p.left : p;
    return id.type === "Identifier" && id.name === name;
  });
  if (index < 0) return null;
  const p = ctor.value.params[index]!;
  if (p.type !== "AssignmentPattern") return { name, index, value: undefined };
  if (p.right.type === "Literal" && !p.right.value && !("regex" in p.right)) return { name, index, value: p.right.value as Primitive };
  if (p.right.type === "Identifier" && p.right.name === "undefined") return { name, index, value: undefined };
  return null;
}

/**
 * The release's call() and the arguments the adapter's toolSearch gives it: `release.call(input, {…}, {…})`,
 * where `release` is `createReleaseSearch(…)`, whose returned object's `call` names a function of its own that
 * nothing else uses. Null when the module is not laid out so.
 */
function adapterCall(ast: Node, r: Reachability): { call: FunctionNode; args: Node[] } | null {
  const body = (ast as Node & { body: Node[] }).body;
  const top = (name: string) =>
    body.find((s): s is Node & { type: "FunctionDeclaration" } => s.type === "FunctionDeclaration" && s.id?.name === name);
  const factory = top("createReleaseSearch");
  const adapter = top("toolSearch");
  if (!factory || !adapter) return null;
  const ret = factory.body.body.at(-1);
  if (ret?.type !== "ReturnStatement" || ret.argument?.type !== "ObjectExpression") return null;
  const prop = ret.argument.properties.find(
    (p) => p.type === "Property" && !p.computed && p.key.type === "Identifier" && p.key.name === "call",
  );
  if (prop?.type !== "Property" || prop.value.type !== "Identifier") return null;
  const v = r.variable(prop.value);
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || def?.type !== "FunctionName") return null;
  // Its one use is the returned object: no code of the release calls it with anything else.
  if (v.references.length !== 1 || (v.references[0]!.identifier as unknown as Node) !== prop.value) return null;
  let args: Node[] | null = null;
  let calls = 0;
  walk(adapter as unknown as EstreeNode, {
    enter(raw) {
      const n = raw as unknown as Node;
      if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && memberName(n.callee) === "call") {
        calls++;
        args = n.arguments.slice(1);
      }
    },
  });
  return calls === 1 && args ? { call: def.node as unknown as FunctionNode, args } : null;
}
