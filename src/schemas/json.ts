/**
 * What searchlift reads back from disk or from an input (signatures, names, caches, tools and expectations files)
 * is checked against a zod schema declared beside its reader: one shape per kind of file, a typed value out, and
 * a message that names the field that is wrong. These are the two ways a reader asks.
 */
import type * as z from "zod/mini";
import "./zod.js";

/** A value of the schema's shape, or why not: the first problem, on one line. */
export type Checked<T> = { ok: true; value: T } | { ok: false; why: string };

export function checkShape<S extends z.ZodMiniType>(schema: S, value: unknown): Checked<z.output<S>> {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, why: issueLine(r.error) };
}

/** JSON text of the schema's shape, or null: for what is only a shortcut (a cache entry, a note), done again when wrong. */
export function parseJsonOrNull<S extends z.ZodMiniType>(schema: S, text: string): z.output<S> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const r = schema.safeParse(value);
  return r.success ? r.data : null;
}

/** The first issue as `where: what` (`variants[2].anchor: Invalid input: expected string, received number`). */
export function issueLine(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  const where = pathText(issue.path);
  return `${where ? `${where}: ` : ""}${issue.message.split("\n")[0]}`;
}

function pathText(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (typeof p === "string" && /^[A-Za-z_$][\w$]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}
