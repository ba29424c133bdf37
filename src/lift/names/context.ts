/**
 * What the naming rules see of a binding and of the program around it: where the binding is made
 * (initializer, parameter position, loop), where it is used (parents of its references), and the
 * names already chosen for other bindings, so that a rule can build on them (`lowerQuery` from `query`).
 */
import type { Scope, Variable } from "eslint-scope";
import type { Identifier, VariableDeclarator } from "acorn";
import { fieldsOf, isNodeList, isNode, type FunctionNode, type Node } from "../../ast/pattern.js";
import { isPlaceholderName } from "./words.js";
import { acornIdentifier, fromEstree } from "../../ast/estree-bridge.js";

export type BindingKind = "parameter" | "variable" | "function" | "class" | "catch";

export interface Binding {
  variable: Variable;
  /** The name the binding has before naming (minified, or a hash-tagged helper name). */
  original: string;
  /** Its first identifier (the declaration). */
  id: Identifier;
  kind: BindingKind;
  /** Initializer of a `let x = …`, the collection of a `for (x of …)`, the declaration of a function or class. */
  init: Node | null;
  /** Whether `init` is what a for-of loop iterates (the binding is an element of it). */
  iterates: boolean;
  /** The function a parameter belongs to, and its position there. */
  fn: FunctionNode | null;
  index: number;
  /** Every identifier that refers to the binding, its declaration excluded. */
  uses: Identifier[];
  /** A module-level definition (helper or constant) rather than a local. */
  topLevel: boolean;
  /** The top-level statement that holds the binding. */
  statement: Node;
}

export class NameContext {
  readonly parents = new Map<Node, Node>();
  readonly byIdentifier = new Map<Node, Binding>();
  readonly chosen = new Map<Binding, string>();
  /** Module-level bindings by the function node they declare (for parameter names at call sites). */
  readonly byFunction = new Map<Node, Binding>();

  readonly bindings: Binding[] = [];
  /**
   * Set for one last round of the rules, once they have named all they could: a rule may then give the
   * weaker name it held back while the names it would build on were still unknown.
   */
  lastResort = false;
  /** Whether `name` is already held where `b` could meet it (set by the namer, which hands names out). */
  clashes: (name: string, b: Binding) => boolean = () => false;

  constructor(readonly program: Node) {
    recordParents(program, this.parents);
  }

  addBindings(bindings: Binding[]): void {
    for (const b of bindings) {
      this.bindings.push(b);
      this.byIdentifier.set(b.id, b);
      for (const u of b.uses) this.byIdentifier.set(u, b);
      if (b.kind === "function" && b.init) this.byFunction.set(b.init, b);
      const fnInit = b.kind === "variable" && b.init && isFunction(b.init) && !b.iterates ? b.init : null;
      if (fnInit) this.byFunction.set(fnInit, b);
    }
  }

  parent(n: Node): Node | undefined {
    return this.parents.get(n);
  }

  /** The chosen name of what an expression refers to, or what it reads (`tool.name` → name); null while unknown. */
  nameOf(n: Node | null | undefined): string | null {
    if (!n) return null;
    if (n.type === "ChainExpression" || n.type === "AwaitExpression")
      return this.nameOf(n.type === "ChainExpression" ? n.expression : n.argument);
    if (n.type === "MemberExpression" && !n.computed && n.property.type === "Identifier") return n.property.name;
    if (n.type !== "Identifier") return null;
    const b = this.byIdentifier.get(n);
    // A numbered name's word is what names built on it need (`items2` → item, not items2Item).
    if (b) return this.chosen.get(b)?.replace(/(?<=[a-z])\d+$/, "") ?? null;
    return isPlaceholderName(n.name) ? null : n.name;
  }

  /** The binding a callee or reference resolves to (module-level helpers and locals alike). */
  bindingOf(n: Node | null | undefined): Binding | undefined {
    return n?.type === "Identifier" ? this.byIdentifier.get(n) : undefined;
  }
}

export function isFunction(n: Node | null | undefined): n is FunctionNode {
  return !!n && (n.type === "FunctionExpression" || n.type === "ArrowFunctionExpression" || n.type === "FunctionDeclaration");
}

export function recordParents(root: Node, parents: Map<Node, Node>): void {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    const fields = fieldsOf(n);
    for (const k of Object.keys(fields)) {
      if (k === "range" || k === "loc") continue;
      const v = fields[k];
      if (isNodeList(v)) {
        for (const c of v) {
          if (!c || typeof c.type !== "string") continue;
          parents.set(c, n);
          stack.push(c);
        }
      } else if (isNode(v)) {
        parents.set(v, n);
        stack.push(v);
      }
    }
  }
}

/** The bindings of every scope of the program but the global one, in a fixed order. */
export function collectBindings(
  scopes: Scope[],
  parents: Map<Node, Node>,
  statementOf: (n: Node) => Node,
  moduleScope: Scope | undefined,
): Binding[] {
  const out: Binding[] = [];
  for (const scope of scopes) {
    if (scope.type === "global") continue;
    for (const v of scope.variables) {
      if (v.identifiers.length === 0 || v.defs.length === 0) continue;
      const def = v.defs[0]!;
      const id = acornIdentifier(v.identifiers[0]!);
      const ids = new Set(v.identifiers.map(acornIdentifier));
      const uses = v.references.map((r) => acornIdentifier(r.identifier)).filter((n) => !ids.has(n));
      const node = fromEstree(def.node);
      const declaration = fromEstree(def.parent);
      const parent = declaration ? parents.get(declaration) : undefined;
      const b: Binding = {
        variable: v,
        original: v.name,
        id,
        kind: "variable",
        init: null,
        iterates: false,
        fn: null,
        index: -1,
        uses,
        topLevel: scope === moduleScope,
        statement: statementOf(id),
      };
      if (def.type === "Parameter") {
        b.kind = "parameter";
        b.fn = node as FunctionNode;
        b.index = (node as FunctionNode).params.findIndex((p: Node) => p.start <= id.start && id.end <= p.end);
      } else if (def.type === "FunctionName") {
        b.kind = "function";
        b.init = node;
      } else if (def.type === "ClassName") {
        b.kind = "class";
        b.init = node;
      } else if (def.type === "CatchClause") {
        b.kind = "catch";
      } else if (def.type === "Variable") {
        const holder =
          parent && (parent.type === "ForOfStatement" || parent.type === "ForInStatement") && parent.left === declaration ? parent : null;
        if ((node as VariableDeclarator).id === id) b.init = holder ? holder.right : ((node as VariableDeclarator).init ?? null);
        b.iterates = !!holder && holder.type === "ForOfStatement" && (node as VariableDeclarator).id === id;
      }
      out.push(b);
    }
  }
  return out;
}
