/**
 * The tool's call() made liftable: the client's environment is cut at ports.
 *
 * - Effects: a call whose value is thrown away (a statement, or a discarded element of a comma
 *   sequence) to a function that reaches the host — logging, telemetry, cache invalidation — is
 *   dropped; so is a local function that only exists to do such effects.
 * - The defer policy: `allTools.filter(policy)` becomes `allTools.filter(deferredByCaller)`, the
 *   contract's own list of deferred tools (the release's policy reads feature flags).
 * - The context argument: built from call()'s own destructuring pattern — the tools where it reads
 *   `tools`, `undefined` where it only calls optionally (`refresh?.()`), and an empty client state
 *   everywhere else (no MCP servers, nothing pending).
 */
import type { Container, ModuleEntry } from "../container/types.js";
import type { LocatedRoutine } from "../locate/locate.js";
import { lineColumn } from "../locate/parse-module.js";
import { matchNode, walk, type Node } from "../locate/pattern.js";
import type { Port } from "../locate/signature.js";
import { collectClosure, freeReferences, Resolver, type Place } from "./closure.js";
import { LiftError } from "./lift-error.js";

export const DEFERRED_BY_CALLER = "deferredByCaller";
/** Beyond this many definitions a callee is not a helper: it is the client. */
const HOST_LIMIT = 400;

export interface PreparedCall {
  /** The call() method (a Property), transformed. */
  node: Node;
  /** JavaScript source of the context argument, in terms of `allTools` and `emptyState()`. */
  context: string;
  /** What was cut, for the provenance. */
  dropped: Array<{ name: string; at: Place }>;
}

export function prepareCall(container: Container, call: LocatedRoutine, ports: Port[], resolver = new Resolver(container)): PreparedCall {
  const m = call.match;
  if (!m) throw new LiftError(`call() was not found (${call.result.status})`);
  const node = structuredClone(m.node) as Node;
  const fn = node.value;
  const at = (n: Node): Place => ({ module: m.module.path, ...lineColumn(m.text, n.start) });

  // The defer policy.
  const policy = m.bindings.get("POLICY");
  if (policy && !Array.isArray(policy)) {
    let replaced = false;
    // The matched filter, and — where the policy is a named function — every other `.filter(policy)`
    // in call() (later releases filter again after refreshing the tools).
    const same = (a: Node) => a.start === policy.start || (policy.type === "Identifier" && a.type === "Identifier" && a.name === policy.name);
    walk(fn, (n) => {
      if (n.type === "CallExpression" && n.arguments.length === 1 && same(n.arguments[0]) && n.callee.property?.name === "filter") {
        n.arguments[0] = { type: "Identifier", name: DEFERRED_BY_CALLER, start: n.arguments[0].start, end: n.arguments[0].end, range: [n.arguments[0].start, n.arguments[0].end] };
        replaced = true;
      }
    });
    if (!replaced) throw new LiftError("the defer policy's filter was not found in call()", at(policy));
  }

  // Effects on the host.
  const locals = declaredNames(fn);
  const hostCache = new Map<string, boolean>();
  const localFunctions = new Map<string, Node>();
  walk(fn.body, (n) => {
    if (n.type === "FunctionDeclaration" && n.id) localFunctions.set(n.id.name, n);
  });
  const reachesHost = (name: string, seen = new Set<string>()): boolean => {
    if (hostCache.has(name)) return hostCache.get(name)!;
    if (seen.has(name)) return false;
    seen.add(name);
    let result: boolean;
    const local = localFunctions.get(name);
    if (local) {
      // A local function reaches the host if a module-level name it uses does, or a local function it calls.
      result = freeReferences(local).some((r) => (localFunctions.has(r.name) ? reachesHost(r.name, seen) : !locals.has(r.name) && moduleReachesHost(r.name)));
    } else if (locals.has(name)) {
      result = false;
    } else {
      result = moduleReachesHost(name);
    }
    hostCache.set(name, result);
    return result;
  };
  const moduleHost = new Map<string, boolean>();
  const moduleReachesHost = (name: string) => hostBound(container, m.module, name, ports, resolver, moduleHost);
  const dropped: PreparedCall["dropped"] = [];
  const portDrops = (e: Node) => droppedByPort(e, ports);
  const droppable = (e: Node): boolean => {
    if (e.type !== "CallExpression" || e.callee.type !== "Identifier") return false;
    if (!portDrops(e) && !reachesHost(e.callee.name)) return false;
    dropped.push({ name: e.callee.name, at: at(e) });
    return true;
  };
  cutEffects(fn.body, droppable);
  // `flag() ? failedServers(…) : []`: where the host decides between extra information and a
  // constant, the empty client takes the constant.
  const hostCall = (e: Node) => {
    let found = false;
    walk(e, (n) => {
      if (n.type === "CallExpression" && n.callee.type === "Identifier" && !locals.has(n.callee.name) && reachesHost(n.callee.name)) found = true;
    });
    return found;
  };
  const constant = (e: Node) => (e.type === "ArrayExpression" || e.type === "ObjectExpression") && (e.elements ?? e.properties).length === 0;
  const replaceConditionals = (n: Node) => {
    if (!n || typeof n !== "object") return;
    for (const key of Object.keys(n)) {
      const v = n[key];
      const fix = (c: Node) => (c?.type === "ConditionalExpression" && constant(c.alternate) && (hostCall(c.test) || hostCall(c.consequent)) ? (dropped.push({ name: "(host branch)", at: at(c) }), c.alternate) : c);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          v[i] = fix(v[i]);
          replaceConditionals(v[i]);
        }
      } else if (v && typeof v === "object" && typeof v.type === "string") {
        n[key] = fix(v);
        replaceConditionals(n[key]);
      }
    }
  };
  replaceConditionals(fn.body);
  // A local function left doing nothing anyone reads — no return value, nothing assigned outside it,
  // every call discarded — was there for the effects just cut: it goes too, with its calls.
  for (const [name, decl] of localFunctions) {
    if (!effectOnly(decl, fn.body)) continue;
    cutEffects(fn.body, (e) => e.type === "CallExpression" && e.callee.type === "Identifier" && e.callee.name === name);
    if (!usedOutside(name, decl, fn.body)) {
      removeStatement(fn.body, decl);
      localFunctions.delete(name);
      hostCache.set(name, false);
    }
  }
  pruneEmptyIfs(fn.body);
  // Local functions left unreferenced after the cut, and that reach the host, go too.
  for (const [name, decl] of localFunctions) {
    if (!reachesHost(name)) continue;
    if (usedOutside(name, decl, fn.body)) throw new LiftError(`call() uses ${name}, which reaches the host, for its value`, at(decl));
    removeStatement(fn.body, decl);
  }

  return { node, context: contextSource(fn.params[1], fn.body), dropped };
}

/** Names declared anywhere inside a function (parameters, variables, functions, classes, catch). */
function declaredNames(fn: Node): Set<string> {
  const out = new Set<string>();
  const bind = (p: Node | null) => {
    if (!p) return;
    if (p.type === "Identifier") out.add(p.name);
    else if (p.type === "ObjectPattern") p.properties.forEach((q: Node) => bind(q.type === "RestElement" ? q.argument : q.value));
    else if (p.type === "ArrayPattern") p.elements.forEach(bind);
    else if (p.type === "AssignmentPattern") bind(p.left);
    else if (p.type === "RestElement") bind(p.argument);
  };
  walk(fn, (n) => {
    if (n.type === "VariableDeclarator") bind(n.id);
    if ((n.type === "FunctionDeclaration" || n.type === "ClassDeclaration") && n.id) out.add(n.id.name);
    if (n.type.includes("Function")) n.params.forEach(bind);
    if (n.type === "CatchClause") bind(n.param);
  });
  return out;
}

/** Remove discarded host calls: whole expression statements, and discarded elements of sequences. */
function cutEffects(root: Node, droppable: (e: Node) => boolean): void {
  const visit = (n: Node) => {
    if (!n || typeof n !== "object") return;
    for (const key of Object.keys(n)) {
      const v = n[key];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const s = v[i];
          if (s?.type === "ExpressionStatement") {
            const kept = keepOf(s.expression, true, droppable);
            if (kept === null) {
              v.splice(i--, 1);
              continue;
            }
            s.expression = kept;
          }
          visit(s);
        }
      } else if (v && typeof v === "object" && typeof v.type === "string") {
        if (v.type === "ExpressionStatement") {
          const kept = keepOf(v.expression, true, droppable);
          if (kept === null) n[key] = { type: "EmptyStatement", start: v.start, end: v.end, range: v.range };
          else v.expression = kept;
        } else if (v.type === "SequenceExpression") {
          n[key] = keepOf(v, false, droppable);
        }
        visit(n[key]);
      }
    }
  };
  visit(root);
}

/** What remains of an expression once discarded host calls are removed (null: nothing). */
function keepOf(e: Node, discarded: boolean, droppable: (e: Node) => boolean): Node | null {
  if (e.type === "SequenceExpression") {
    const last = e.expressions.length - 1;
    const kept = e.expressions.filter((x: Node, i: number) => !((discarded || i < last) && droppable(x)));
    if (kept.length === 0) return null;
    return kept.length === 1 ? kept[0] : { ...e, expressions: kept };
  }
  // `await sleep(…)` as a statement waits on the host and yields nothing: the same as a discarded call.
  if (discarded && e.type === "AwaitExpression" && droppable(e.argument)) return null;
  return discarded && droppable(e) ? null : e;
}

/** Whether `name` is mentioned in `body` anywhere but its own declaration. */
function usedOutside(name: string, decl: Node, body: Node): boolean {
  let used = false;
  walk(body, (n) => {
    if (n.type === "Identifier" && n.name === name && n !== decl.id) used = true;
  });
  return used;
}

/**
 * A local function whose work nobody reads: it returns nothing, assigns nothing outside itself,
 * and every call of it stands as a statement or a discarded element of a sequence.
 */
function effectOnly(decl: Node, body: Node): boolean {
  let returns = false;
  const own = declaredNames(decl);
  let assignsOut = false;
  walk(decl.body, (n) => {
    if (n.type === "ReturnStatement" && n.argument) returns = true;
    const target = n.type === "AssignmentExpression" ? n.left : n.type === "UpdateExpression" ? n.argument : null;
    if (target && !(target.type === "Identifier" && own.has(target.name))) assignsOut = true;
  });
  if (returns || assignsOut) return false;
  const name = decl.id.name;
  let calls = 0;
  let discarded = 0;
  walk(body, (n) => {
    if (n.type === "CallExpression" && n.callee.type === "Identifier" && n.callee.name === name) calls++;
    const expressions = n.type === "ExpressionStatement" ? [n.expression] : [];
    for (const e of expressions) {
      const parts = e.type === "SequenceExpression" ? e.expressions : [e];
      for (const p of parts) if (p.type === "CallExpression" && p.callee.type === "Identifier" && p.callee.name === name) discarded++;
    }
    if (n.type === "SequenceExpression") {
      for (const p of n.expressions.slice(0, -1)) if (p.type === "CallExpression" && p.callee.type === "Identifier" && p.callee.name === name) discarded++;
    }
  });
  return calls > 0 && calls <= discarded;
}

/** `if (x.length > 0) ; else ;` left behind by a cut: gone when the test itself does nothing. */
function pruneEmptyIfs(root: Node): void {
  const empty = (s: Node | null) => !s || s.type === "EmptyStatement" || (s.type === "BlockStatement" && s.body.length === 0);
  const pure = (e: Node) => {
    let ok = true;
    walk(e, (n) => {
      if (/^(Call|New|Assignment|Update|Await|Yield|TaggedTemplate)Expression$/.test(n.type) || (n.type === "UnaryExpression" && n.operator === "delete")) ok = false;
    });
    return ok;
  };
  walk(root, (n) => {
    for (const key of ["body", "consequent"]) {
      const list = n[key];
      if (!Array.isArray(list)) continue;
      for (let i = list.length - 1; i >= 0; i--) {
        const s = list[i];
        if (s?.type === "IfStatement" && empty(s.consequent) && empty(s.alternate) && pure(s.test)) list.splice(i, 1);
      }
    }
  });
}

function removeStatement(body: Node, target: Node): void {
  walk(body, (n) => {
    for (const key of ["body", "consequent"]) {
      const list = n[key];
      if (Array.isArray(list)) {
        const i = list.indexOf(target);
        if (i >= 0) list.splice(i, 1);
      }
    }
  });
}

/** Source of the context argument for call()'s second parameter pattern. */
function contextSource(param: Node | undefined, body: Node): string {
  if (!param) return "undefined";
  if (param.type === "AssignmentPattern") return contextSource(param.left, body);
  if (param.type === "ObjectPattern") {
    const props = param.properties
      .filter((p: Node) => p.type === "Property" && !p.computed)
      .map((p: Node) => {
        const key = p.key.type === "Identifier" ? p.key.name : String(p.key.value);
        const value = key === "tools" && (p.value.type === "Identifier" || p.value.type === "AssignmentPattern") ? "allTools" : contextSource(p.value, body);
        return `${JSON.stringify(key)}: ${value}`;
      });
    return `{ ${props.join(", ")} }`;
  }
  if (param.type === "Identifier") {
    const paths = memberPaths(param.name, body);
    if (paths.length === 0) return onlyCalledOptionally(param.name, body) ? "undefined" : "emptyState()";
    return objectFromPaths(paths);
  }
  return "emptyState()";
}

/** Dotted property chains read from `name` (`context.options.tools` → ["options", "tools"]). */
function memberPaths(name: string, body: Node): string[][] {
  const out: string[][] = [];
  walk(body, (n) => {
    if (n.type !== "MemberExpression" || n.computed) return;
    const path: string[] = [];
    let cur = n;
    while (cur.type === "MemberExpression" && !cur.computed) {
      path.unshift(cur.property.name);
      cur = cur.object;
    }
    if (cur.type === "Identifier" && cur.name === name) out.push(path);
  });
  return out;
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

/** Every use of `name` is `name?.(…)` or `name?.x`: the client may leave it out, so the neutral value is undefined. */
function onlyCalledOptionally(name: string, body: Node): boolean {
  let uses = 0;
  let optional = 0;
  walk(body, (n) => {
    if ((n.type === "CallExpression" || n.type === "MemberExpression") && n.optional) {
      const target = n.type === "CallExpression" ? n.callee : n.object;
      if (target.type === "Identifier" && target.name === name) optional++;
    }
    if (n.type === "Identifier" && n.name === name) uses++;
  });
  return uses > 0 && uses === optional;
}

/**
 * Cut discarded calls to host-reaching functions (logging, telemetry, cache bookkeeping) out of
 * any definition of the closure — a helper class's methods log too. Returns what was cut.
 */
export function cutHostEffects(container: Container, def: { module: ModuleEntry; node: Node }, ports: Port[], resolver: Resolver, hostCache: Map<string, boolean>): string[] {
  const locals = declaredNames(def.node);
  const cut: string[] = [];
  const droppable = (e: Node): boolean => {
    if (e.type !== "CallExpression" || e.callee.type !== "Identifier" || locals.has(e.callee.name)) return false;
    if (!droppedByPort(e, ports) && !hostBound(container, def.module, e.callee.name, ports, resolver, hostCache)) return false;
    cut.push(e.callee.name);
    return true;
  };
  cutEffects(def.node, droppable);
  return cut;
}

/**
 * Whether module-level `name` (seen from `module`) reaches the host: its closure meets a host name,
 * or is so large it is the client rather than a helper. Cached per module and name.
 */
function hostBound(container: Container, module: ModuleEntry, name: string, ports: Port[], resolver: Resolver, cache: Map<string, boolean>): boolean {
  const key = `${module.path}#${name}`;
  let host = cache.get(key);
  if (host === undefined) {
    const d = resolver.resolve(module, name);
    host = false;
    if (d) {
      const cl = collectClosure(container, [{ module: d.module, node: d.node, name: d.name }], ports, { stopAtHost: true, limit: HOST_LIMIT, resolver });
      host = cl.environment.length > 0 || cl.definitions.length >= HOST_LIMIT;
    }
    cache.set(key, host);
  }
  return host;
}

/** A call a signature's drop port recognises (telemetry), with its kind constraints met. */
function droppedByPort(e: Node, ports: Port[]): boolean {
  return ports.some((p) => {
    if (!p.drop) return false;
    const b = matchNode(p.drop.root, e, new Map());
    return (
      !!b &&
      Object.entries(p.kinds).every(([meta, kind]) => {
        const v = b.get(meta);
        return !!v && !Array.isArray(v) && (kind === "string" ? v.type === "Literal" && typeof v.value === "string" : v.type === "ObjectExpression");
      })
    );
  });
}
