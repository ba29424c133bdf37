/**
 * Which tool fields a lift passes through (tool-fields.ts finds the ones a routine reads): the contract's and the
 * adapter's own, a name's problems (one the adapter cannot write by dot, an inherited member, a name the safety
 * check forbids or under which built-ins hold functions), how reports show a long one, and the chosen set with
 * the properties read inside each, bounded.
 */
import { BUILTIN_MEMBER_NAMES, FORBIDDEN_PROPERTY_SET } from "../../lift/property-names.js";
import { CONTRACT_INNER_FIELDS } from "./field-values.js";

/** The fields the contract names (docs/scorer-module-contract.md, Tool). */
const CONTRACT_TOOL_FIELDS: readonly string[] = ["name", "description", "searchHint", "isMcp", "mcpInfo", "aliases"];

/** What the adapter itself sets on the release's tool object (`prompt()` serves the description). */
const ADAPTER_TOOL_FIELDS: readonly string[] = ["prompt"];

const KNOWN = new Set([...CONTRACT_TOOL_FIELDS, ...ADAPTER_TOOL_FIELDS]);

/** At most this many properties are listed inside one field (passed or the contract's). */
const MAX_INNER = 8;

/** At most this many new fields are passed through; more are reported and not passed. */
export const MAX_TOOL_FIELDS = 16;

/** A field name the adapter writes by dot: a letter, then letters and digits, at most 64 characters. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/** Names every object has through Object.prototype (an absent field would read the inherited member). */
const OBJECT_PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Why a field name is not passed through, or null when it may be. */
export function fieldNameProblem(name: string): string | null {
  if (!FIELD_NAME.test(name)) return "not a plain name (a letter, then letters and digits, at most 64 characters)";
  if (OBJECT_PROTOTYPE_NAMES.has(name)) return "a member of Object.prototype";
  if (FORBIDDEN_PROPERTY_SET.has(name)) return "a name the safety check forbids";
  if (BUILTIN_MEMBER_NAMES.has(name)) return "a name under which built-ins hold functions";
  return null;
}

/** A name as reports show it: at most 40 characters, the length said when it is cut. */
function shownFieldName(name: string): string {
  return name.length <= 40 ? name : `${name.slice(0, 40)}… (${name.length} characters)`;
}

export interface ToolFields {
  /** New fields passed through to the release, sorted. */
  passed: string[];
  /** Properties the release reads inside a passed field (`tool.annotations.category`): `annotations.category`, for
   *  the corpus to give such fields objects holding them. Sorted. */
  inner: string[];
  /** Properties the release reads inside a field the contract names, that the contract does not name inside it
   *  (`mcpInfo.nameKey`): they reach the release with the field, which is passed as given. Sorted. */
  within: string[];
  /** New fields read but not passed, with the reason (names cut for reports: shownFieldName). */
  refused: Array<{ name: string; why: string }>;
}

/** The new fields among those read: passed (acceptable names, at most MAX_TOOL_FIELDS) or refused, with why; the
 *  properties read inside those passed (`inner`: [field, property] pairs; acceptable names, at most MAX_INNER each);
 *  and those read inside a contract field that it does not name there (`within`, the same bounds). */
export function selectToolFields(read: Iterable<string>, inner: Iterable<readonly [string, string]> = []): ToolFields {
  const out: ToolFields = { passed: [], inner: [], within: [], refused: [] };
  const names = [...new Set(read)].filter((n) => !KNOWN.has(n)).sort();
  for (const name of names) {
    const problem = fieldNameProblem(name);
    if (problem) out.refused.push({ name: shownFieldName(name), why: problem });
    else if (out.passed.length >= MAX_TOOL_FIELDS) out.refused.push({ name, why: `more than ${MAX_TOOL_FIELDS} new fields` });
    else out.passed.push(name);
  }
  const counts = new Map<string, number>();
  const [paths, within] = [new Set<string>(), new Set<string>()];
  for (const [field, property] of inner) {
    const named = Object.hasOwn(CONTRACT_INNER_FIELDS, field) ? CONTRACT_INNER_FIELDS[field]! : null;
    const to = out.passed.includes(field) ? paths : named !== null && !named.includes(property) ? within : null;
    if (to === null || fieldNameProblem(property) !== null) continue;
    const path = `${field}.${property}`;
    if (to.has(path) || (counts.get(field) ?? 0) >= MAX_INNER) continue;
    to.add(path);
    counts.set(field, (counts.get(field) ?? 0) + 1);
  }
  out.inner = [...paths].sort();
  out.within = [...within].sort();
  return out;
}
