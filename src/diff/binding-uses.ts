/**
 * The module's tree and scopes, and how its bindings are used: whether a value worked out for a binding can
 * be trusted, because nothing can write it. The base of the value analysis (value-analysis.ts).
 */
import type { Variable } from "eslint-scope";
import { isFunction, memberName, type FunctionNode, type Node } from "../ast/pattern.js";
import { propertyNode } from "./adapter-facts.js";
import { copiedParam } from "./code-shapes.js";
import { ELEMENT_READS, ARRAY_READS, truthOf, type Value } from "./known-values.js";
import { fromEstree } from "../ast/estree-bridge.js";

export abstract class BindingUses {
  protected readonly parents = new Map<Node, Node>();
  protected readonly variableOf = new Map<Node, Variable>();
  protected readonly declared = new Map<Node, Variable>();
  protected readonly values = new Map<Node | Variable, Value | null | "pending">();
  protected checking = false;
  /** Bindings some empty array was handed to while their own value was still being worked out. */
  protected readonly assumed = new Set<Variable>();
  protected abstract readonly text: string;

  /** The value of `n` on every run, or null when it is not known (value-analysis.ts). */
  abstract value(n: Node): Value | null;

  protected abstract variableValue(v: Variable): Value | null;

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

  /** The function an identifier names when every other use of that name is a call of it (none hands it on). */
  directFunction(id: Node): FunctionNode | null {
    const v = this.variable(id);
    if (!v || v.defs.length !== 1 || v.references.some((r) => r.isWrite() && !r.init)) return null;
    const def = v.defs[0]!;
    let fn: Node | null | undefined = null;
    if (def.type === "FunctionName") fn = fromEstree(def.node);
    else if (def.type === "Variable") fn = (fromEstree(def.node) as { init?: Node | null }).init;
    if (!fn || !isFunction(fn)) return null;
    const calledOnly = v.references.every((r) => {
      if (r.init) return true;
      const id = fromEstree(r.identifier);
      const p = this.parent(id);
      return p?.type === "CallExpression" && p.callee === id;
    });
    return calledOnly ? fn : null;
  }

  protected isGlobalSet(id: Node): boolean {
    return id.type === "Identifier" && id.name === "Set" && !this.variable(id);
  }

  protected enclosingFunction(n: Node): FunctionNode | null {
    for (let x = this.parent(n); x; x = this.parent(x)) if (isFunction(x)) return x;
    return null;
  }

  /** Whether `check` holds with `v` taken to be `out` meanwhile; what was worked out on that assumption goes if not. */
  protected holds(v: Variable, out: Value, check: () => boolean): boolean {
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
  protected handedToEmpty(id: Node): boolean {
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
  protected onlyReads(w: Variable, depth: number): boolean {
    if (depth === 0) return false;
    return w.references.every((r) => {
      if (r.init) return true;
      if (r.isWrite()) return false;
      const id = fromEstree(r.identifier);
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
  protected rowsRead(id: Node, rows: Value & { kind: "rows" }): boolean {
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
  protected offWhileEmpty(id: Node): boolean {
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

  protected readsOnly(id: Node): boolean {
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

  /** Whether call()'s parameter is only read (destructured, or a property read), never written or handed on. */
  /** Whether a parameter given the adapter's object `literal` only reads it (destructured, a property read). */
  protected keptWhole(param: Node, literal: Node, seen = new Set<Node>()): boolean {
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
  protected onlyRead(v: Variable, literal: Node, seen = new Set<Node>()): boolean {
    return v.references.every((r) => {
      if (r.isWrite() && !r.init) return false;
      if (r.init) return true;
      const id = fromEstree(r.identifier);
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
}
