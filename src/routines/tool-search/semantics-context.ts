/**
 * What the semantic view (semantics.ts) reads a lifted module with: each name's initialisers, the functions and
 * their parameters, the calls of each function, the release's factory, and the values and origins these give an
 * expression (a number, a cap on the query, its words or the select list), with the small shape tests its rules
 * are told apart by.
 */
import type { CallExpression, MemberExpression } from "acorn";
import { type Node, memberName, walk, walkValues } from "../../ast/pattern.js";

/** The factory the lift wraps the release's code in; the adapter after it is the same in every module. */
const FACTORY = "createReleaseSearch";

type Origin = "select" | "split-comma" | "split-words" | "hint" | "await" | "query" | "name";

export function capKind(o: Set<Origin>): "chars" | "words" | "select" | "hint" | undefined {
  if (o.has("split-comma") || o.has("select")) return "select";
  if (o.has("split-words")) return "words";
  if (o.has("hint")) return "hint";
  if (o.has("query")) return "chars";
  return undefined;
}

export class Context {
  readonly inits = new Map<string, Node[]>();
  readonly functions = new Map<string, Node>();
  /** A parameter's name → the function it belongs to and its position (lifted names are unique). */
  readonly params = new Map<string, { fn: string; index: number }>();
  readonly calls = new Map<string, CallExpression[]>();
  readonly factory: Node | undefined;

  constructor(
    readonly text: string,
    readonly program: Node,
  ) {
    let factory: Node | undefined;
    walk(program, (n) => {
      if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.init) {
        if (!this.inits.has(n.id.name)) this.inits.set(n.id.name, []);
        this.inits.get(n.id.name)!.push(n.init);
      }
      // A for-of variable comes from what it iterates.
      if (n.type === "ForOfStatement" && n.left.type === "VariableDeclaration" && n.left.declarations[0]?.id.type === "Identifier") {
        const name = n.left.declarations[0].id.name;
        if (!this.inits.has(name)) this.inits.set(name, []);
        this.inits.get(name)!.push(n.right);
      }
      if (n.type === "CallExpression" && n.callee.type === "Identifier") {
        if (!this.calls.has(n.callee.name)) this.calls.set(n.callee.name, []);
        this.calls.get(n.callee.name)!.push(n);
      }
      if (n.type === "FunctionDeclaration" && n.id) {
        n.params.forEach((p: Node, index: number) => {
          const id = p.type === "AssignmentPattern" ? p.left : p;
          if (id.type === "Identifier") this.params.set(id.name, { fn: n.id.name, index });
        });
        this.functions.set(n.id.name, n);
        if (n.id.name === FACTORY) factory = n;
      }
    });
    this.factory = factory;
  }

  /** A number literal, or a constant bound to one. */
  number(n: Node | undefined): number | undefined {
    if (!n) return undefined;
    if (n.type === "Literal" && typeof n.value === "number") return n.value;
    if (n.type === "Identifier") {
      const inits = this.inits.get(n.name);
      if (inits?.length === 1 && inits[0]!.type === "Literal" && typeof inits[0].value === "number") return inits[0].value;
    }
    return undefined;
  }

  /** What a value is made from: the select match, a split on commas or whitespace, a searchHint, an awaited call (the description), the query. */
  origins(n: Node, seen = new Set<string>(), depth = 0): Set<Origin> {
    const out = new Set<Origin>();
    walkValues(n, (m) => {
      if (m.type === "CallExpression" && isMethod(m, "split")) {
        const a = m.arguments[0];
        if (a?.type === "Literal" && a.value === ",") out.add("split-comma");
        if (a?.type === "Literal" && (a.regex ? /\\s/.test(a.regex.pattern) : a.value === " ")) out.add("split-words");
      }
      if (m.type === "Literal" && m.regex && /^\^select:/i.test(m.regex.pattern)) out.add("select");
      if (m.type === "MemberExpression" && memberName(m) === "searchHint") out.add("hint");
      if (m.type === "MemberExpression" && memberName(m) === "name") out.add("name");
      if (m.type === "AwaitExpression") out.add("await");
      if (m.type === "Identifier" && /^query\d*$/.test(m.name)) out.add("query");
      if (m.type === "MemberExpression" && memberName(m) === "query") out.add("query");
      if (m.type === "Identifier" && depth < 8 && !seen.has(m.name)) {
        seen.add(m.name);
        for (const init of this.inits.get(m.name) ?? []) for (const o of this.origins(init, seen, depth + 1)) out.add(o);
        // A parameter of a named function: what its callers pass.
        const param = this.params.get(m.name);
        if (param)
          for (const call of this.calls.get(param.fn) ?? []) {
            const passed = call.arguments[param.index];
            if (passed) for (const o of this.origins(passed, seen, depth + 1)) out.add(o);
          }
      }
    });
    return out;
  }

  /** Which rule an if-test is; `score === 0 &&` guards (the fallback's) are set aside. */
  classify(test: Node, target: string): { key?: string; descriptionKind?: "word" | "substring" } {
    const operands = conjuncts(test).filter(
      (t) =>
        !(
          t.type === "BinaryExpression" &&
          t.operator === "===" &&
          ((t.left.type === "Identifier" && t.left.name === target) || (t.right.type === "Identifier" && t.right.name === target))
        ),
    );
    const props = new Set<string>();
    for (const o of operands)
      walk(o, (m) => {
        const prop = m.type === "MemberExpression" ? memberName(m) : undefined;
        if (prop !== undefined) props.add(prop);
      });
    const direct = (prop: string, method: string) =>
      operands.some((o) =>
        hasCall(o, (c) => isMethod(c, method) && c.callee.object.type === "MemberExpression" && memberName(c.callee.object) === prop),
      );
    const eq = (prop: string) =>
      operands.some((o) => {
        let hit = false;
        walk(o, (m) => {
          if (
            m.type === "BinaryExpression" &&
            m.operator === "===" &&
            [m.left, m.right].some((s: Node) => s.type === "MemberExpression" && memberName(s) === prop)
          )
            hit = true;
        });
        return hit;
      });
    for (const prop of ["coarseParts", "parts"]) {
      if (!props.has(prop)) continue;
      const base = prop === "parts" ? "part" : "coarse";
      if (direct(prop, "includes")) return { key: `${base}-exact` };
      if (direct(prop, "some")) return { key: `${base}-substring` };
      return {};
    }
    if (props.has("server"))
      return eq("server") ? { key: "server-exact" } : direct("server", "includes") ? { key: "server-substring" } : {};
    if (props.has("actions"))
      return direct("actions", "includes") ? { key: "action-exact" } : direct("actions", "some") ? { key: "action-substring" } : {};
    if (props.has("full")) return { key: "fullname-fallback" };

    // Matches on a string: what the string is made from says which.
    const subjects: Array<{ id: Node; how: "regex" | "includes" | "equals" }> = [];
    for (const o of operands)
      walk(o, (m) => {
        if (m.type === "CallExpression") {
          if (isMethod(m, "test") && m.arguments[0]?.type === "Identifier") subjects.push({ id: m.arguments[0], how: "regex" });
          else if (isMethod(m, "includes") && m.callee.object.type === "Identifier")
            subjects.push({ id: m.callee.object, how: "includes" });
          else if (m.callee.type === "Identifier" && this.functionMakesBoundaryRegExp(m.callee.name)) {
            for (const a of m.arguments) if (a.type === "Identifier") subjects.push({ id: a, how: "regex" });
          }
        }
        if (m.type === "BinaryExpression" && m.operator === "===")
          for (const s of [m.left, m.right]) if (s.type === "Identifier") subjects.push({ id: s, how: "equals" });
      });
    // The term itself (made from the query) is not what it is matched against.
    const classified = subjects.map((s) => ({ ...s, o: this.origins(s.id) })).filter((s) => !s.o.has("query"));
    const h = classified.find((s) => s.o.has("hint"));
    if (h) return { key: "hint-word" };
    const d = classified.find((s) => s.o.has("await"));
    if (d) return { key: "description", descriptionKind: d.how === "includes" ? "substring" : "word" };
    const named = classified.filter((s) => s.o.has("name"));
    if (named.some((s) => s.how === "equals")) return { key: "name-equal" };
    if (named.some((s) => s.how === "includes")) return { key: "name-contains" };
    return {};
  }

  /** `tools.find((t) => … t.name …)`, or a call of a function that does one. */
  isNameLookup(n: Node): boolean {
    if (isMethod(n, "find")) return mentionsName(n.arguments[0]);
    if (n.type === "CallExpression" && n.callee.type === "Identifier") {
      const f = this.functions.get(n.callee.name);
      return !!f && hasCall(f, (c) => isMethod(c, "find"));
    }
    return false;
  }

  private functionMakesBoundaryRegExp(name: string): boolean {
    const f = this.functions.get(name);
    if (!f) return false;
    let hit = false;
    walk(f, (n) => {
      if (
        n.type === "NewExpression" &&
        n.callee.type === "Identifier" &&
        n.callee.name === "RegExp" &&
        n.arguments[0] &&
        /\\\\b/.test(this.text.slice(n.arguments[0].start, n.arguments[0].end))
      )
        hit = true;
    });
    return hit;
  }

  /** The adapter's `defaults = { maxResults: N }`, when the release's own default is not a destructuring default. */
  defaultsMaxResults(): number | undefined {
    for (const init of this.inits.get("defaults") ?? []) {
      if (init.type !== "ObjectExpression") continue;
      for (const p of init.properties) if (p.type === "Property" && propName(p.key) === "maxResults") return this.number(p.value);
    }
    return undefined;
  }
}

function conjuncts(n: Node): Node[] {
  return n.type === "LogicalExpression" && n.operator === "&&" ? [...conjuncts(n.left), ...conjuncts(n.right)] : [n];
}

/** Whether `c` calls the method `name` (`x.name(…)`). */
export function isMethod(c: Node, name: string): c is CallExpression & { callee: MemberExpression } {
  return c.type === "CallExpression" && c.callee.type === "MemberExpression" && memberName(c.callee) === name;
}

export function hasCall(n: Node, pred: (c: Node) => boolean): boolean {
  let hit = false;
  walk(n, (m) => {
    if (m.type === "CallExpression" && pred(m)) hit = true;
  });
  return hit;
}

function mentionsName(n: Node | undefined): boolean {
  if (!n) return false;
  let hit = false;
  walk(n, (m) => {
    if (m.type === "MemberExpression" && memberName(m) === "name") hit = true;
  });
  return hit;
}

/** `tools.find((t) => t.name.toLowerCase() === q)` */
export function isLoweredLookup(n: Node): boolean {
  if (!isMethod(n, "find")) return false;
  let hit = false;
  walk(n.arguments[0] ?? n, (m) => {
    if (m.type === "BinaryExpression" && m.operator === "===" && (isLoweredName(m.left) || isLoweredName(m.right))) hit = true;
  });
  return hit;
}

/** `x.name.toLowerCase()` */
export function isLoweredName(n: Node): boolean {
  return isMethod(n, "toLowerCase") && n.callee.object.type === "MemberExpression" && memberName(n.callee.object) === "name";
}

export function propName(k: Node): string | undefined {
  return k.type === "Identifier" ? k.name : k.type === "Literal" && typeof k.value === "string" ? k.value : undefined;
}

export function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").slice(0, 80);
}
