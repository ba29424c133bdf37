/**
 * Names bound around a located routine: the parameters and declarations of the functions and
 * blocks that enclose it within its module-level statement (`create(context) { return { call() {…} } }`).
 * Such a name is never module-level, so it must not be looked up as one — a search for a one-letter
 * name across a six-megabyte chunk costs as much as the rest of the lift, and could find another `e`.
 */
import type { Container, ModuleEntry } from "../extract/types.js";
import { sharedModuleText } from "../locate/partial-parse.js";
import { fieldsOf, isFunction, isNode, isNodeList, type Node } from "../ast/pattern.js";
import { addBindingNames } from "./binding-names.js";

export function enclosingBindings(container: Container, module: ModuleEntry, target: Node): Set<string> {
  const out = new Set<string>();
  const { parser } = sharedModuleText(container, module);
  const statements = parser.statementsCovering(target.start, target.end) ?? [];
  const bind = (p: Node | null | undefined) => addBindingNames(p, out);
  const declareIn = (body: Node[]) => {
    for (const s of body) {
      if ((s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") && s.id) out.add(s.id.name);
      if (s.type === "VariableDeclaration") s.declarations.forEach((d) => bind(d.id));
    }
  };
  // Down from the statement to the target, through the nodes that contain it.
  const descend = (n: Node) => {
    if (n === target || (n.start === target.start && n.end === target.end && n.type === target.type)) return;
    if (isFunction(n)) n.params.forEach(bind);
    if (n.type === "FunctionExpression" && n.id) out.add(n.id.name);
    if (n.type === "BlockStatement" || n.type === "StaticBlock") declareIn(n.body);
    if (n.type === "CatchClause") bind(n.param);
    const loopHead = n.type === "ForStatement" ? n.init : n.type === "ForInStatement" || n.type === "ForOfStatement" ? n.left : null;
    if (loopHead?.type === "VariableDeclaration") declareIn([loopHead]);
    const fields = fieldsOf(n);
    for (const key of Object.keys(fields)) {
      const v = fields[key];
      const children = isNodeList(v) ? v : [v];
      for (const c of children) {
        if (isNode(c) && c.start <= target.start && c.end >= target.end) descend(c);
      }
    }
  };
  for (const s of statements) if (s.start <= target.start && s.end >= target.end) descend(s);
  return out;
}
