/**
 * How a routine differs from the shapes the signature knows: for a routine found by a linked
 * variant, the known variant that shares most of its parts and the parts it no longer has; for an
 * absent routine, the code that came closest, so that "absent" says what was looked for and where
 * it nearly was.
 */
import type { ModuleEntry } from "../extract/types.js";
import { lineColumn } from "../ast/parse-module.js";
import { findAll, type Bindings, type Node } from "../ast/pattern.js";
import { markerBytes, type Signature, type Variant } from "./signature.js";

export interface ChangedParts {
  /** The known variant with the largest share of its parts in the routine. */
  variant: string;
  /** That variant's `has` patterns that no longer match anywhere in the routine. */
  missing: string[];
}

export interface Closest extends ChangedParts {
  module: string;
  line: number;
  column: number;
  /** How many of the variant's parts matched, of how many. */
  matched: number;
  of: number;
}

/** Functions compared at most for "absent": the first ones in program order, so the answer is the same on every run. */
const MAX_COMPARED = 400;

/** The known (unlinked) variant closest to `node`, and the parts of it that `node` lacks. */
export function changedParts(sig: Signature, text: string, node: Node): ChangedParts | undefined {
  const best = closestVariant(sig, text, node);
  return best && { variant: best.variant.name, missing: best.missing };
}

/**
 * A linked match's bindings, completed from the closest known variant: its parts that still match (together
 * where they can, else alone) bind the same metavariables, so that roles keep the names the known variant
 * gives them (`terms`, `term`, `score`) and a new shape does not rename the whole routine.
 */
export function borrowedBindings(sig: Signature, variant: string, node: Node, own: Bindings): Bindings {
  const v = sig.variants.find((x) => x.name === variant);
  if (!v) return own;
  let env: Bindings = new Map(own);
  for (const p of v.has) {
    const together = findAll(node, p, env)[0];
    if (together) {
      env = together.bindings;
      continue;
    }
    const alone = findAll(node, p, new Map(own))[0];
    if (!alone) continue;
    for (const [k, b] of alone.bindings) if (!env.has(k)) env.set(k, b);
  }
  return env;
}

/** Of the functions a linked variant's anchor accepted, the one closest to a known variant. */
export function nearest(
  sig: Signature,
  anchored: Array<{ module: ModuleEntry; text: string; match: { node: Node } }>,
): Closest | undefined {
  let best: (Closest & { share: number }) | undefined;
  for (const f of anchored.slice(0, MAX_COMPARED)) {
    const near = closestVariant(sig, f.text, f.match.node);
    if (!near || near.matched === 0) continue;
    const share = near.matched / near.of;
    if (best && share <= best.share) continue;
    const { line, column } = lineColumn(f.text, f.match.node.start);
    best = {
      variant: near.variant.name,
      missing: near.missing,
      module: f.module.path,
      line,
      column,
      matched: near.matched,
      of: near.of,
      share,
    };
  }
  if (!best) return undefined;
  const { share: _share, ...closest } = best;
  return closest;
}

interface Nearness {
  variant: Variant;
  matched: number;
  of: number;
  missing: string[];
  /** How many of the variant's own markers the routine's text holds: the tie-break between equal shares. */
  markers: number;
}

/** The variant with the largest share of its `has` patterns in `node`; of equal shares, the one whose markers it holds. */
function closestVariant(sig: Signature, text: string, node: Node): Nearness | undefined {
  const source = text.slice(node.start, node.end);
  let best: Nearness | undefined;
  for (const v of sig.variants) {
    if (v.linked || v.has.length === 0) continue;
    const missing = missingParts(v, node);
    const matched = v.has.length - missing.length;
    const markers = v.markers.filter((m) => source.includes(markerBytes(m))).length - v.markers.length;
    const near = { variant: v, matched, of: v.has.length, missing, markers };
    if (!best || closer(near, best)) best = near;
  }
  return best;
}

/**
 * The variant's parts not found in `node`. Each part is looked for alone; when every one is found so,
 * they are looked for together (the bindings of one carried to the next, as matching does), and the
 * first that then fails is the one that changed: `await $S($Q, …)` where `$Q` is no longer the query.
 */
function missingParts(v: Variant, node: Node): string[] {
  const source = (i: number) => v.hasSource[i] ?? v.has[i]!.source;
  const alone = v.has.flatMap((p, i) => (findAll(node, p).length ? [] : [source(i)]));
  if (alone.length) return alone;
  let env: Bindings = new Map();
  for (const [i, p] of v.has.entries()) {
    const m = findAll(node, p, env)[0];
    if (!m) return [source(i)];
    env = m.bindings;
  }
  return [];
}

function closer(a: Nearness, b: Nearness): boolean {
  const share = a.matched * b.of - b.matched * a.of;
  return share > 0 || (share === 0 && a.markers > b.markers);
}
