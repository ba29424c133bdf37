/**
 * The scorer's arguments as the tool's call() passes them (tool-search-code.ts): which of call()'s values each
 * parameter takes — its query, deferred and all tools, maxResults, the description cache — read from the
 * located call and call()'s own destructuring of its input, and, where call() passes more than those values as
 * they are, a `scorerArguments` function that computes them.
 */
import { generate } from "astring";
import type { LocatedRoutine } from "../../locate/locate.js";
import type { CallExpression, Expression, Property, VariableDeclarator } from "acorn";
import { fieldsOf, isNode, isNodeList, walk, type Node, memberName } from "../../ast/pattern.js";
import { declaredNames } from "../../lift/prune.js";
import { LiftError } from "../../lift/lift-error.js";
import { lineColumn } from "../../ast/parse-module.js";

/** The scorer's arguments as call() computes them, in terms of the adapter's values. */
export const ARGUMENTS_ROOT = "scorerArguments";

export const SLOTS = ["query", "deferredTools", "allTools", "maxResults", "cache"] as const;

/** The locals call() destructures from its input: `let { query: q, max_results: n = 5 } = input` gives q → query, n → maxResults. */
function inputSlots(fn: Node, input: string | undefined): Map<string, (typeof SLOTS)[number]> {
  const out = new Map<string, (typeof SLOTS)[number]>();
  const fields: Record<string, (typeof SLOTS)[number]> = { query: "query", max_results: "maxResults" };
  if (!input) return out;
  walk(fn, (n) => {
    if (n.type !== "VariableDeclarator" || n.id.type !== "ObjectPattern" || n.init?.type !== "Identifier" || n.init.name !== input) return;
    for (const p of n.id.properties) {
      if (p.type !== "Property" || p.computed || p.key.type !== "Identifier" || !Object.hasOwn(fields, p.key.name)) continue;
      const target = p.value.type === "AssignmentPattern" ? p.value.left : p.value;
      if (target.type === "Identifier") out.set(target.name, fields[p.key.name]!);
    }
  });
  return out;
}

interface ScorerInvocation {
  /** The class of the description cache call() passes, if it passes one. */
  cacheClass: string | null;
  /** For each scorer parameter, the call() value passed as it is (query, allTools, …), or null. */
  slots: Array<string | null>;
  /**
   * `function scorerArguments(query, deferredTools, allTools, maxResults, cache) { return [...] }`
   * where call() passes more than those values as they are (null when it passes exactly them).
   */
  argumentsNode: Node | null;
}

/**
 * The scorer's arguments as call() passes them: `search(query, deferred, all, …)`. Each argument is
 * one of call()'s own values (its roles, or `state.get(Cache)`), or a module-level function of them
 * (`toolsByName(all)`), which the closure then brings along.
 */
export function scorerInvocation(call: LocatedRoutine, prepared: Node, scorerName: string, arity: number): ScorerInvocation {
  const m = call.match!;
  const roles = call.result.roles ?? {};
  const callee = roles.searchTools ?? scorerName;
  const fn: Node = (prepared as Property).value ?? prepared;
  const at = (n: Node) => ({ module: m.module.path, ...lineColumn(m.text, n.start) });
  const declarators = new Map<string, VariableDeclarator>();
  walk(fn, (n) => {
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier") declarators.set(n.id.name, n);
  });
  let site: Node | null = null;
  walk(fn, (n) => {
    if (site || n.type !== "CallExpression") return;
    // The scorer by its name, or as a method (`Search.run(…)`, `new Search().run(…)`).
    const named = n.callee.type === "Identifier" ? n.callee.name : n.callee.type === "MemberExpression" ? memberName(n.callee) : undefined;
    if (named !== callee) return;
    if (n.arguments[1]?.type === "Identifier" && n.arguments[1].name === roles.deferredTools) site = n;
  });
  if (!site) throw new LiftError(`call() does not call the scorer ${callee} with its deferred tools`);
  const args: Node[] = (site as CallExpression).arguments;
  if (args.length !== arity) throw new LiftError(`call() passes ${args.length} arguments to the scorer, which takes ${arity}`, at(site));
  const slotOf = new Map<string, (typeof SLOTS)[number]>();
  for (const slot of SLOTS) if (slot !== "cache" && roles[slot]) slotOf.set(roles[slot], slot);
  for (const [name, slot] of inputSlots(fn, roles.input)) if (![...slotOf.values()].includes(slot)) slotOf.set(name, slot);
  let cacheClass: string | null = null;
  let depth = 0;
  const locals = declaredNames(fn);
  const id = (name: string, like: Node): Node => ({
    type: "Identifier",
    name,
    start: like.start,
    end: like.end,
    range: [like.start, like.end],
  });
  const rewrite = (a: Node): Node => {
    if (a.type === "Identifier") {
      const slot = slotOf.get(a.name);
      if (slot) return id(slot, a);
      const init = declarators.get(a.name)?.init;
      // `state.get(Cache)`, or the client's own `context.session ??= new Session()`.
      const made = init?.type === "AssignmentExpression" && init.operator === "??=" ? init.right : init;
      if (
        init?.type === "CallExpression" &&
        init.callee.type === "MemberExpression" &&
        memberName(init.callee) === "get" &&
        init.arguments.length === 1 &&
        init.arguments[0]?.type === "Identifier"
      ) {
        cacheClass = init.arguments[0].name;
        return id("cache", a);
      }
      if (made?.type === "NewExpression" && made.callee.type === "Identifier" && made.arguments.length === 0) {
        cacheClass = made.callee.name;
        return id("cache", a);
      }
    } else if (a.type === "Literal") {
      return a;
    } else if (a.type === "CallExpression" && a.callee.type === "MemberExpression" && !a.callee.computed) {
      // A method of one of call()'s values (`query.trim()`, `tools.slice(0, 50)`).
      return {
        ...a,
        callee: { ...a.callee, object: rewrite(a.callee.object) as Expression },
        arguments: a.arguments.map(rewrite) as Expression[],
      };
    } else if (a.type === "BinaryExpression" || a.type === "LogicalExpression") {
      return { ...a, left: rewrite(a.left) as Expression, right: rewrite(a.right) as Expression };
    } else if (a.type === "ConditionalExpression") {
      return {
        ...a,
        test: rewrite(a.test) as Expression,
        consequent: rewrite(a.consequent) as Expression,
        alternate: rewrite(a.alternate) as Expression,
      };
    } else if (a.type === "CallExpression" && a.callee.type === "Identifier" && !locals.has(a.callee.name)) {
      // A module-level function of call()'s values.
      return { ...a, arguments: a.arguments.map(rewrite) as Expression[] };
    } else if (a.type === "CallExpression" && a.callee.type === "Identifier" && a.arguments.length === 1) {
      // A local one-parameter arrow with an expression body (`pool = (tools) => held(visible(tools))`): inlined.
      const f = declarators.get(a.callee.name)?.init;
      if (
        f?.type === "ArrowFunctionExpression" &&
        f.expression &&
        f.params.length === 1 &&
        f.params[0]?.type === "Identifier" &&
        depth < 8
      ) {
        depth++;
        const inlined = rewrite(substitute(f.body, f.params[0].name, a.arguments[0]!));
        depth--;
        return inlined;
      }
    }
    throw new LiftError(`call() passes the scorer an argument this stage cannot classify: ${generate(a)}`, at(a));
  };
  const rewritten = args.map(rewrite);
  const identity = rewritten.every((a, i) => a.type === "Identifier" && a.name === SLOTS[i]);
  const slots = rewritten.map((a) => (a.type === "Identifier" && (SLOTS as readonly string[]).includes(a.name) ? a.name : null));
  if (identity && (arity === 4 || (arity === 5 && cacheClass))) return { cacheClass, slots, argumentsNode: null };
  // Synthetic nodes sit at no place of the source, so that no role bound there names them.
  const pos = { start: -1, end: -1, range: [-1, -1] as [number, number] };
  const argumentsNode: Node = {
    type: "FunctionDeclaration",
    id: { type: "Identifier", name: ARGUMENTS_ROOT, ...pos },
    params: SLOTS.map((slot) => ({ type: "Identifier", name: slot, ...pos })),
    body: {
      type: "BlockStatement",
      body: [{ type: "ReturnStatement", argument: { type: "ArrayExpression", elements: rewritten as Expression[], ...pos }, ...pos }],
      ...pos,
    },
    generator: false,
    async: false,
    expression: false,
    ...pos,
  };
  return { cacheClass, slots, argumentsNode };
}

/** A copy of `body` with the identifier `name` replaced by `value` (a parameter of an arrow being inlined). */
function substitute(body: Node, name: string, value: Node): Node {
  const copy = structuredClone<Node>(body);
  const visit = (n: Node): Node => {
    if (n?.type === "Identifier" && n.name === name) return structuredClone<Node>(value);
    if (!n || typeof n !== "object") return n;
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      const v = fields[k];
      if (k === "property" && n.type === "MemberExpression" && !n.computed) continue;
      if (k === "key" && n.type === "Property" && !n.computed) continue;
      if (isNodeList(v)) fields[k] = v.map((c) => (c && typeof c === "object" ? visit(c) : c));
      else if (isNode(v)) fields[k] = visit(v);
    }
    return n;
  };
  return visit(copy);
}
