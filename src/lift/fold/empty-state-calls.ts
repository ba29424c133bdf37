/**
 * A call, as a statement, of a value the adapter fills with the client's empty state: dropped. The lifted
 * module hands call() its context from the adapter, which gives every part of the client the module does
 * not model `emptyState()`, a proxy whose calls do nothing but return another one. A port that cuts the
 * host leaves the call of such a part behind.
 *
 *   // toolSearch: release.call(input, {}, { tools: allTools, contextRoom: emptyState() })
 *   async function callToolSearch(input, options, context) {     async function callToolSearch(input, options, context) {
 *     let { tools, contextRoom } = context;                   →     let { tools, contextRoom } = context;
 *     contextRoom();                                                return tools.length;
 *     return tools.length;                                        }
 *   }
 *
 * Only where call() is the adapter's alone: its one reference is the list of names the module hands out
 * (foldDeadCode's `uses`), so no code of the release calls it with anything else. The value is a parameter
 * of call() destructured by key, or a binding destructured by key from a parameter that is never written;
 * neither binding is written again. The call is of the bare name, with pure arguments and no spread.
 */
import type { Variable } from "eslint-scope";
import { parse, type Expression } from "acorn";
import type { FunctionNode, Node } from "../../ast/pattern.js";
import { isPure } from "./pure.js";
import { defineFold, laterWrites, rewriteUp, variablesOf, type Fold } from "./tree.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/**
 * Where the adapter passes the empty state: call()'s name, and for each of its parameters the keys of the object
 * given there that hold `emptyState()`; `context`, the source of those arguments (effect-free-statements.ts reads
 * which parts hold the adapter's list of tools).
 */
export interface EmptyStateArguments {
  call: string;
  keys: string[][];
  context?: string;
}

/**
 * The keys that hold `emptyState()` in each argument of the adapter's call() after the input, from the
 * source of those arguments (`{ signal: emptyState() }, { tools: allTools, messages: emptyState() }`).
 */
export function emptyStateKeys(source: string): string[][] {
  const list = parse(`[${source}]`, { ecmaVersion: "latest" }) as unknown as { body: [{ expression: { elements: Expression[] } }] };
  return list.body[0].expression.elements.map((e) =>
    e.type !== "ObjectExpression"
      ? []
      : e.properties.flatMap((p) => {
          if (p.type !== "Property" || p.computed || p.value.type !== "CallExpression") return [];
          const key = p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
          const { callee, arguments: args } = p.value;
          return key !== null && callee.type === "Identifier" && callee.name === "emptyState" && args.length === 0 ? [key] : [];
        }),
  );
}

export function emptyStateCalls(at: EmptyStateArguments | null): Fold {
  return defineFold({
    scope: true,
    run: (root) => {
      if (!at) return 0;
      const body = (root as { body: { body: Node[] } }).body.body;
      const uses = body.at(-1);
      const fn = body.find((s) => s.type === "FunctionDeclaration" && s.id?.name === at.call) as FunctionNode | undefined;
      if (!fn || uses?.type !== "ReturnStatement") return 0;
      const variables = variablesOf(root);
      const byName = new Map<Node, Variable>();
      const resolved = new Map<Node, Variable>();
      for (const v of variables) {
        for (const d of v.defs) byName.set(fromEstree(d.name), v);
        for (const r of v.references) resolved.set(fromEstree(r.identifier), v);
      }
      const own = byName.get(fn.id as Node);
      // Called by the adapter alone: read only in the names the module hands out.
      const inUses = (id: Node) => uses.range![0] < id.range![0] && id.range![1] < uses.range![1];
      if (!own || laterWrites(own).length > 0 || !own.references.every((r) => inUses(fromEstree(r.identifier)))) return 0;
      const empty = new Set<Variable>();
      const collect = (pattern: Node, keys: string[]) => {
        if (pattern.type !== "ObjectPattern") return;
        for (const p of pattern.properties) {
          if (p.type !== "Property" || p.computed) continue;
          const key = p.key.type === "Identifier" ? p.key.name : p.key.type === "Literal" ? String(p.key.value) : null;
          if (key === null || !keys.includes(key)) continue;
          const target = p.value.type === "AssignmentPattern" ? p.value.left : p.value;
          const v = target.type === "Identifier" ? byName.get(target) : undefined;
          if (v && v.defs.length === 1 && laterWrites(v).length === 0) empty.add(v);
        }
      };
      fn.params.forEach((p: Node, i: number) => {
        const keys = at.keys[i - 1];
        if (!keys?.length) return;
        if (p.type === "ObjectPattern") return collect(p, keys);
        const v = p.type === "Identifier" ? byName.get(p) : undefined;
        if (!v || laterWrites(v).length > 0) return;
        // `let { contextRoom } = context`: the declarators that destructure the parameter itself.
        rewriteUp(fn, (n) => {
          if (n.type === "VariableDeclarator" && n.init?.type === "Identifier" && resolved.get(n.init) === v) collect(n.id, keys);
          return n;
        });
      });
      if (empty.size === 0) return 0;
      let count = 0;
      rewriteUp(fn, (n) => {
        if (n.type !== "ExpressionStatement" || n.expression.type !== "CallExpression") return n;
        const call = n.expression;
        const v = call.callee.type === "Identifier" ? resolved.get(call.callee) : undefined;
        if (!v || !empty.has(v) || !call.arguments.every((a: Node) => a.type !== "SpreadElement" && isPure(a))) return n;
        count++;
        return null;
      });
      return count;
    },
  });
}
