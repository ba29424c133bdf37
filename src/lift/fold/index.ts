/**
 * Dead code the ports' cuts leave in a lifted module, folded away (one fold per file, in the manner
 * of webcrack's transforms). Each fold makes work for the others — a constant test empties a branch,
 * which leaves a binding unread, whose initialiser was the only call of a function — so they run in
 * turn until none changes anything. IDIOM_FOLDS write what the minifier left as a person would (one
 * binding per declaration, `undefined`, if statements for `a && b()`, no else after a return), once names
 * are chosen. Each fold declares whether it reads the scope analysis and what it must run after; a round
 * walks the tree once per fold that does (and once per fold that walks its own way), the folds without
 * scope sharing the walk before them (passesOf). The order below is the one the lifts were made with: a
 * fold without scope placed right after one with scope adds no walk.
 */
import type { BlockStatement } from "acorn";
import type { Node } from "../../ast/pattern.js";
import { awaitConstants } from "./await-constants.js";
import { constantBindings } from "./constant-bindings.js";
import { constantConditions } from "./constant-conditions.js";
import { copyBindings } from "./copy-bindings.js";
import { emptyStatements } from "./empty-statements.js";
import { equalBranches } from "./equal-branches.js";
import { freshArrayLength } from "./fresh-array-length.js";
import { sequenceStatements } from "./sequence-statements.js";
import { stackTraceHooks } from "./stack-trace-hooks.js";
import { keepAnalyses, rewriteTogether, type Fold, type FoldSpec } from "./tree.js";
import { constantCalls } from "./constant-calls.js";
import { identityCalls } from "./identity-calls.js";
import { forwardingCalls } from "./forwarding-calls.js";
import { minifiedBooleans } from "./minified-booleans.js";
import { unusedBindings } from "./unused-bindings.js";
import { unusedFunctions } from "./unused-functions.js";
import { unusedParameters } from "./unused-parameters.js";
import { duplicateFunctions } from "./duplicate-functions.js";
import { singleDeclarations } from "./single-declarations.js";
import { undefinedValues } from "./undefined-values.js";
import { controlExpressions } from "./control-expressions.js";
import { sequenceHeads } from "./sequence-heads.js";
import { elseAfterExit } from "./else-after-exit.js";
import { compoundBodies } from "./compound-bodies.js";
import { freshObjectReads } from "./fresh-object-reads.js";
import { effectFreeCalls } from "./effect-free-calls.js";
import { emptyStateCalls, type EmptyStateArguments } from "./empty-state-calls.js";
import { effectFreeStatements } from "./effect-free-statements.js";

/** The folds that remove what the ports' cuts left dead; the namer reads the code as they leave it. */
export const DEAD_CODE_FOLDS: Record<string, Fold> = {
  stackTraceHooks,
  minifiedBooleans,
  constantBindings,
  constantConditions,
  equalBranches,
  constantCalls,
  freshArrayLength,
  identityCalls,
  forwardingCalls,
  copyBindings,
  awaitConstants,
  emptyStatements,
  sequenceStatements,
  unusedBindings,
  unusedFunctions,
  unusedParameters,
  duplicateFunctions,
};

/**
 * The folds that write the minifier's idioms as a person would (issue 44). They run once names are chosen
 * (foldIdioms): curated names are keyed by the shape of the code the dead-code folds leave, which these
 * would change.
 */
export const IDIOM_FOLDS: Record<string, Fold> = {
  freshObjectReads,
  effectFreeCalls,
  undefinedValues,
  singleDeclarations,
  controlExpressions,
  sequenceHeads,
  elseAfterExit,
  compoundBodies,
};

export const FOLDS: Record<string, Fold> = { ...DEAD_CODE_FOLDS, ...IDIOM_FOLDS };

/** Rounds before giving up on a fixpoint: each round removes code, so real modules settle in a few. */
const MAX_ROUNDS = 50;

/** One walk of a round: the folds that share it, by name, and the run that gives each one's changes. */
interface Pass {
  names: string[];
  run: (root: Node) => number[];
}

/**
 * The walks a round of `folds` takes, in their order: a fold without scope joins the walk before it (its
 * rewrite runs after theirs at each node); one with scope starts a walk, prepared from the analysis of the
 * tree as that walk finds it; one that walks its own way (or is no more than a function) walks alone.
 * Each fold must come after the folds it is declared to run after.
 */
export function passesOf(folds: Record<string, Fold>): Pass[] {
  const passes: Array<Pass & { specs: FoldSpec[] | null }> = [];
  const seen = new Set<string>();
  for (const [name, fold] of Object.entries(folds)) {
    const spec = fold.spec;
    const late = spec?.after?.find((a) => a in folds && !seen.has(a));
    if (late) throw new Error(`fold ${name} must run after ${late}`);
    seen.add(name);
    const last = passes.at(-1);
    if (spec?.rewrite && !spec.scope && last?.specs) {
      last.names.push(name);
      last.specs.push(spec);
    } else if (spec?.rewrite) {
      const specs = [spec];
      passes.push({ names: [name], specs, run: (root) => rewriteTogether(root, specs) });
    } else passes.push({ names: [name], specs: null, run: (root) => [fold(root)] });
  }
  return passes;
}

/**
 * Run the folds over `fn` (a function node) in place, in turn, until none changes anything; how often each
 * fired. The turns stop as soon as every walk has run once since the last change: a fold finds the same
 * nothing in a tree it has already searched.
 */
export function foldFunction(fn: Node, folds: Record<string, Fold> = FOLDS): Record<string, number> {
  const passes = passesOf(folds);
  const fired: Record<string, number> = Object.fromEntries(Object.keys(folds).map((k) => [k, 0]));
  return keepAnalyses(fn, (treeChanged) => {
    // Walks in a row that changed nothing.
    let quiet = 0;
    for (let turn = 0; quiet < passes.length; turn++) {
      // A fold that keeps reporting changes rewrites without removing: a bug, not a module to fold.
      if (turn === MAX_ROUNDS * passes.length) throw new Error(`dead-code folding did not settle in ${MAX_ROUNDS} rounds`);
      const pass = passes[turn % passes.length]!;
      const counts = pass.run(fn);
      pass.names.forEach((name, i) => (fired[name]! += counts[i]!));
      if (counts.some((n) => n > 0)) {
        treeChanged();
        quiet = 0;
      } else quiet++;
    }
    return fired;
  });
}

/**
 * Fold a module body: the statements of one scope (the lifted factory), where the names in `used`
 * are read from outside (the roots the adapter calls) and so are never unused. `params` are the
 * names the scope receives. The list is changed in place.
 */
export function foldDeadCode(
  statements: Node[],
  used: string[],
  params: string[] = [],
  folds: Record<string, Fold> = DEAD_CODE_FOLDS,
): Record<string, number> {
  const id = (name: string): Node => ({ type: "Identifier", name, start: -1, end: -1 });
  const uses = {
    type: "ReturnStatement",
    argument: { type: "ArrayExpression", elements: used.map(id), start: -1, end: -1 },
    start: -1,
    end: -1,
  } as Node;
  const body = { type: "BlockStatement", body: [...statements, uses], start: -1, end: -1 } as BlockStatement;
  const fn = {
    type: "FunctionExpression",
    id: null,
    params: params.map(id),
    body,
    generator: false,
    async: false,
    expression: false,
    start: -1,
    end: -1,
  } as Node;
  const fired = foldFunction(fn, folds);
  const folded: Node[] = body.body;
  if (folded.at(-1) !== uses) throw new Error("dead-code folding lost the module's uses");
  statements.splice(0, statements.length, ...folded.slice(0, -1));
  return fired;
}

/**
 * The minifier's idioms in a module body written as a person would, with the dead-code folds again for what
 * that uncovers (`let t = (g(), a); return t;` is `g(); return a;`): as foldDeadCode, with every fold, and
 * with the calls of what the adapter fills with the empty state dropped where `emptyState` says where that is, and
 * the statements that provably do nothing (reads of the length of arrays, some of them the adapter's).
 */
export function foldIdioms(
  statements: Node[],
  used: string[],
  params: string[] = [],
  emptyState: EmptyStateArguments | null = null,
): Record<string, number> {
  return foldDeadCode(statements, used, params, {
    ...FOLDS,
    emptyStateCalls: emptyStateCalls(emptyState),
    effectFreeStatements: effectFreeStatements(emptyState),
  });
}
