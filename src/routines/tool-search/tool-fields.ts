/**
 * The tool fields a lifted routine reads: found statically over the lifted closure, so that a release
 * reading a field the scorer-module contract does not name (a tool's `title`, `annotations`, …) is noticed,
 * and the field is passed through to it by the adapter (tool-search-code.ts), listed in provenance.toolFields
 * and fed values by verification and diff.
 *
 * What stands for a tool: the parameter of a callback given to an array method on a tool list (`find`,
 * `filter`, `map`, `some`, …; `sort`'s two, `reduce`'s second), a for-of variable over a tool list, `list[i]`,
 * `list.find(…)`, a Map's `get` whose values are tools, the parameters of closure functions called with a
 * tool (also through a function parameter that is called with one: `mapWith(list, (tool) => …)`), what a
 * function returns when it returns a tool, and a variable holding any of these. A tool list: the tool-list
 * parameters of the scorer (deferredTools, allTools), what call() reads as its context's `tools`, and arrays
 * derived from them (filter, slice, concat, sort, spread into an array literal, a map returning tools …).
 * Fields are the property names read from a tool: `tool.x`, `tool?.x`, `tool["x"]`, `{ x } = tool` and
 * `"x" in tool`. Fields read on objects the release makes (a parsed name's `parts`) are not tool fields.
 * Properties read inside a field are found the same ways, on the field read (`tool.mcpInfo.nameKey`) and on what
 * holds it (a variable, `tool.mcpInfo ?? parsed`, a parameter given it, `{ mcpInfo: { nameKey } } = tool`): those
 * inside a contract field that the contract does not name (`mcpInfo.nameKey`) are as new as a new field.
 * Everything is by structure, never by a release's names.
 */
import { analyze, type Variable } from "eslint-scope";
import { walk as estreeWalk } from "estree-walker";
import { isFunction, returnedValues, type FunctionNode, type Node } from "../../ast/pattern.js";
import { BUILTIN_MEMBER_NAMES } from "../../lift/property-names.js";
import {
  functionOf,
  methodOf,
  patternKey,
  patternKeys,
  propertyKeyName,
  propertyKey,
  isConstantKey,
  chainRoot,
  patternIdentifiers,
} from "./tool-field-syntax.js";
import { fromEstree, toEstree } from "../../ast/estree-bridge.js";

/** Where tool lists enter the lifted code. */
export interface ToolInputs {
  /** Parameters that hold a tool list: the scorer's deferred and all tools, and those of its arguments' function. */
  listParams: Array<{ fn: Node; index: number }>;
  /** Functions whose context parameters carry the tools under `tools` (call(): the context the adapter builds). */
  contextFns: Node[];
}

type Kind = "tool" | "list" | "map";
const KINDS: readonly Kind[] = ["tool", "list", "map"];

/** Array methods whose result is (a part of) the receiver's elements. */
const SAME_ELEMENTS = new Set(["filter", "slice", "concat", "sort", "toSorted", "reverse", "toReversed", "splice", "toSpliced"]);
/** Array methods whose result is one of the receiver's elements. */
const ONE_ELEMENT = new Set(["find", "findLast", "at", "pop", "shift"]);
/** Array methods that call back with elements: which parameters of the callback receive one. */
const CALLBACK_ELEMENTS: Record<string, number[]> = {
  find: [0],
  findLast: [0],
  findIndex: [0],
  findLastIndex: [0],
  filter: [0],
  map: [0],
  flatMap: [0],
  forEach: [0],
  some: [0],
  every: [0],
  sort: [0, 1],
  toSorted: [0, 1],
  reduce: [1],
  reduceRight: [1],
};
const MAX_ROUNDS = 40;
/**
 * Expressions the analysis may judge in all (each `is` step counts): a bound on its work whatever the code,
 * a hundred times what a real closure needs (2.1.332: about 11,000). Past it, what was found so far is the answer.
 */
const MAX_STEPS = 1_000_000;

/** Every property name read from a tool in `statements` (a lifted closure), sorted, known fields included. */
export function toolFieldReads(statements: readonly Node[], inputs: ToolInputs): string[] {
  return new ToolFlow(statements, inputs).fields().names;
}

/** The same, with the properties read right inside a field (`tool.annotations.category`: [annotations, category]). */
export function toolFieldUses(statements: readonly Node[], inputs: ToolInputs): { names: string[]; inner: Array<[string, string]> } {
  return new ToolFlow(statements, inputs).fields();
}

class ToolFlow {
  private readonly program: Node;
  private readonly parents = new Map<Node, Node | null>();
  private readonly varOf = new Map<Node, Variable>();
  private readonly marks = new Map<Variable, Set<Kind>>();
  private readonly returns = new Map<Node, Set<Kind>>();
  /** Function → parameter index → calls of that parameter: argument index → kinds. */
  private readonly paramCalls = new Map<Node, Map<number, Map<number, Set<Kind>>>>();
  /** Object patterns bound to a tool (their keys are fields read). */
  private readonly toolPatterns = new Set<Node>();
  /** Variables holding a field's value (`let info = tool.mcpInfo`), by the fields they may hold. */
  private readonly fieldVars = new Map<Variable, Set<string>>();
  /** Object patterns bound to a field's value (their keys are properties read inside it), by field. */
  private readonly fieldPatterns = new Map<Node, Set<string>>();
  /** Methods of the closure by name (classes, object literals, `X.prototype.m = function`). */
  private readonly methods = new Map<string, Node[]>();
  private readonly contextParams = new Set<Variable>();
  private changed = false;
  /** `is` steps taken (MAX_STEPS). */
  private steps = 0;

  constructor(
    statements: readonly Node[],
    private readonly inputs: ToolInputs,
  ) {
    this.program = { type: "Program", sourceType: "module", body: [...statements], start: 0, end: 0, range: [0, 0] } as unknown as Node;
    const sm = analyze(this.program as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
    for (const scope of sm.scopes) {
      for (const v of scope.variables) for (const id of v.identifiers) this.varOf.set(fromEstree(id), v);
      for (const ref of scope.references) if (ref.resolved) this.varOf.set(fromEstree(ref.identifier), ref.resolved);
    }
    estreeWalk(toEstree(this.program), {
      enter: (node, parent) => {
        const n = fromEstree(node);
        this.parents.set(n, fromEstree(parent) ?? null);
        const method = methodOf(n);
        if (method) {
          const list = this.methods.get(method.name);
          if (list) list.push(method.fn);
          else this.methods.set(method.name, [method.fn]);
        }
      },
    });
    for (const fn of inputs.contextFns) {
      const f = functionOf(fn);
      for (const p of f?.params ?? []) for (const id of patternIdentifiers(p)) this.addContextParam(id);
    }
  }

  private addContextParam(id: Node): void {
    const v = this.varOf.get(id);
    if (v) this.contextParams.add(v);
  }

  fields(): { names: string[]; inner: Array<[string, string]> } {
    for (const { fn, index } of this.inputs.listParams) {
      const f = functionOf(fn);
      const p = f?.params[index];
      if (p) this.markPattern(p, "list");
    }
    for (const fn of this.inputs.contextFns) this.contextTools(fn);
    for (let round = 0; round < MAX_ROUNDS && this.steps <= MAX_STEPS; round++) {
      this.changed = false;
      this.walkAll((n) => this.propagate(n));
      if (!this.changed) break;
    }
    // The reads are collected with an allowance of their own: a bound reached above leaves fewer marks, not none.
    this.steps = 0;
    const out = new Set<string>();
    const inner = new Map<string, [string, string]>();
    const addInner = (field: string, property: string | null) => {
      if (property !== null) inner.set(JSON.stringify([field, property]), [field, property]);
    };
    this.walkAll((n) => {
      if (n.type === "MemberExpression" && !this.writtenOnly(n)) {
        if (this.is(n.object, "tool")) {
          const name = propertyKey(n);
          if (name !== null) out.add(name);
        }
        for (const field of this.fieldsOf(n.object)) addInner(field, propertyKey(n));
      }
      if (n.type === "ObjectPattern")
        for (const field of this.fieldPatterns.get(n) ?? []) for (const key of patternKeys(n)) addInner(field, key);
      if (n.type === "BinaryExpression" && n.operator === "in" && n.left.type === "Literal" && typeof n.left.value === "string")
        if (this.is(n.right, "tool")) out.add(n.left.value);
      if (n.type === "ObjectPattern" && this.toolPatterns.has(n)) for (const key of patternKeys(n)) out.add(key);
    });
    return { names: [...out].sort(), inner: [...inner.values()] };
  }

  private walkAll(visit: (n: Node) => void): void {
    for (const s of (this.program as unknown as { body: Node[] }).body) estreeWalk(toEstree(s), { enter: (n) => visit(fromEstree(n)) });
  }

  /** In call(): `{ tools } = context` patterns and `context.….tools` chains are the tool list. */
  private contextTools(fn: Node): void {
    const f = functionOf(fn);
    if (!f) return;
    const visit = (n: Node) => {
      if (n.type === "ObjectPattern")
        for (const p of n.properties)
          if (p.type === "Property" && !p.computed && propertyKeyName(p.key) === "tools") this.markPattern(p.value, "list");
    };
    for (const p of f.params) estreeWalk(toEstree(p), { enter: (n) => visit(fromEstree(n)) });
    estreeWalk(toEstree(f.body), { enter: (n) => visit(fromEstree(n)) });
  }

  private mark(v: Variable | undefined, k: Kind): void {
    if (!v) return;
    let s = this.marks.get(v);
    if (!s) this.marks.set(v, (s = new Set()));
    if (!s.has(k)) {
      s.add(k);
      this.changed = true;
    }
  }

  private markPattern(p: Node | null | undefined, k: Kind): void {
    if (!p) return;
    switch (p.type) {
      case "Identifier":
        this.mark(this.varOf.get(p), k);
        return;
      case "AssignmentPattern":
        this.markPattern(p.left, k);
        return;
      case "ObjectPattern":
        if (k === "tool" && !this.toolPatterns.has(p)) {
          this.toolPatterns.add(p);
          this.changed = true;
        }
        return;
      case "ArrayPattern":
        if (k === "list") for (const e of p.elements) this.markPattern(e?.type === "RestElement" ? null : e, "tool");
        return;
      default:
        return;
    }
  }

  /** A binding of a field's value: a variable holding it, or an object pattern whose keys are read inside it. */
  private markField(p: Node | null | undefined, field: string): void {
    if (!p) return;
    if (p.type === "AssignmentPattern") return this.markField(p.left, field);
    let s: Set<string> | undefined;
    if (p.type === "Identifier") {
      const v = this.varOf.get(p);
      if (!v) return;
      s = this.fieldVars.get(v);
      if (!s) this.fieldVars.set(v, (s = new Set()));
    } else if (p.type === "ObjectPattern") {
      s = this.fieldPatterns.get(p);
      if (!s) this.fieldPatterns.set(p, (s = new Set()));
    } else return;
    if (!s.has(field)) {
      s.add(field);
      this.changed = true;
    }
  }

  /** The fields whose value an expression may be: `tool.x`, a variable holding one, either side of `??`/`||`/`?:`. */
  private fieldsOf(e: Node | null | undefined, depth = 0): string[] {
    if (!e || depth > 24 || ++this.steps > MAX_STEPS) return [];
    const d = depth + 1;
    switch (e.type) {
      case "Identifier":
        return [...(this.fieldVars.get(this.varOf.get(e)!) ?? [])];
      case "ChainExpression":
        return this.fieldsOf(e.expression, d);
      case "MemberExpression": {
        const key = propertyKey(e);
        return key !== null && this.is(e.object, "tool") ? [key] : [];
      }
      case "LogicalExpression":
        return [...this.fieldsOf(e.left, d), ...this.fieldsOf(e.right, d)];
      case "ConditionalExpression":
        return [...this.fieldsOf(e.consequent, d), ...this.fieldsOf(e.alternate, d)];
      case "AssignmentExpression":
        return this.fieldsOf(e.right, d);
      case "SequenceExpression":
        return this.fieldsOf(e.expressions[e.expressions.length - 1], d);
      default:
        return [];
    }
  }

  private addReturn(fn: Node, k: Kind): void {
    let s = this.returns.get(fn);
    if (!s) this.returns.set(fn, (s = new Set()));
    if (!s.has(k)) {
      s.add(k);
      this.changed = true;
    }
  }

  private addParamCall(fn: Node, param: number, arg: number, k: Kind): void {
    let byParam = this.paramCalls.get(fn);
    if (!byParam) this.paramCalls.set(fn, (byParam = new Map<number, Map<number, Set<Kind>>>()));
    let byArg = byParam.get(param);
    if (!byArg) byParam.set(param, (byArg = new Map<number, Set<Kind>>()));
    let kinds = byArg.get(arg);
    if (!kinds) byArg.set(arg, (kinds = new Set()));
    if (!kinds.has(k)) {
      kinds.add(k);
      this.changed = true;
    }
  }

  private propagate(n: Node): void {
    switch (n.type) {
      case "VariableDeclarator":
        if (n.init) for (const k of KINDS) if (this.is(n.init, k)) this.markPattern(n.id, k);
        for (const field of this.fieldsOf(n.init)) this.markField(n.id, field);
        return;
      case "AssignmentExpression":
        if (n.operator === "=" || n.operator === "??=" || n.operator === "||=") {
          for (const k of KINDS) if (this.is(n.right, k)) this.markPattern(n.left, k);
          for (const field of this.fieldsOf(n.right)) this.markField(n.left, field);
        }
        return;
      case "ObjectPattern":
        // `{ mcpInfo: info } = tool`, `{ mcpInfo: { nameKey } } = tool`: what the field's key is bound to holds its value.
        if (this.toolPatterns.has(n))
          for (const p of n.properties) {
            const key = p.type === "Property" ? patternKey(p) : null;
            if (key !== null) this.markField((p as { value: Node }).value, key);
          }
        return;
      case "ForOfStatement": {
        const target = n.left.type === "VariableDeclaration" ? n.left.declarations[0]?.id : n.left;
        if (this.is(n.right, "list")) this.markPattern(target, "tool");
        return;
      }
      case "CallExpression":
        this.propagateCall(n);
        return;
      default:
        if (isFunction(n)) for (const r of returnedValues(n)) if (r) for (const k of KINDS) if (this.is(r, k)) this.addReturn(n, k);
    }
  }

  private propagateCall(n: Node & { type: "CallExpression" }): void {
    const callee = n.callee;
    if (callee.type === "MemberExpression") {
      const m = propertyKey(callee);
      const receiver = callee.object;
      if (m !== null && this.is(receiver, "list") && CALLBACK_ELEMENTS[m]) {
        for (const fn of this.functionsOf(n.arguments[0]))
          for (const i of CALLBACK_ELEMENTS[m]) this.markPattern((fn as FunctionNode).params[i], "tool");
      }
      if (m === "forEach" && this.is(receiver, "map"))
        for (const fn of this.functionsOf(n.arguments[0])) this.markPattern((fn as FunctionNode).params[0], "tool");
      if (m === "set" && receiver.type === "Identifier" && n.arguments[1] && this.is(n.arguments[1], "tool"))
        this.mark(this.varOf.get(receiver), "map");
    }
    // A call of a function parameter: what it is called with, for the functions passed in its place.
    if (callee.type === "Identifier") {
      const v = this.varOf.get(callee);
      const def = v?.defs[0];
      if (def?.type === "Parameter") {
        const fn = fromEstree(def.node) as FunctionNode;
        const index = fn.params.findIndex((p) => patternIdentifiers(p).includes(fromEstree(def.name)));
        if (index >= 0)
          n.arguments.forEach((a, j) => {
            if (a.type !== "SpreadElement") for (const k of KINDS) if (this.is(a, k)) this.addParamCall(fn, index, j, k);
          });
      }
    }
    for (const fn of this.callees(n)) {
      const f = fn as FunctionNode;
      n.arguments.forEach((a, i) => {
        if (a.type === "SpreadElement") return;
        for (const k of KINDS) if (this.is(a, k)) this.markPattern(f.params[i], k);
        for (const field of this.fieldsOf(a)) this.markField(f.params[i], field);
        // A function passed where the callee calls its parameter with tools.
        const calls = this.paramCalls.get(fn)?.get(i);
        if (calls)
          for (const passed of this.functionsOf(a))
            for (const [j, kinds] of calls) for (const k of kinds) this.markPattern((passed as FunctionNode).params[j], k);
      });
    }
  }

  /** The closure functions a call may reach: by name, or a method by its name on anything but a tool, list or built-in. */
  private callees(n: Node & { type: "CallExpression" }): Node[] {
    const callee = n.callee;
    if (callee.type === "Identifier") return this.functionsOf(callee);
    if (callee.type === "MemberExpression") {
      const m = propertyKey(callee);
      if (m === null || BUILTIN_MEMBER_NAMES.has(m)) return [];
      if (KINDS.some((k) => this.is(callee.object, k))) return [];
      return this.methods.get(m) ?? [];
    }
    return isFunction(callee) ? [callee] : [];
  }

  /** The functions an expression is: a function expression, or a name bound to a function. */
  private functionsOf(e: Node | undefined): Node[] {
    if (!e) return [];
    if (isFunction(e)) return [e];
    if (e.type !== "Identifier") return [];
    const v = this.varOf.get(e);
    const out: Node[] = [];
    for (const d of v?.defs ?? []) {
      const node = fromEstree(d.node);
      if (d.type === "FunctionName" && isFunction(node)) out.push(node);
      if (d.type === "Variable" && node.type === "VariableDeclarator" && node.init && isFunction(node.init)) out.push(node.init);
    }
    return out;
  }

  /** Whether an expression is a tool, a tool list or a Map whose values are tools. */
  is(e: Node | null | undefined, k: Kind, depth = 0): boolean {
    if (!e || depth > 24 || ++this.steps > MAX_STEPS) return false;
    const d = depth + 1;
    switch (e.type) {
      case "Identifier":
        return this.marks.get(this.varOf.get(e)!)?.has(k) ?? false;
      case "ChainExpression":
        return this.is(e.expression, k, d);
      case "AwaitExpression":
        return this.is(e.argument, k, d);
      case "SequenceExpression":
        return this.is(e.expressions[e.expressions.length - 1], k, d);
      case "AssignmentExpression":
        return this.is(e.right, k, d) || (e.operator !== "=" && this.is(e.left, k, d));
      case "LogicalExpression":
        return this.is(e.right, k, d) || (e.operator !== "&&" && this.is(e.left, k, d));
      case "ConditionalExpression":
        return this.is(e.consequent, k, d) || this.is(e.alternate, k, d);
      case "ArrayExpression":
        return (
          k === "list" &&
          e.elements.length > 0 &&
          e.elements.every((x) => x !== null && (x.type === "SpreadElement" ? this.is(x.argument, "list", d) : this.is(x, "tool", d)))
        );
      case "MemberExpression":
        if (k === "tool") return e.computed && !isConstantKey(e.property) && this.is(e.object, "list", d);
        return k === "list" && propertyKey(e) === "tools" && this.contextParams.has(this.varOf.get(chainRoot(e))!);
      case "NewExpression":
        return k === "map" && e.callee.type === "Identifier" && e.callee.name === "Map" && this.pairsOfTools(e.arguments[0], d);
      case "CallExpression":
        return this.callIs(e, k, d);
      default:
        return false;
    }
  }

  private callIs(e: Node & { type: "CallExpression" }, k: Kind, d: number): boolean {
    const callee = e.callee;
    if (callee.type === "MemberExpression") {
      const m = propertyKey(callee);
      const r = callee.object;
      if (k === "list") {
        if (m !== null && SAME_ELEMENTS.has(m) && this.is(r, "list", d)) return true;
        if ((m === "map" || m === "flatMap") && this.is(r, "list", d))
          for (const fn of this.functionsOf(e.arguments[0]))
            if (this.returns.get(fn)?.has("tool") || (m === "flatMap" && this.returns.get(fn)?.has("list"))) return true;
        if (m === "values" && this.is(r, "map", d)) return true;
        if (m === "from" && r.type === "Identifier" && r.name === "Array" && this.is(e.arguments[0], "list", d)) return true;
      }
      if (k === "tool") {
        if (m !== null && ONE_ELEMENT.has(m) && this.is(r, "list", d)) return true;
        if (m === "get" && this.is(r, "map", d)) return true;
      }
    }
    return this.callees(e).some((fn) => this.returns.get(fn)?.has(k));
  }

  /** `list.map((t) => [key, t])`: pairs whose values are tools. */
  private pairsOfTools(e: Node | undefined, d: number): boolean {
    if (e?.type !== "CallExpression" || e.callee.type !== "MemberExpression" || propertyKey(e.callee) !== "map") return false;
    if (!this.is(e.callee.object, "list", d)) return false;
    return this.functionsOf(e.arguments[0]).some((fn) =>
      returnedValues(fn as FunctionNode).some(
        (r) => r?.type === "ArrayExpression" && r.elements.length === 2 && this.is(r.elements[1], "tool", d),
      ),
    );
  }

  /** `tool.x = …`: written, not read (a compound assignment reads it too). */
  private writtenOnly(m: Node): boolean {
    const p = this.parents.get(m);
    return (
      (p?.type === "AssignmentExpression" && p.left === m && p.operator === "=") ||
      (p?.type === "UnaryExpression" && p.operator === "delete")
    );
  }
}
