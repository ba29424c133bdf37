/**
 * The one place where acorn's node types meet estree's. acorn builds ESTree-conformant objects, and
 * estree-walker and eslint-scope walk and hand back those very objects, typed with `@types/estree`;
 * the two declaration sets describe the same shapes but differ in detail (acorn adds `start`/`end`,
 * estree marks optional fields differently), so TypeScript sees no overlap. Each bridge holds the
 * single cast, so the rest of src/ stays cast-free at these boundaries.
 */

import type { AnyNode, Identifier } from "acorn";
import type { Reference } from "eslint-scope";
import type { Node as EstreeNode } from "estree";

/** What estree-walker and eslint-scope hand back: an estree node or a reference's identifier. */
type Foreign = EstreeNode | Reference["identifier"];

/** An acorn node as estree-walker expects it: the same object, typed the estree way. */
export const toEstree = (n: AnyNode): EstreeNode => n as unknown as EstreeNode;

/** A node from estree-walker or eslint-scope back in acorn's types: it is one acorn parsed. */
export function fromEstree(n: Foreign): AnyNode;
export function fromEstree(n: Foreign | null): AnyNode | null;
export function fromEstree(n: Foreign | undefined): AnyNode | undefined;
export function fromEstree(n: Foreign | null | undefined): AnyNode | null | undefined;
export function fromEstree(n: Foreign | null | undefined): AnyNode | null | undefined {
  return n as unknown as AnyNode | null | undefined;
}

/**
 * An eslint-scope identifier as acorn's Identifier. eslint-scope types references as possibly
 * JSXIdentifier, but acorn parses no JSX here, so every one is a plain Identifier.
 */
export const acornIdentifier = (id: Reference["identifier"]): Identifier => id as unknown as Identifier;
