/**
 * Braces where a person would write them: a loop or if whose body is itself an if, a loop, a switch
 * or a try, and both branches of an if/else once either has a block.
 *
 *   for (let w of words) if (w[0] === "+") req.push(w); else opt.push(w);
 *     →   for (let w of words) {
 *           if (w[0] === "+") req.push(w);
 *           else opt.push(w);
 *         }
 *   if (a) { b(); c(); } else d();   →   if (a) { b(); c(); } else { d(); }
 *
 * An else-if chain stays a chain. This also keeps every else with its own if when printed (a
 * printer does not brace `if (x) for (…) if (y) a(); else b();` by itself).
 */
import type { Node } from "../../ast/pattern.js";
import { fieldsOf } from "../../ast/pattern.js";
import { blockOf } from "./statement-lists.js";
import { rewriteUp, type Fold } from "./tree.js";

const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const COMPOUND = new Set([...LOOPS, "IfStatement", "SwitchStatement", "TryStatement", "LabeledStatement", "WithStatement"]);

const isBlock = (s: Node | null | undefined): boolean => s?.type === "BlockStatement";

export const compoundBodies: Fold = (root) => {
  let count = 0;
  const brace = (n: Node, key: string) => {
    const s = fieldsOf(n)[key] as Node;
    fieldsOf(n)[key] = blockOf([s], s);
    count++;
  };
  rewriteUp(root, (n) => {
    if (LOOPS.has(n.type) && COMPOUND.has((fieldsOf(n).body as Node).type)) brace(n, "body");
    if (n.type !== "IfStatement") return n;
    if (COMPOUND.has(n.consequent.type)) brace(n, "consequent");
    const alt = n.alternate;
    if (!alt) return n;
    if (alt.type !== "IfStatement" && (COMPOUND.has(alt.type) || (!isBlock(alt) && isBlock(n.consequent)))) brace(n, "alternate");
    if (!isBlock(n.consequent) && isBlock(n.alternate)) brace(n, "consequent");
    return n;
  });
  return count;
};
