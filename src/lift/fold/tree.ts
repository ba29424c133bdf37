/**
 * Shared machinery of the folds: what a fold is (FoldSpec), the walk that runs several folds' rewrites
 * at once, a bottom-up rewrite that can drop statements, and the scope analysis of the code being folded
 * (kept between folds while none changes the tree).
 */
import type { Reference, Scope, Variable } from "eslint-scope";
import type { BlockStatement, VariableDeclarator } from "acorn";
import { isFunction, type FunctionNode, type Node } from "../../ast/pattern.js";
import { transform, walkTree, type Rewrite } from "../../ast/traverse.js";
import { analyzeFunction } from "./fold-undefined.js";
import { fromEstree } from "../../ast/estree-bridge.js";

/**
 * What a fold is, in the manner of webcrack's transforms: what it needs, what it must run after, and its
 * rewrite. A fold without scope needs only the node in hand and its place, so its rewrite can share a walk
 * with others (see passesOf); one that reads the scope analysis prepares from it before the walk, which
 * must then start from the tree that analysis was of: it leads its walk.
 */
export interface FoldSpec {
  /** Reads the scope analysis (variablesOf, loopHeadsOf) to prepare. */
  scope: boolean;
  /** The folds whose leftovers it folds: where both run, they come before it in a round. */
  after?: readonly string[];
  /**
   * Its rewrite of the tree as it is now, counting each change with `changed`; null when there is
   * nothing to do. It reads the tree only before the walk (a scope fold) or in its own enter and leave.
   */
  rewrite?: (root: Node, changed: (k?: number) => void) => Rewrite | null;
  /** In place of a rewrite, a fold that walks the tree its own way (several times): alone in its walk. */
  run?: (root: Node) => number;
}

/** A fold: rewrites `root` (a function) in place and returns how many changes it made; `spec` says how. */
export type Fold = ((root: Node) => number) & { spec?: FoldSpec };

/** The fold `spec` describes, runnable on its own. */
export function defineFold(spec: FoldSpec): Fold {
  const fold = spec.run ?? ((root: Node) => rewriteTogether(root, [spec])[0]!);
  return Object.assign(fold, { spec });
}

/**
 * One walk of `root` with the rewrites of `specs`, each prepared first: at each node, on the way up, each
 * rewrite in turn takes what the one before it left (one that drops the node ends the turn). How many
 * changes each made.
 */
export function rewriteTogether(root: Node, specs: readonly FoldSpec[]): number[] {
  const counts = specs.map(() => 0);
  const rewrites = specs.flatMap((spec, i) => spec.rewrite?.(root, (k = 1) => void (counts[i]! += k)) ?? []);
  if (rewrites.length > 0) transform(root, rewrites.length === 1 ? rewrites[0]! : chain(rewrites));
  return counts;
}

function chain(rewrites: Rewrite[]): Rewrite {
  const enters = rewrites.flatMap((r) => r.enter ?? []);
  const leaves = rewrites.flatMap((r) => r.leave ?? []);
  return {
    enter:
      enters.length > 0
        ? (n, at) => {
            for (const enter of enters) enter(n, at);
          }
        : undefined,
    leave: (n, at) => {
      let r: Node = n;
      for (const leave of leaves) {
        const next = leave(r, at);
        if (next === null) return null;
        r = next;
      }
      return r;
    },
  };
}

/**
 * Visit every node below `root`, children first; `visit` returns the node to put in its place, or
 * null to drop it: from a list it goes, in a single statement slot it leaves an empty statement.
 */
export function rewriteUp(root: Node, visit: (n: Node, parent: Node, key: string) => Node | null): void {
  transform(root, { leave: (n, at) => visit(n, at.parent, at.key) });
}

/**
 * Whether `n` lies below `ancestor`, by the ranges the last analysis numbered (see numberRanges): valid
 * for nodes of the variables variablesOf returned, as long as no fold has changed the tree since.
 */
export function inside(n: Node, ancestor: Node): boolean {
  return ancestor.range![0] < n.range![0] && n.range![1] < ancestor.range![1];
}

/** What the folds look up in the tree being folded: its variables, and the declarations heading loops. */
interface Analysis {
  variables: Variable[];
  heads: Set<Node>;
}

/**
 * The analysis of the tree being folded, until a fold changes it. A round of folds mostly finds nothing
 * to do, and each fold would otherwise analyse the scopes of the whole module again. Only foldFunction
 * keeps one (see keepAnalyses), so a fold run on its own always analyses the tree as it is.
 */
let kept: { root: Node; analysis: Analysis | null } | null = null;

/**
 * Keep the analysis of `root` while `run` folds it; `run` calls `changed()` after a fold that changed
 * the tree (a fold's count is its number of changes), which drops it.
 */
export function keepAnalyses<T>(root: Node, run: (changed: () => void) => T): T {
  const outer = kept;
  const own: { root: Node; analysis: Analysis | null } = { root, analysis: null };
  kept = own;
  try {
    return run(() => {
      own.analysis = null;
    });
  } finally {
    kept = outer;
  }
}

function analysisOf(fn: Node): Analysis {
  if (kept?.root === fn) return (kept.analysis ??= analyse(fn));
  return analyse(fn);
}

/** The variables declared in the code of `fn` (its free names are not among them). */
export function variablesOf(fn: Node): Variable[] {
  return analysisOf(fn).variables;
}

/** The declarations that head a for, for-in or for-of loop: written on every turn, or holding the counter. */
export function loopHeadsOf(root: Node): Set<Node> {
  return analysisOf(root).heads;
}

function analyse(fn: Node): Analysis {
  const heads = numberRanges(fn);
  const sm = analyzeFunction(fn);
  return { variables: sm.scopes.flatMap((s: Scope) => s.variables), heads };
}

/**
 * eslint-scope compares ranges to tell a parameter's default from the body. A lifted module joins
 * code from several chunks, whose offsets overlap, and folds add nodes without any: ranges are
 * renumbered in tree order, nested as the nodes are, before each analysis. The same walk finds the
 * loop heads.
 */
function numberRanges(root: Node): Set<Node> {
  const heads = new Set<Node>();
  let at = 0;
  walkTree(root, {
    enter: (n) => {
      n.range = [at++, -1];
    },
    leave: (n) => {
      n.range![1] = at++;
      if ((n.type === "ForInStatement" || n.type === "ForOfStatement") && n.left.type === "VariableDeclaration") heads.add(n.left);
      if (n.type === "ForStatement" && n.init?.type === "VariableDeclaration") heads.add(n.init);
    },
  });
  return heads;
}

export const reads = (v: Variable): Reference[] => v.references.filter((r) => r.isRead());
/** Writes other than the declaration's own initialiser. */
export const laterWrites = (v: Variable): Reference[] => v.references.filter((r) => r.isWrite() && !r.init);

/** The declarator of a variable declared once by `let`/`const`/`var x = …`, outside loop heads (`heads`, see loopHeadsOf). */
export function singleDeclarator(v: Variable, heads: Set<Node>): VariableDeclarator | null {
  if (v.defs.length !== 1 || v.defs[0]!.type !== "Variable") return null;
  const decl = fromEstree(v.defs[0]!.node) as VariableDeclarator;
  const declaration = fromEstree(v.defs[0]!.parent);
  if (decl.id?.type !== "Identifier" || !declaration || heads.has(declaration)) return null;
  return decl;
}

/** The function a binding holds for good: a function declaration, or `let f = …` declared once, and never written again. */
export function boundFunction(v: Variable, heads: Set<Node>): FunctionNode | null {
  if (laterWrites(v).length > 0 || v.defs.length !== 1) return null;
  const def = v.defs[0]!;
  const fn = def.type === "FunctionName" ? fromEstree(def.node) : singleDeclarator(v, heads)?.init;
  return fn && isFunction(fn) ? fn : null;
}

/** The expression a function returns when returning it is all it does (`(x) => e`, `function () { return e; }`). */
export function soleReturn(fn: FunctionNode): Node | null {
  if (fn.expression) return fn.body;
  const body: Node[] = (fn.body as BlockStatement).body;
  return body.length === 1 && body[0]!.type === "ReturnStatement" ? (body[0].argument ?? null) : null;
}
