/**
 * The code view of `searchlift diff`: a unified diff of two lifted modules' code, without what
 * differs between any two lifts of the same code (the provenance header comment and the
 * `provenance` object). The lift gives stable readable names, so two releases whose tool search
 * differs only in minified names give an empty diff.
 */
import { parse } from "acorn";
import { createTwoFilesPatch } from "diff";

export interface CodeDiff {
  changed: boolean;
  /** A unified diff; "" when the code is the same. */
  diff: string;
}

/** The module's code: the leading comment block and the `provenance` declaration removed. */
export function moduleCode(text: string): string {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module" });
  let code = text;
  // Cut from the end first so earlier offsets stay valid.
  const cuts: Array<[number, number]> = [];
  for (const node of ast.body) {
    if (node.type !== "VariableDeclaration") continue;
    if (node.declarations.some((d) => d.id.type === "Identifier" && d.id.name === "provenance")) cuts.push([node.start, node.end]);
  }
  for (const [start, end] of cuts.reverse()) {
    let e = end;
    while (code[e] === "\n") e++;
    code = code.slice(0, start) + code.slice(e);
  }
  // The header: the comment lines (and blank lines) before the first statement.
  const lines = code.split("\n");
  let i = 0;
  while (i < lines.length && (lines[i]!.startsWith("//") || lines[i]!.trim() === "")) i++;
  return lines.slice(i).join("\n");
}

export function codeDiff(a: { label: string; text: string }, b: { label: string; text: string }): CodeDiff {
  const ca = moduleCode(a.text);
  const cb = moduleCode(b.text);
  if (ca === cb) return { changed: false, diff: "" };
  return { changed: true, diff: createTwoFilesPatch(a.label, b.label, ca, cb, undefined, undefined, { context: 3 }) };
}
