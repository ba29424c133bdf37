/** What the adapter of a lifted module gives the release's call(), read from the module's own code. */
import { walk } from "estree-walker";
import { memberName, type FunctionNode, type Node } from "../ast/pattern.js";
import type { Value } from "./known-values.js";
import type { Reachability } from "./reachability.js";
import { fromEstree, toEstree } from "../ast/estree-bridge.js";

/** An object literal of the adapter's, property by property; null with a spread, a computed key or a method. */
/** The value node of property `key` of an object literal, if it has one by that name. */
export function propertyNode(o: Node & { type: "ObjectExpression" }, key: string): Node | undefined {
  for (const p of o.properties)
    if (
      p.type === "Property" &&
      !p.computed &&
      (p.key.type === "Identifier" ? p.key.name : String((p.key as { value: unknown }).value)) === key
    )
      return p.value;
  return undefined;
}

export function objectOf(e: Node & { type: "ObjectExpression" }): Value | null {
  const props = new Map<string, Node>();
  for (const p of e.properties) {
    if (p.type !== "Property" || p.computed || p.kind !== "init") return null;
    props.set(p.key.type === "Identifier" ? p.key.name : String((p.key as { value: unknown }).value), p.value);
  }
  return { kind: "object", props, node: e, why: "" };
}

/**
 * The release's call() and the arguments the adapter's toolSearch gives it: `release.call(input, {…}, {…})`,
 * where `release` is `createReleaseSearch(…)`, whose returned object's `call` names a function of its own that
 * nothing else uses. Null when the module is not laid out so.
 */
export function adapterCall(ast: Node, r: Reachability): { call: FunctionNode; args: Node[] } | null {
  const body = (ast as Node & { body: Node[] }).body;
  const top = (name: string) =>
    body.find((s): s is Node & { type: "FunctionDeclaration" } => s.type === "FunctionDeclaration" && s.id?.name === name);
  const factory = top("createReleaseSearch");
  const adapter = top("toolSearch");
  if (!factory || !adapter) return null;
  const ret = factory.body.body.at(-1);
  if (ret?.type !== "ReturnStatement" || ret.argument?.type !== "ObjectExpression") return null;
  const prop = ret.argument.properties.find(
    (p) => p.type === "Property" && !p.computed && p.key.type === "Identifier" && p.key.name === "call",
  );
  if (prop?.type !== "Property" || prop.value.type !== "Identifier") return null;
  const v = r.variable(prop.value);
  const def = v?.defs[0];
  if (!v || v.defs.length !== 1 || def?.type !== "FunctionName") return null;
  // Its one use is the returned object: no code of the release calls it with anything else.
  if (v.references.length !== 1 || fromEstree(v.references[0]!.identifier) !== prop.value) return null;
  let args: Node[] | null = null;
  let calls = 0;
  walk(toEstree(adapter), {
    enter(raw) {
      const n = fromEstree(raw);
      if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && memberName(n.callee) === "call") {
        calls++;
        args = n.arguments.slice(1);
      }
    },
  });
  return calls === 1 && args ? { call: fromEstree(def.node) as FunctionNode, args } : null;
}
