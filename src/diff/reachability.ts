/**
 * The code of a lifted module that the contract's functions can never run, from facts the module states
 * itself: what the adapter passes call() (a part of the client's state filled with `emptyState()`, a hook
 * given as `undefined`), a constructor option that no code passes, a binding or a parameter that holds one
 * value on every path, code after a `return`, a method no code calls (dead-methods.ts), a map read that always
 * finds its entry (map-entries.ts), a field compared on the first use of a new instance (fresh-instance.ts), a
 * lookup by the name of an element of the very list it searches (own-element-lookup.ts). Used by coverage.ts to take such points out of the count of
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
import { analyze } from "eslint-scope";
import { walk } from "estree-walker";
import { isFunction, memberName, type FunctionNode, type Node } from "../ast/pattern.js";
import { adapterCall } from "./adapter-facts.js";
import { contains } from "./code-shapes.js";
import { deadMethods } from "./dead-methods.js";
import { ARRAY_READS, because, truthOf, type Value } from "./known-values.js";
import type { FreshContext } from "./fresh-instance.js";
import type { MapContext } from "./map-entries.js";
import { propertyReads } from "./property-reads.js";
import { ValueAnalysis } from "./value-analysis.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** What must hold for a point to run: one outcome of a test, seen deciding its `&&`/`||`, or nothing more. */
export type Outcome = "true" | "false" | "set" | "nullish" | "decides||" | "decides&&";

export class Reachability extends ValueAnalysis implements MapContext, FreshContext {
  /** Roots of the code never run, each with why: `reachable only when … — …`. */
  private readonly dead = new Map<Node, string>();
  private readonly propertyReads: Map<string, Node[]> | null;
  protected readonly adapter: { call: FunctionNode; args: Node[] } | null;

  constructor(
    protected readonly text: string,
    ast: Node,
  ) {
    super();
    this.propertyReads = propertyReads(ast);
    walk(toEstree(ast), {
      enter: (raw, parent) => {
        if (parent) this.parents.set(fromEstree(raw), fromEstree(parent));
      },
    });
    try {
      const scopes = analyze(ast as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
      for (const scope of scopes.scopes)
        for (const v of scope.variables) {
          // A class's name is bound twice, outside it and inside it: the outer binding (listed first) has the uses.
          for (const d of v.defs) if (!this.declared.has(fromEstree(d.name))) this.declared.set(fromEstree(d.name), v);
          for (const r of v.references) this.variableOf.set(fromEstree(r.identifier), v);
        }
    } catch {
      // Code the scope analysis does not take: nothing is known, every point counts.
      this.adapter = null;
      return;
    }
    this.adapter = adapterCall(ast, this);
    this.findDead(ast);
    for (const [body, why] of deadMethods(ast, (id) => !this.variable(id))) this.markDead(body, why);
    this.findDeadFunctions(ast);
  }

  reads(name: string): Node[] | null {
    return this.propertyReads ? (this.propertyReads.get(name) ?? []) : null;
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
    walk(toEstree(ast), {
      enter: (raw) => {
        const n = fromEstree(raw);
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
    walk(toEstree(ast), {
      enter: (raw) => {
        const n = fromEstree(raw);
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
        const uses = v.references.filter((r) => !r.init).map((r) => fromEstree(r.identifier));
        if (uses.length === 0 || !uses.every((u) => contains(fn, u) || this.isDead(u))) continue;
        const name = (id as { name: string }).name;
        this.markDead(fn.body, `reachable only when \`${name}\` is called — every call of it is in code that cannot run`);
        found = true;
      }
    }
  }
}
