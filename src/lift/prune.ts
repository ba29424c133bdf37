/**
 * Taking statements out of a tree, and the questions that decide it: the names a function declares, whether a
 * local function is used beyond its declaration or only for its effects, and ifs left with nothing to do.
 */
import type { FunctionDeclaration } from "acorn";
import { fieldsOf, isFunction, isNodeList, walk, type Node } from "../ast/pattern.js";
import { addBindingNames } from "./binding-names.js";

/** Names declared anywhere inside a function (parameters, variables, functions, classes, catch). */
export function declaredNames(fn: Node): Set<string> {
  const out = new Set<string>();
  const bind = (p: Node | null | undefined) => addBindingNames(p, out);
  walk(fn, (n) => {
    if (n.type === "VariableDeclarator") bind(n.id);
    if ((n.type === "FunctionDeclaration" || n.type === "ClassDeclaration") && n.id) out.add(n.id.name);
    if (isFunction(n)) n.params.forEach(bind);
    if (n.type === "CatchClause") bind(n.param);
  });
  return out;
}

/** Whether `name` is mentioned in `body` anywhere but its own declaration. */
export function usedOutside(name: string, decl: FunctionDeclaration, body: Node): boolean {
  let used = false;
  walk(body, (n) => {
    if (n.type === "Identifier" && n.name === name && n !== decl.id) used = true;
  });
  return used;
}

/**
 * A local function whose work nobody reads: it returns nothing, assigns nothing outside itself,
 * and every call of it stands as a statement or a discarded element of a sequence.
 */
export function effectOnly(decl: FunctionDeclaration, body: Node): boolean {
  let returns = false;
  const own = declaredNames(decl);
  let assignsOut = false;
  walk(decl.body, (n) => {
    if (n.type === "ReturnStatement" && n.argument) returns = true;
    const target = n.type === "AssignmentExpression" ? n.left : n.type === "UpdateExpression" ? n.argument : null;
    if (target && !(target.type === "Identifier" && own.has(target.name))) assignsOut = true;
  });
  if (returns || assignsOut) return false;
  const name = decl.id.name;
  let calls = 0;
  let discarded = 0;
  walk(body, (n) => {
    if (n.type === "CallExpression" && n.callee.type === "Identifier" && n.callee.name === name) calls++;
    const expressions = n.type === "ExpressionStatement" ? [n.expression] : [];
    for (const e of expressions) {
      const parts = e.type === "SequenceExpression" ? e.expressions : [e];
      for (const p of parts) if (p.type === "CallExpression" && p.callee.type === "Identifier" && p.callee.name === name) discarded++;
    }
    if (n.type === "SequenceExpression") {
      for (const p of n.expressions.slice(0, -1))
        if (p.type === "CallExpression" && p.callee.type === "Identifier" && p.callee.name === name) discarded++;
    }
  });
  return calls > 0 && calls <= discarded;
}

/** `if (x.length > 0) ; else ;` left behind by a cut: gone when the test itself does nothing. */
export function pruneEmptyIfs(root: Node): void {
  const empty = (s: Node | null | undefined) => !s || s.type === "EmptyStatement" || (s.type === "BlockStatement" && s.body.length === 0);
  const pure = (e: Node) => {
    let ok = true;
    walk(e, (n) => {
      if (
        /^(Call|New|Assignment|Update|Await|Yield|TaggedTemplate)Expression$/.test(n.type) ||
        (n.type === "UnaryExpression" && n.operator === "delete")
      )
        ok = false;
    });
    return ok;
  };
  removeStatementsWhere(root, (s) => s.type === "IfStatement" && empty(s.consequent) && empty(s.alternate) && pure(s.test));
}

/** Remove, from every statement list under root, the statements `drop` picks. */
export function removeStatementsWhere(root: Node, drop: (s: Node) => boolean): void {
  walk(root, (n) => {
    for (const key of ["body", "consequent"]) {
      const list = fieldsOf(n)[key];
      if (!isNodeList(list)) continue;
      for (let i = list.length - 1; i >= 0; i--) {
        const s = list[i];
        if (s && drop(s)) list.splice(i, 1);
      }
    }
  });
}

export function removeStatement(body: Node, target: Node): void {
  walk(body, (n) => {
    for (const key of ["body", "consequent"]) {
      const list = fieldsOf(n)[key];
      if (Array.isArray(list)) {
        const i = list.indexOf(target);
        if (i >= 0) list.splice(i, 1);
      }
    }
  });
}
