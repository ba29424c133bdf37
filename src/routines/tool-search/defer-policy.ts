/**
 * The defer policy of the tool's call(): the release's own (which reads feature flags) becomes the caller's,
 * the contract's list of deferred tools — `allTools.filter(policy)` becomes `allTools.filter(deferredByCaller)`.
 */
import type { LocatedRoutine } from "../../locate/locate.js";
import type { CallExpression, Identifier, MemberExpression, VariableDeclarator } from "acorn";
import { fieldsOf, memberName, walk, type FunctionNode, type Node } from "../../ast/pattern.js";
import type { Place } from "../../lift/closure.js";
import { LiftError } from "../../lift/lift-error.js";

export const DEFERRED_BY_CALLER = "deferredByCaller";

/**
 * The defer policy: the matched `.filter(policy)` and — where the policy is a named function — every
 * other `.filter(policy)` in call() (later releases filter again after refreshing the tools) become
 * `.filter(deferredByCaller)`; where there is no filter, the local policy function is replaced.
 */
export function replaceDeferPolicy(fn: FunctionNode, call: LocatedRoutine, at: (n: Node) => Place): void {
  const bound = call.match!.bindings.get("POLICY");
  const policy = bound && !Array.isArray(bound) ? bound : namedPolicy(fn, call.result.roles?.deferredTools, call.result.roles?.allTools);
  if (!policy) return policyFunction(fn, call.result.roles?.deferredTools, call.result.roles?.allTools, at);
  let replaced = false;
  const same = (a: Node) => a.start === policy.start || (policy.type === "Identifier" && a.type === "Identifier" && a.name === policy.name);
  walk(fn, (n) => {
    if (
      n.type === "CallExpression" &&
      n.arguments.length === 1 &&
      same(n.arguments[0]!) &&
      ((n.callee as MemberExpression).property as Identifier | undefined)?.name === "filter"
    ) {
      const { start, end } = n.arguments[0]!;
      n.arguments[0] = { type: "Identifier", name: DEFERRED_BY_CALLER, start, end, range: [start, end] };
      replaced = true;
    }
  });
  if (!replaced) throw new LiftError("the defer policy's filter was not found in call()", at(policy));
}

/**
 * From 2.1.3xx call() computes its deferred tools with a local function of the tools
 * (`deferredOf = (tools) => { …flags…; return tools.filter((t) => policy(t, …)) }`, then
 * `deferred = deferredOf(all)`, again after a refresh). That function becomes the caller's policy:
 * `(tools) => tools.filter(deferredByCaller)`.
 */
/** `deferred = all.filter(policy)` with a named policy, where no signature bound it: the name. */
function namedPolicy(fn: FunctionNode, deferred: string | undefined, all: string | undefined): Node | null {
  const policy = filteredBy(deferredSite(fn, deferred)?.init, all);
  return policy?.type === "Identifier" ? policy : null;
}

/** The declarator of call()'s local `deferred`. */
function deferredSite(fn: FunctionNode, deferred: string | undefined): VariableDeclarator | null {
  let site: VariableDeclarator | null = null;
  walk(fn.body, (n) => {
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.id.name === deferred) site = n;
  });
  return site;
}

/** X in `all.filter(X)`, or null. */
function filteredBy(init: Node | null | undefined, all: string | undefined): Node | null {
  return init?.type === "CallExpression" &&
    init.callee.type === "MemberExpression" &&
    memberName(init.callee) === "filter" &&
    init.callee.object.type === "Identifier" &&
    init.callee.object.name === all &&
    init.arguments.length === 1
    ? init.arguments[0]!
    : null;
}

function policyFunction(fn: FunctionNode, deferred: string | undefined, all: string | undefined, at: (n: Node) => Place): void {
  if (!deferred || !all) throw new LiftError("call() binds neither the defer policy nor its deferred and all tools");
  const site = deferredSite(fn, deferred);
  const init = site?.init;
  // `deferred = all.filter((t) => …policy…)`: the filter's callback is the policy.
  const callback = filteredBy(init, all);
  if (callback && /Function/.test(callback.type)) {
    (init as CallExpression).arguments[0] = {
      type: "Identifier",
      name: DEFERRED_BY_CALLER,
      start: callback.start,
      end: callback.end,
      range: [callback.start, callback.end],
    };
    return;
  }
  if (!init || init.type !== "CallExpression" || init.callee.type !== "Identifier" || init.arguments.length !== 1) {
    throw new LiftError(`the defer policy is not bound and ${deferred} is not a local function of the tools`, site ? at(site) : undefined);
  }
  const name = init.callee.name;
  let local: Node | null = null;
  walk(fn.body, (n) => {
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.id.name === name && /Function/.test(n.init?.type ?? ""))
      local = n.init!;
    if (n.type === "FunctionDeclaration" && n.id?.name === name) local = n;
  });
  const f = local as FunctionNode | null;
  if (!f || f.params.length !== 1 || f.params[0]?.type !== "Identifier")
    throw new LiftError(`${name}, which computes the deferred tools, is not a local function of one parameter`, at(init));
  const param = f.params[0].name;
  let filters = false;
  walk(f.body, (n) => {
    if (n.type === "ReturnStatement" || f.body.type !== "BlockStatement") {
      const ret = n.type === "ReturnStatement" ? n.argument : f.body;
      if (ret?.type === "CallExpression" && ret.callee.type === "MemberExpression" && memberName(ret.callee) === "filter") filters = true;
    }
  });
  if (!filters) throw new LiftError(`${name}, which computes the deferred tools, does not return a filter of ${param}`, at(f));
  const pos = { start: f.body.start, end: f.body.end, range: [f.body.start, f.body.end] as [number, number] };
  const id = (n: string): Identifier => ({ type: "Identifier", name: n, ...pos });
  const body: CallExpression = {
    type: "CallExpression",
    callee: { type: "MemberExpression", object: id(param), property: id("filter"), computed: false, optional: false, ...pos },
    arguments: [id(DEFERRED_BY_CALLER)],
    optional: false,
    ...pos,
  };
  // The function's body is replaced whatever kind of function it is (a declaration takes a block).
  fieldsOf(f).body =
    f.type === "FunctionDeclaration"
      ? { type: "BlockStatement", body: [{ type: "ReturnStatement", argument: body, ...pos }], ...pos }
      : body;
  if (f.type !== "FunctionDeclaration") f.expression = true;
}
