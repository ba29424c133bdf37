/**
 * Braces where a person would write them: a loop or if whose body is itself an if, a loop, a switch
 * or a try, or would not fit on the line of its head (a body printed on lines of its own, below an if
 * that reads as if it ended there), and every branch of an if/else (and of an else-if chain) once one
 * has a block.
 *
 *   for (let w of words) if (w[0] === "+") req.push(w); else opt.push(w);
 *     →   for (let w of words) {
 *           if (w[0] === "+") req.push(w);
 *           else opt.push(w);
 *         }
 *   if (a) { b(); c(); } else d();   →   if (a) { b(); c(); } else { d(); }
 *   if (words.length > 0) candidates = await mapWithYield(tools, async (tool) => { … });
 *     →   if (words.length > 0) {
 *           candidates = await mapWithYield(tools, async (tool) => { … });
 *         }
 *
 * An else-if chain stays a chain. This also keeps every else with its own if when printed (a
 * printer does not brace `if (x) for (…) if (y) a(); else b();` by itself).
 */
import { generate } from "astring";
import type { Node } from "../../ast/pattern.js";
import { fieldsOf } from "../../ast/pattern.js";
import type { Place } from "../../ast/traverse.js";
import { LINE_WIDTH } from "../layout.js";
import { blockOf } from "./statement-lists.js";
import { defineFold } from "./tree.js";

const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const COMPOUND = new Set([...LOOPS, "IfStatement", "SwitchStatement", "TryStatement", "LabeledStatement", "WithStatement"]);

const isBlock = (s: Node | null | undefined): boolean => s?.type === "BlockStatement";

/** Whether the statements inside `n` are printed one step further in. */
const opens = (n: Node): boolean => n.type === "BlockStatement" || n.type === "ClassBody" || n.type === "SwitchCase";

/** Code as printed on one line. */
const flat = (n: Node): string => generate(n).replace(/\s*\n\s*/g, " ");

/** The width of `head` followed by `body` printed on one line at `indent`. */
const flatWidth = (indent: number, head: string, body: Node): number => indent + head.length + flat(body).length;

export const compoundBodies = defineFold({
  scope: false,
  after: ["controlExpressions", "sequenceHeads", "elseAfterExit"],
  rewrite: (_root, changed) => {
    // The indentation of the statements inside each node entered, by the blocks around it (the module body is
    // one: its factory's); a node's own is its parent's, which holds for what an earlier rewrite put in its place.
    const inner = new Map<Node, number>();
    return {
      enter: (n, at) => void inner.set(n, (at ? inner.get(at.parent)! : 0) + (opens(n) ? 2 : 0)),
      leave: (n, at) => braceBodies(n, at, inner.get(at.parent)!, changed),
    };
  },
});

/** `n` at `at`, printed at `indent`, with braces around its bodies where a person would put them. */
function braceBodies(n: Node, { parent, key }: Place, indent: number, changed: () => void): Node {
  const brace = (n: Node, key: string) => {
    const s = fieldsOf(n)[key] as Node;
    fieldsOf(n)[key] = blockOf([s], s);
    changed();
  };
  /** Whether `body`, printed after `head` at the indentation of `n`, runs past the line width. */
  const long = (head: () => string, body: Node): boolean => !isBlock(body) && flatWidth(indent, head(), body) > LINE_WIDTH;
  if (LOOPS.has(n.type)) {
    const body = fieldsOf(n).body as Node;
    const head = () => flat({ ...n, body: { type: "EmptyStatement" } } as Node).replace(/;\s*$/, " ");
    if (COMPOUND.has(body.type) || long(head, body)) brace(n, "body");
  }
  if (n.type !== "IfStatement") return n;
  // An else-if's head follows the else.
  const elseIf = parent.type === "IfStatement" && key === "alternate";
  const test = () =>
    `${elseIf ? "else " : ""}if (${flat({ type: "ExpressionStatement", expression: n.test } as Node).replace(/;\s*$/, "")}) `;
  if (COMPOUND.has(n.consequent.type) || long(test, n.consequent)) brace(n, "consequent");
  const alt = n.alternate;
  if (!alt) return n;
  if (alt.type !== "IfStatement" && (COMPOUND.has(alt.type) || long(() => "else ", alt) || (!isBlock(alt) && isBlock(n.consequent))))
    brace(n, "alternate");
  if (!isBlock(n.consequent) && isBlock(n.alternate)) brace(n, "consequent");
  // Along an else-if chain (from its first if, whose branches are all done by now): all braced, or none.
  if (!elseIf) {
    const branches: Array<[Node, string]> = [];
    for (let at: Node | null | undefined = n; at?.type === "IfStatement"; at = at.alternate) {
      branches.push([at, "consequent"]);
      if (at.alternate && at.alternate.type !== "IfStatement") branches.push([at, "alternate"]);
    }
    if (branches.some(([at, k]) => isBlock(fieldsOf(at)[k] as Node)))
      for (const [at, k] of branches) if (!isBlock(fieldsOf(at)[k] as Node)) brace(at, k);
  }
  return n;
}
