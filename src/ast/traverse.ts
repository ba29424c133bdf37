/**
 * The one walk that rewrites a tree, on estree-walker: a visitor's `enter` sees each node on the way down,
 * its `leave` on the way back up, children done, and says what takes the node's place. The folds (and
 * whatever else rewrites ESTree in place) share it instead of each walking the fields by hand.
 */
import type { Node as EstreeNode } from "estree";
import { walk } from "estree-walker";
import type { Node } from "./pattern.js";
import { fromEstree, toEstree } from "./estree-bridge.js";

/** Where a node stands: its parent, the parent's field, and its index when that field is a list (else null). */
export interface Place {
  parent: Node;
  key: string;
  index: number | null;
}

/**
 * A rewrite: `enter` on the way down (for what a node's place tells its children), `leave` on the way up,
 * returning the node to put in its place (itself to keep it), or null to drop it: from a list it goes, in a
 * single slot it leaves an empty statement. The root is entered but never left: it stays.
 */
export interface Rewrite {
  enter?: (n: Node, at: Place | null) => void;
  leave?: (n: Node, at: Place) => Node | null;
}

type Key = string | number | symbol | null | undefined;

const placeOf = (parent: EstreeNode | null, key: Key, index: number | null | undefined): Place | null =>
  parent ? { parent: fromEstree(parent), key: key as string, index: index ?? null } : null;

/** Run `rewrite` over the tree below `root`, in place. */
export function transform(root: Node, rewrite: Rewrite): void {
  const { enter, leave } = rewrite;
  walk(toEstree(root), {
    enter: enter && ((node, parent, key, index) => enter(fromEstree(node), placeOf(parent, key, index))),
    leave:
      leave &&
      function (node, parent, key, index) {
        const at = placeOf(parent, key, index);
        if (!at) return;
        const n = fromEstree(node);
        const r = leave(n, at);
        if (r === n) return;
        if (r !== null) this.replace(toEstree(r));
        else if (at.index !== null) this.remove();
        else this.replace(toEstree({ type: "EmptyStatement", start: n.start, end: n.end }));
      },
  });
}

/** A walk that only reads: every node, `root` included, entered on the way down and left on the way up. */
export interface Visitor {
  enter?: (n: Node, at: Place | null) => void;
  leave?: (n: Node, at: Place | null) => void;
}

/** Run `visitor` over `root` and every node below it. */
export function walkTree(root: Node, visitor: Visitor): void {
  const { enter, leave } = visitor;
  walk(toEstree(root), {
    enter: enter && ((node, parent, key, index) => enter(fromEstree(node), placeOf(parent, key, index))),
    leave: leave && ((node, parent, key, index) => leave(fromEstree(node), placeOf(parent, key, index))),
  });
}
