/**
 * Signatures: declarative descriptions of one routine each, stored as JSON under signatures/.
 *
 * {
 *   "id": "tool-search/scorer",
 *   "summary": "…",
 *   "markers": [ { "regex": "/^select:(.+)$/i", "max": 4 }, { "property": "score" }, … ],
 *   "variants": [ { "name": "…", "anchor": ["async function $F($Q, $$$) { $$$ }"], "has": ["…"], "not": ["…"],
 *                   "markers": [ … ] } ],
 *   "roles": { "Q": "query", … },
 *   "tests": { "match": [ { "code": "…", "variant": "…", "roles": { "query": "q" } } ], "noMatch": [ "…" ] }
 * }
 *
 * Markers are a byte-level prefilter: a module is parsed only if it holds every marker (of the
 * signature and of the variant). `max` bounds how often a marker may occur in the whole program.
 * A variant matches a node when one `anchor` matches it, every `has` pattern matches somewhere
 * inside it (bindings shared, in order), and no `not` pattern does. Variants are tried in order.
 *
 * A variant with `linked` is the routine's last resort, for code whose statements no other variant
 * knows: its patterns are loose, so a node it accepts counts only when the role it names is bound to
 * the same identifier as in the linked signature's routine (the scorer is the function that call()
 * awaits; call() is the method that awaits the scorer).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/mini";
import { compilePattern, type Pattern } from "../ast/pattern.js";
import { checkShape } from "../schemas/json.js";

/** A signature file's markers: the text each stands for (markerBytes). */
const markerSchema = z.union([
  z.object({ string: z.string(), max: z.optional(z.number()) }), // a cooked string value, e.g. "mcp__"
  z.object({ regex: z.string(), max: z.optional(z.number()) }), // a regex literal as written, e.g. "/^select:(.+)$/i"
  z.object({ property: z.string(), max: z.optional(z.number()) }), // a property name accessed with a dot, e.g. "searchHint"
  z.object({ text: z.string(), max: z.optional(z.number()) }), // raw source text (last resort)
]);
export type Marker = z.infer<typeof markerSchema>;

/** Another signature's routine that must name the same identifier in the role `role`. */
const linkSchema = z.object({ signature: z.string(), role: z.string() });
export type Link = z.infer<typeof linkSchema>;

const variantSchema = z.object({
  name: z.string(),
  summary: z.optional(z.string()),
  anchor: z.union([z.string(), z.array(z.string())]),
  has: z.optional(z.array(z.string())),
  not: z.optional(z.array(z.string())),
  markers: z.optional(z.array(markerSchema)),
  linked: z.optional(linkSchema),
});
export type VariantSpec = z.infer<typeof variantSchema>;

/**
 * A port: environment-bound code in the routine's closure (a memoizer, a logger, cooperative
 * yielding) recognised by its shape and replaced, for the lift, by a neutral equivalent written
 * as a pattern over the same metavariables.
 */
const portSchema = z.object({
  name: z.string(),
  summary: z.optional(z.string()),
  /** A definition of this shape is replaced by `replace`. */
  anchor: z.optional(z.string()),
  replace: z.optional(z.string()),
  /** A call of this shape whose value is discarded is dropped (telemetry); `kinds` constrain bindings. */
  drop: z.optional(z.string()),
  kinds: z.optional(z.record(z.string(), z.enum(["string", "object"]))),
});
export type PortSpec = z.infer<typeof portSchema>;

export interface Port {
  name: string;
  anchor?: Pattern;
  replace?: Pattern;
  drop?: Pattern;
  kinds: Record<string, "string" | "object">;
}

/** A signature file (the comment above); its patterns are checked when compiled. */
const signatureSchema = z.object({
  id: z.string().check(z.regex(/^[a-z0-9-]+\/[a-z0-9-]+$/, "not a signature id (routines/name)")),
  summary: z.optional(z.string()),
  markers: z.optional(z.array(markerSchema)),
  variants: z.array(variantSchema).check(z.minLength(1, "no variants")),
  roles: z.optional(z.record(z.string(), z.string())),
  ports: z.optional(z.array(portSchema)),
  tests: z.optional(
    z.object({
      match: z.optional(
        z.array(z.object({ code: z.string(), variant: z.optional(z.string()), roles: z.optional(z.record(z.string(), z.string())) })),
      ),
      noMatch: z.optional(z.array(z.string())),
    }),
  ),
});
export type SignatureSpec = z.infer<typeof signatureSchema>;

export interface Variant {
  name: string;
  anchors: Pattern[];
  has: Pattern[];
  not: Pattern[];
  markers: Marker[];
  linked?: Link;
  /** The `has` patterns as written, for saying which of them a routine no longer matches. */
  hasSource: string[];
}

export interface Signature {
  id: string;
  summary: string;
  markers: Marker[];
  variants: Variant[];
  roles: Record<string, string>;
  ports: Port[];
  tests: NonNullable<SignatureSpec["tests"]>;
  file: string;
}

export class SignatureError extends Error {}

/**
 * `lazy`: a variant's patterns are parsed when first asked for. Locate stops at the first variant
 * that matches, so a lift parses the current generation's patterns and not the older ones' (a
 * pattern that does not parse then fails where it is used, not here).
 */
export function compileSignature(spec: SignatureSpec, file = "<inline>", opts: { lazy?: boolean } = {}): Signature {
  return compileChecked(checkedSpec(spec, file), file, opts);
}

/** A signature file's value in its declared shape, or a SignatureError that says which field is wrong. */
function checkedSpec(value: unknown, file: string): SignatureSpec {
  const r = checkShape(signatureSchema, value);
  if (!r.ok) throw new SignatureError(`${file}: ${r.why}`);
  return r.value;
}

function compileChecked(spec: SignatureSpec, file: string, opts: { lazy?: boolean }): Signature {
  const where = (what: string) => `${file}: ${what}`;
  const compile = (src: string, what: string, template = false) => {
    try {
      return compilePattern(src, { template });
    } catch (e) {
      throw new SignatureError(where(`${what}: ${(e as Error).message}`));
    }
  };
  const names = new Set<string>();
  const variants = spec.variants.map((v) => {
    if (names.has(v.name)) throw new SignatureError(where(`variant ${v.name} named twice`));
    names.add(v.name);
    const patterns = () => ({
      anchors: (Array.isArray(v.anchor) ? v.anchor : [v.anchor]).map((a) => compile(a, `variant ${v.name} anchor`)),
      has: (v.has ?? []).map((h) => compile(h, `variant ${v.name} has`)),
      not: (v.not ?? []).map((h) => compile(h, `variant ${v.name} not`)),
    });
    const markers = v.markers ?? [];
    const link = v.linked === undefined ? {} : { linked: v.linked };
    const own = { name: v.name, markers, hasSource: v.has ?? [], ...link };
    if (!opts.lazy) return { ...own, ...patterns() };
    let built: ReturnType<typeof patterns> | null = null;
    return {
      ...own,
      get anchors() {
        return (built ??= patterns()).anchors;
      },
      get has() {
        return (built ??= patterns()).has;
      },
      get not() {
        return (built ??= patterns()).not;
      },
    };
  });
  for (const m of [...(spec.markers ?? []), ...variants.flatMap((v) => v.markers)]) markerBytes(m); // validates
  const ports = (spec.ports ?? []).map((p): Port => {
    if (p.drop !== undefined) return { name: p.name, drop: compile(p.drop, `port ${p.name} drop`), kinds: p.kinds ?? {} };
    if (p.anchor === undefined || p.replace === undefined)
      throw new SignatureError(where(`port ${p.name} needs anchor and replace, or drop`));
    return {
      name: p.name,
      anchor: compile(p.anchor, `port ${p.name} anchor`),
      replace: compile(p.replace, `port ${p.name} replace`, true),
      kinds: {},
    };
  });
  return {
    id: spec.id,
    summary: spec.summary ?? "",
    markers: spec.markers ?? [],
    variants,
    roles: spec.roles ?? {},
    ports,
    tests: spec.tests ?? {},
    file,
  };
}

/** The source text a marker stands for, as it appears in minified code. */
export function markerBytes(m: Marker): string {
  if ("string" in m) return m.string;
  if ("regex" in m) {
    if (!/^\/.+\/[a-z]*$/s.test(m.regex)) throw new SignatureError(`regex marker must be written /…/flags: ${m.regex}`);
    return m.regex;
  }
  if ("property" in m) return `.${m.property}`;
  if ("text" in m) return m.text;
  throw new SignatureError(`unknown marker ${JSON.stringify(m)}`);
}

export function markerLabel(m: Marker): string {
  if ("string" in m) return JSON.stringify(m.string);
  if ("regex" in m) return m.regex;
  if ("property" in m) return `.${m.property}`;
  return `text ${JSON.stringify(m.text)}`;
}

/** The signatures/ folder that ships with searchlift. */
export function defaultSignatureDir(): string {
  return fileURLToPath(new URL("../../signatures", import.meta.url));
}

/**
 * Every *.json under `dir` (or only those with the given ids, their variants compiled lazily),
 * compiled, sorted by id.
 */
export function loadSignatures(dir = defaultSignatureDir(), ids?: string[]): Signature[] {
  const out: Signature[] = [];
  const visit = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) visit(p);
      else if (f.endsWith(".json")) {
        let value: unknown;
        try {
          value = JSON.parse(readFileSync(p, "utf8"));
        } catch (e) {
          throw new SignatureError(`${relative(dir, p)}: ${(e as Error).message}`);
        }
        const spec = checkedSpec(value, relative(dir, p));
        // Compiling parses every pattern: a caller that needs two signatures does not pay for all.
        if (!ids || ids.includes(spec.id)) out.push(compileChecked(spec, relative(dir, p), { lazy: !!ids }));
      }
    }
  };
  visit(dir);
  // By code unit, not localeCompare: the same order everywhere, and no collator to start (~10 ms).
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
