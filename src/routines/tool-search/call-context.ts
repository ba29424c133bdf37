/**
 * The context argument of the tool's call(), as the adapter passes it: built from call()'s own destructuring
 * pattern — the tools where it reads `tools`, `undefined` where it only calls optionally (`refresh?.()`), and an
 * empty client state everywhere else — and, from 2.1.3xx, the context call() reads from the function that
 * created it, as a third parameter.
 */
import type { ModuleEntry } from "../../extract/types.js";
import type { AssignmentProperty, Identifier, Literal } from "acorn";
import { memberName, walk, type FunctionNode, type Node } from "../../ast/pattern.js";
import { freeReferences, Resolver } from "../../lift/closure.js";
import { BUILTINS, ENVIRONMENT } from "../../lift/globals.js";
import { DEFERRED_BY_CALLER } from "./defer-policy.js";

/**
 * The context argument's source. From 2.1.3xx call() reads the tool's context from the function that
 * created it (`create(context) { return { async call(input, options) { let { tools, … } = context; … } } }`):
 * that free name becomes a third parameter, which the adapter fills the same way.
 */
export function contextArgument(module: ModuleEntry, fn: FunctionNode, enclosing: Set<string>, resolver: Resolver): string {
  const facts = bodyFacts(fn.body);
  const context = contextSource(fn.params[1], facts);
  const outer = outerContext(module, fn, enclosing, resolver);
  if (!outer) return context;
  const pos = { start: fn.start, end: fn.start, range: [fn.start, fn.start] as [number, number] };
  while (fn.params.length < 2) fn.params.push({ type: "Identifier", name: `unused${fn.params.length}`, ...pos });
  // The client's context, which call() reads from its enclosing scope, becomes its third parameter; the namer
  // calls it what it is (a role carried on the node, as no source offset is its own).
  fn.params.push({ type: "Identifier", name: outer, role: "context", ...pos } as Identifier);
  return `${context}, ${contextSource({ type: "Identifier", name: outer, ...pos }, facts)}`;
}

/**
 * The one free name of call() that is no module-level definition: the creating function's
 * parameter. Names the enclosing code binds are asked first; only without one is every free name
 * looked up at module level.
 */
function outerContext(module: ModuleEntry, fn: Node, enclosing: Set<string>, resolver: Resolver): string | null {
  const free = freeReferences(fn)
    .map((r) => r.name)
    .filter((n) => !BUILTINS.has(n) && !ENVIRONMENT.has(n) && n !== DEFERRED_BY_CALLER);
  const bound = free.filter((n) => enclosing.has(n));
  const names = bound.length ? bound : free.filter((n) => !resolver.resolve(module, n));
  return names.length === 1 ? names[0]! : null;
}

/**
 * What contextSource asks about call()'s body, for every name at once (two walks, not four per
 * destructured property):
 * - paths: dotted property chains read from a name (`context.options.tools` → ["options", "tools"]),
 *   except a chain that call() itself assigns (`context.session ??= new Session()`, the client's to leave unset);
 * - patterns: `let { tools, … } = name` destructurings of a name;
 * - optional / plain: uses as `name?.(…)`, `name?.x` and as `name(…)`, `name.x`; tested: bare tests
 *   (`name && …`, `!name`, `name ? … : …`);
 * - ids: every identifier of that name; methodCalls: `name.method(…)`; declared: its own bindings in
 *   destructuring patterns.
 */
interface BodyFacts {
  paths: Map<string, string[][]>;
  patterns: Map<string, Node[]>;
  uses: Map<string, { optional: number; plain: number; tested: number; ids: number; methodCalls: number; declared: number }>;
}

function bodyFacts(body: Node): BodyFacts {
  const facts: BodyFacts = { paths: new Map(), patterns: new Map(), uses: new Map() };
  const use = (name: string) => {
    let u = facts.uses.get(name);
    if (!u) facts.uses.set(name, (u = { optional: 0, plain: 0, tested: 0, ids: 0, methodCalls: 0, declared: 0 }));
    return u;
  };
  const push = <T>(m: Map<string, T[]>, name: string, v: T) => {
    const list = m.get(name);
    if (list) list.push(v);
    else m.set(name, [v]);
  };
  const assigned = new Set<Node>();
  walk(body, (n) => {
    if (n.type === "AssignmentExpression" && n.left.type === "MemberExpression") assigned.add(n.left);
  });
  const id = (e: Node | null | undefined): string | null => (e?.type === "Identifier" ? e.name : null);
  walk(body, (n) => {
    if (n.type === "Identifier") use(n.name).ids++;
    if (n.type === "MemberExpression" && !n.computed && !assigned.has(n)) {
      const path: string[] = [];
      let cur: Node = n;
      for (let name; cur.type === "MemberExpression" && (name = memberName(cur)) !== undefined; cur = cur.object) path.unshift(name);
      if (cur.type === "Identifier") push(facts.paths, cur.name, path);
    }
    if (n.type === "VariableDeclarator" && n.id.type === "ObjectPattern" && n.init?.type === "Identifier")
      push(facts.patterns, n.init.name, n.id);
    if (n.type === "CallExpression" || n.type === "MemberExpression") {
      const target = id(n.type === "CallExpression" ? n.callee : n.object);
      if (target) {
        if (n.optional) use(target).optional++;
        else use(target).plain++;
      }
    }
    if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && n.callee.object.type === "Identifier")
      use(n.callee.object.name).methodCalls++;
    if (n.type === "ObjectPattern")
      for (const p of n.properties)
        if ((p as AssignmentProperty).value?.type === "Identifier") use(((p as AssignmentProperty).value as Identifier).name).declared++;
    // `refresh && …`, `!refresh`, `refresh ? … : …`: the code itself allows for its absence.
    const tested =
      n.type === "LogicalExpression"
        ? id(n.left)
        : n.type === "UnaryExpression" && n.operator === "!"
          ? id(n.argument)
          : n.type === "ConditionalExpression" || n.type === "IfStatement"
            ? id(n.test)
            : null;
    if (tested) use(tested).tested++;
  });
  return facts;
}

/** Source of the context argument for call()'s second parameter pattern. */
function contextSource(param: Node | undefined, facts: BodyFacts): string {
  if (!param) return "undefined";
  if (param.type === "AssignmentPattern") return contextSource(param.left, facts);
  if (param.type === "ObjectPattern") {
    const props = param.properties
      .filter((p: Node): p is AssignmentProperty => p.type === "Property" && !p.computed)
      .map((p) => {
        const key = p.key.type === "Identifier" ? p.key.name : String((p.key as Literal).value);
        const value =
          key === "tools" && (p.value.type === "Identifier" || p.value.type === "AssignmentPattern")
            ? "allTools"
            : contextSource(p.value, facts);
        return `${JSON.stringify(key)}: ${value}`;
      });
    return `{ ${props.join(", ")} }`;
  }
  if (param.type === "Identifier") {
    const paths = facts.paths.get(param.name) ?? [];
    const patterns = facts.patterns.get(param.name) ?? [];
    const u = facts.uses.get(param.name);
    if (patterns.length > 0) {
      // `let { tools, refreshTools } = context`: the pattern decides, member reads add to it.
      const fromPattern = patterns.map((p) => contextSource(p, facts).slice(2, -2)).filter(Boolean);
      const fromPaths =
        paths.length > 0
          ? objectFromPaths(paths.filter((p) => !fromPattern.some((f) => f.includes(JSON.stringify(p[0]) + ":")))).slice(2, -2)
          : "";
      return `{ ${[...fromPattern, ...(fromPaths ? [fromPaths] : [])].join(", ")} }`;
    }
    // Used only as `name?.(…)`/`name?.x`, or tested (`!name`): the client may leave it out.
    if (paths.length === 0) return u && ((u.optional > 0 && u.plain === 0) || u.tested > 0) ? "undefined" : "emptyState()";
    // `state.get(Cache)`, `timing.mark(…)`: only methods called on it — the empty state answers those
    // (a store keyed by class makes a fresh instance), an object of empty leaves would not.
    if (paths.every((p) => p.length === 1) && u && u.methodCalls > 0 && u.ids - u.declared === u.methodCalls) return "emptyState()";
    return objectFromPaths(paths);
  }
  return "emptyState()";
}

/** An object literal with `tools` leaves as the tools and every other leaf neutral. */
function objectFromPaths(paths: string[][]): string {
  type Trie = Map<string, Trie>;
  const root: Trie = new Map();
  for (const p of paths) {
    let t = root;
    for (const key of p) {
      if (!t.has(key)) t.set(key, new Map());
      t = t.get(key)!;
    }
  }
  const render = (t: Trie, key: string | null): string => {
    if (key === "tools") return "allTools";
    if (t.size === 0) return "emptyState()";
    return `{ ${[...t].map(([k, sub]) => `${JSON.stringify(k)}: ${render(sub, k)}`).join(", ")} }`;
  };
  return render(root, null);
}
