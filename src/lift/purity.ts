/**
 * The static check every emitted module passes before it is written: its free identifiers are
 * ECMAScript built-ins only (not Reflect, Proxy, Atomics, SharedArrayBuffer), it has no imports,
 * dynamic import or import.meta, and nothing in it can reach a constructor, a prototype or a
 * shared built-in (safety.ts) — so it cannot reach a host, whatever it is imported into.
 */
import { parse } from "acorn";
import "../ast/acorn-warm.js"; // before any parse: see acorn-warm.ts
import { analyze } from "eslint-scope";
import { lineColumn } from "../ast/parse-module.js";
import { walk, type Node } from "../ast/pattern.js";
import { BUILTINS } from "./globals.js";
import { parentsOf } from "./key-port.js";
import { insideAny, safetyProblems } from "./safety.js";
import { acornIdentifier } from "../ast/estree-bridge.js";

export interface Impurity {
  what: string;
  line: number;
  column: number;
}

export function impurities(moduleText: string): Impurity[] {
  // Without acorn's locations (they cost on every node): a place is worked out only for what is reported.
  const ast = parse(moduleText, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const out: Impurity[] = [];
  const at = (n: Node) => lineColumn(moduleText, n.start);
  walk(ast, (n) => {
    if (n.type === "ImportDeclaration" || n.type === "ImportExpression") out.push({ what: "import", ...at(n) });
    if (n.type === "MetaProperty" && n.meta.name === "import") out.push({ what: "import.meta", ...at(n) });
    if ((n.type === "ExportNamedDeclaration" || n.type === "ExportAllDeclaration") && n.source) out.push({ what: "re-export", ...at(n) });
  });
  const sm = analyze(ast as never, { ecmaVersion: 2022, sourceType: "module", fallback: "iteration" });
  const safety = safetyProblems(moduleText, ast, sm, parentsOf(ast));
  const seen = new Set<string>();
  for (const ref of sm.globalScope!.through) {
    const id = acornIdentifier(ref.identifier);
    if (BUILTINS.has(id.name) || seen.has(id.name) || insideAny(id, safety.trusted)) continue;
    seen.add(id.name);
    out.push({ what: id.name, ...at(id) });
  }
  for (const p of safety.problems) out.push({ what: p.what, ...lineColumn(moduleText, p.at) });
  return out;
}
