/**
 * `.filter(Boolean)`, `.map(String)`: a conversion passed as a callback hands the callee the
 * shared built-in itself, and a callee is not always the array method it looks like. The lift
 * passes an arrow that calls the conversion instead — `.filter((value) => Boolean(value))` — which
 * gives the same results (each takes only its first argument) and keeps the built-in in no one's
 * hands; the safety check then refuses any global built-in passed as a value.
 */
import { parse } from "acorn";
import { analyze, type Scope } from "eslint-scope";
import { walk, type Node } from "../ast/pattern.js";
import { fromEstree } from "../ast/estree-bridge.js";

const CONVERSIONS = new Set(["Boolean", "String", "Number"]);

/** `text` with every argument that is the global Boolean, String or Number made an arrow that calls it. */
export function wrapConversionCallbacks(text: string): string {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const scopes = analyze(ast as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
  const globals = new Set<Node>();
  for (const ref of (scopes.globalScope as Scope).through) globals.add(fromEstree(ref.identifier));
  const at: Node[] = [];
  const visit = (n: Node): void => {
    if ((n.type === "CallExpression" || n.type === "NewExpression") && n.arguments.length)
      for (const a of n.arguments) if (a.type === "Identifier" && CONVERSIONS.has(a.name) && globals.has(a)) at.push(a);
  };
  walk(ast, visit);
  let out = text;
  for (const a of at.sort((x, y) => y.start - x.start)) {
    const name = (a as Node & { name: string }).name;
    out = `${out.slice(0, a.start)}value => ${name}(value)${out.slice(a.end)}`;
  }
  return out;
}
