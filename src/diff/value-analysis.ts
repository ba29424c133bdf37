/**
 * What an expression is on every run of the contract's functions, worked out from the module's own code, with
 * the fact that makes it so (reachability.ts finds from it the code that never runs).
 */
import type { Variable } from "eslint-scope";
import { walk } from "estree-walker";
import { isFunction, memberName, type FunctionNode, type Node } from "../ast/pattern.js";
import { objectOf } from "./adapter-facts.js";
import { BindingUses } from "./binding-uses.js";
import { constructorOption, contains, copiedParam, patternPath, type Step } from "./code-shapes.js";
import { freshComparison } from "./fresh-instance.js";
import { heldEntry } from "./map-entries.js";
import { ownElementLookup } from "./own-element-lookup.js";
import {
  binary,
  EMPTY_METHODS,
  ELEMENT_READS,
  ARRAY_MAKERS,
  join,
  named,
  NO,
  truthOf,
  withWhy,
  type Primitive,
  type Value,
} from "./known-values.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

export abstract class ValueAnalysis extends BindingUses {
  protected depth = 0;
  protected abstract readonly adapter: { call: FunctionNode; args: Node[] } | null;

  /** The reads of a property by name, or null when a computed read could name any (property-reads.ts). */
  abstract reads(name: string): Node[] | null;

  /** The adapter's arguments to call() after its input, when `fn` is call(). */
  adapterArgs(fn: FunctionNode): Node[] | null {
    return this.adapter && fn === this.adapter.call ? this.adapter.args : null;
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

  protected compute(n: Node): Value | null {
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
        const fresh = freshComparison(this, n);
        if (fresh) return fresh;
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
  protected copied(n: Node): Value | null {
    const set = n.type === "NewExpression" && n.callee.type === "Identifier" && this.isGlobalSet(n.callee);
    if (set && n.arguments.length === 0) return { kind: "none", why: "" };
    const v = this.value(set && n.arguments.length === 1 ? (n.arguments[0] as Node) : n);
    return v && (v.kind === "none" || v.kind === "empty") ? v : null;
  }

  /** Whether `n` is an array on every run: a literal, or an array's (or a string's `split`) method that makes one. */
  protected isArray(n: Node): boolean {
    if (n.type === "ArrayExpression") return true;
    const v = this.value(n);
    if (v && (v.kind === "none" || v.kind === "rows")) return true;
    if (n.type === "Identifier") {
      // A binding never written again, made with an array.
      const w = this.variable(n);
      const def = w?.defs.length === 1 ? w.defs[0] : undefined;
      const decl = def?.type === "Variable" ? (fromEstree(def.node) as Node & { type: "VariableDeclarator" }) : undefined;
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

  protected member(o: Value, key: string): Value | null {
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
  protected adapterValue(e: Node, key: string): Value | null {
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

  protected call(n: Node & { type: "CallExpression" }): Value | null {
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
    const own = ownElementLookup(this, n);
    if (own) return { kind: "entry", why: own };
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
  protected returned(fn: FunctionNode): Value | null {
    const values: Array<Value | null> = [];
    if (fn.body.type !== "BlockStatement") values.push(this.value(fn.body));
    else {
      const returns: Node[] = [];
      walk(toEstree(fn.body), {
        enter(raw) {
          const x = fromEstree(raw);
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

  protected variableValue(v: Variable): Value | null {
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
        const handed = v.references.filter((r) => !r.init && !this.readsOnly(fromEstree(r.identifier)));
        if (
          handed.length > 0 &&
          !this.holds(v, out, () =>
            handed.every((r) => this.offWhileEmpty(fromEstree(r.identifier)) || this.handedToEmpty(fromEstree(r.identifier))),
          )
        )
          out = null;
      }
      // Arrays of fresh array literals: only while every use reads them element by element, the elements'
      // bindings each holding what the literal made.
      if (out?.kind === "rows") {
        const rows = out;
        if (!this.holds(v, rows, () => v.references.every((r) => r.init || this.rowsRead(fromEstree(r.identifier), rows)))) out = null;
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

  protected computeVariable(v: Variable): Value | null {
    if (v.defs.length !== 1 || v.references.some((r) => r.isWrite() && !r.init)) return null;
    const def = v.defs[0]!;
    const name = fromEstree(def.name);
    if (def.type === "Variable") {
      const decl = fromEstree(def.node) as Node & { type: "VariableDeclarator" };
      const head = this.parent(this.parent(decl) ?? decl);
      if (head && (head.type === "ForOfStatement" || head.type === "ForInStatement")) return null;
      const steps = patternPath(decl.id, name);
      if (!steps) return null;
      const base: Value | null = decl.init ? this.value(decl.init) : { kind: "const", value: undefined, why: "" };
      return named(this.project(base, steps), name);
    }
    if (def.type === "Parameter") {
      const fn = fromEstree(def.node) as FunctionNode;
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
  protected argument(fn: FunctionNode, index: number): Array<Value | null> | null {
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
        const call = this.parent(fromEstree(r.identifier)) as Node & { type: "CallExpression" };
        if (call.arguments.slice(0, index + 1).some((a) => a.type === "SpreadElement")) return null;
        const a = call.arguments[index] as Node | undefined;
        return a ? this.value(a) : { kind: "const", value: undefined, why: `no call of \`${(id as { name: string }).name}\` passes it` };
      });
    return values.length ? values : null;
  }

  protected project(base: Value | null, steps: Step[]): Value | null {
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
  protected optionField(m: Node & { type: "MemberExpression" }): Value | null {
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
      const id = fromEstree(r.identifier);
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
