/**
 * An emitted module made into what the sandbox runs (verify.ts): a classic script that assigns the module's exports
 * to `globalThis.__searchlift`, as getters so live bindings stay live, its body in a strict function as in a
 * module. The module must have no imports and no top-level await (the contract's own terms).
 */
import { parse } from "acorn";
import "../ast/acorn-warm.js"; // before any parse: see acorn-warm.ts
import { VerifySetupError } from "./verify.js";

// ---------------------------------------------------------------------------------------------------------
// Module → script

/** Turn an import-free ES module into a classic script that assigns its exports to `globalThis.__searchlift`
 *  (as getters, so live bindings stay live). The module body runs in a strict function, as in a module. */
export function moduleToScript(source: string): string {
  let ast;
  try {
    ast = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  } catch (e) {
    throw new VerifySetupError(`the emitted module does not parse: ${(e as Error).message}`);
  }
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const exported = new Map<string, string>(); // exported name -> local name
  for (const node of ast.body) {
    switch (node.type) {
      case "ImportDeclaration":
        throw new VerifySetupError(`the emitted module imports "${String(node.source.value)}"; the contract forbids imports`);
      case "ExportAllDeclaration":
        throw new VerifySetupError(`the emitted module re-exports "${String(node.source.value)}"; the contract forbids imports`);
      case "ExportNamedDeclaration": {
        if (node.source)
          throw new VerifySetupError(`the emitted module re-exports "${String(node.source.value)}"; the contract forbids imports`);
        if (node.declaration) {
          edits.push({ start: node.start, end: node.declaration.start, text: "" });
          const d = node.declaration;
          if (d.type === "VariableDeclaration")
            for (const decl of d.declarations) for (const n of patternNames(decl.id)) exported.set(n, n);
          else exported.set(d.id.name, d.id.name);
        } else {
          edits.push({ start: node.start, end: node.end, text: "" });
          for (const s of node.specifiers) {
            const local = s.local.type === "Identifier" ? s.local.name : String(s.local.value);
            const name = s.exported.type === "Identifier" ? s.exported.name : String(s.exported.value);
            exported.set(name, local);
          }
        }
        break;
      }
      case "ExportDefaultDeclaration": {
        const d = node.declaration;
        if ((d.type === "FunctionDeclaration" || d.type === "ClassDeclaration") && d.id) {
          edits.push({ start: node.start, end: d.start, text: "" });
          exported.set("default", d.id.name);
        } else {
          edits.push({ start: node.start, end: d.start, text: "const __searchlift_default = " });
          edits.push({ start: node.end, end: node.end, text: ";" });
          exported.set("default", "__searchlift_default");
        }
        break;
      }
      default:
        break;
    }
  }
  // Top-level await is legal in a module only; keep it legal by running the body in an async function.
  const hasAwait = containsTopLevelAwait(ast.body);
  let body = source;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) body = body.slice(0, e.start) + e.text + body.slice(e.end);
  const getters = [...exported].map(([name, local]) => `get ${JSON.stringify(name)}() { return ${local}; }`).join(",\n  ");
  const api = `globalThis.__searchlift = {\n  ${getters}\n};`;
  return hasAwait
    ? `(async function () {\n"use strict";\n${body}\n;${api}\n})();\n`
    : `(function () {\n"use strict";\n${body}\n;${api}\n})();\n`;
}

function patternNames(p: import("acorn").Pattern): string[] {
  switch (p.type) {
    case "Identifier":
      return [p.name];
    case "ObjectPattern":
      return p.properties.flatMap((q) => (q.type === "RestElement" ? patternNames(q.argument) : patternNames(q.value)));
    case "ArrayPattern":
      return p.elements.flatMap((q) => (q ? patternNames(q) : []));
    case "RestElement":
      return patternNames(p.argument);
    case "AssignmentPattern":
      return patternNames(p.left);
    default:
      return [];
  }
}

/** An `await` outside any function, found by a walk that does not enter functions. */
function containsTopLevelAwait(node: unknown): boolean {
  if (node === null || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(containsTopLevelAwait);
  const n = node as { type?: string };
  if (n.type === "AwaitExpression") return true;
  if (n.type === "ForOfStatement" && (n as { await?: boolean }).await) return true;
  if (n.type === "FunctionDeclaration" || n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression") return false;
  for (const [k, v] of Object.entries(n)) {
    if (k === "type" || k === "start" || k === "end" || k === "loc" || k === "range") continue;
    if (typeof v === "object" && containsTopLevelAwait(v)) return true;
  }
  return false;
}
