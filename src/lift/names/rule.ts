import type { Binding, NameContext } from "./context.js";

/** A naming rule: a name for the binding from one kind of evidence, or null when that evidence is missing. */
export type Rule = (b: Binding, ctx: NameContext) => string | null;
