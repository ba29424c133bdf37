/**
 * The readable copy laid out for a person: prettier prints it at a line width of 100, breaking long
 * expressions, argument lists, conditions and object literals with consistent indentation (string
 * literals are never broken, so a line holding a long one may run past). A well-kept printer beats one
 * written here: astring, which prints the folded tree, writes each statement on one line however long.
 *
 * The functions the safety check trusts (trusted-functions.ts) are compared character for character, so
 * they are left exactly as written (`// prettier-ignore`, which goes again afterwards).
 */
import { createRequire } from "node:module";
import { parse } from "acorn";
import type { Node } from "../ast/pattern.js";
import { TRUSTED_FUNCTIONS } from "./trusted-functions.js";

export const LINE_WIDTH = 100;

const IGNORE = "// prettier-ignore\n";

/** `text` (an ES module's code) laid out at LINE_WIDTH; the same program, token for token. */
export async function layoutModule(text: string): Promise<string> {
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module" }) as unknown as { body: Node[] };
  // As written, or not one the check trusts anyway.
  const trusted = ast.body.filter(
    (s) => s.type === "FunctionDeclaration" && text.slice(s.start, s.end) === TRUSTED_FUNCTIONS.get(s.id!.name),
  );
  let marked = text;
  for (const s of [...trusted].reverse()) marked = marked.slice(0, s.start) + IGNORE + marked.slice(s.start);
  // Required, not imported: the bundled command line (scripts/bundle.mjs) runs from a V8 code cache, where a
  // dynamic import has no callback; prettier stays outside the bundle, loaded only by a lift.
  const load = createRequire(import.meta.url);
  const { format } = load("prettier/standalone") as typeof import("prettier/standalone");
  const babel = load("prettier/plugins/babel") as typeof import("prettier/plugins/babel");
  const estree = load("prettier/plugins/estree") as typeof import("prettier/plugins/estree");
  let out = await format(marked, {
    parser: "babel",
    plugins: [babel, estree],
    printWidth: LINE_WIDTH,
    // An object literal that fits on a line is written on one, as a person would; astring breaks every one.
    objectWrap: "collapse",
  });
  for (const s of trusted) {
    const name = (s as Node & { id: { name: string } }).id.name;
    const kept = TRUSTED_FUNCTIONS.get(name)!;
    const at = out.indexOf(IGNORE + kept);
    if (at < 0) throw new Error(`layout changed the trusted function ${name}`);
    out = out.slice(0, at) + out.slice(at + IGNORE.length);
  }
  return out;
}
