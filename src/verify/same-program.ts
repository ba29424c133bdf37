/**
 * When are two originals the same program? When they differ only in the names of their own bindings: a
 * release whose routine did not change differs from the one before in nothing else, because the minifier
 * names every local afresh in each build.
 *
 * The key is a hash of the script printed with every binding below the top level renamed by its place in
 * the scope analysis (the first declared `ǂ0`, the next `ǂ1`, …). Top-level names stay: a classic script's
 * top-level declarations are properties of the global object, which code can read by name. So do property
 * names, labels and every name that resolves to no binding (the globals it uses). A name can otherwise be
 * read only through a function's `name` or its source text; the scorer reads neither (it would behave
 * differently in every minified build), and verification compares errors without their messages.
 */
import { createHash } from "node:crypto";
import { parse, type Identifier } from "acorn";
import { generate } from "astring";
import { analyze } from "eslint-scope";
import { someNode, walk, type Node } from "../ast/pattern.js";

/** The key of `script`'s program up to the names of its bindings; null when it cannot be had (see below). */
export function programKey(script: string): string | null {
  let program: Node;
  try {
    program = parse(script, { ecmaVersion: "latest", sourceType: "script", ranges: true });
  } catch {
    return null;
  }
  // A direct eval or a with statement looks bindings up by a name computed at run time.
  if (looksUpNamesAtRunTime(program)) return null;
  let scopes;
  try {
    scopes = analyze(program as never, { ecmaVersion: 2022, sourceType: "script" }).scopes;
  } catch {
    return null;
  }
  let next = 0;
  for (const scope of scopes) {
    if (scope.type === "global") continue;
    for (const variable of scope.variables) {
      // Variables without a declaration are the implicit `arguments`: it keeps its name.
      if (variable.defs.length === 0) continue;
      const name = `ǂ${next++}`;
      for (const id of variable.identifiers) (id as Identifier).name = name;
      for (const ref of variable.references) (ref.identifier as Identifier).name = name;
    }
  }
  // `{ a }` printed after renaming would lose the key `a`: every property is printed as `key: value`.
  walk(program, (n) => {
    if (n.type === "Property") (n as unknown as { shorthand: boolean }).shorthand = false;
  });
  return createHash("sha256").update(generate(program)).digest("hex");
}

function looksUpNamesAtRunTime(program: Node): boolean {
  return someNode(program, (n) => {
    if (n.type === "WithStatement") return true;
    const callee = n.type === "CallExpression" ? (n as unknown as { callee: Node }).callee : null;
    return callee?.type === "Identifier" && callee.name === "eval";
  });
}
