#!/usr/bin/env node
/**
 * How readable are lifted modules? For each one, the share of identifier references (every
 * identifier but property keys and labels, and every private name of a class) that are placeholders
 * — numbered or hash-tagged names (`v12`, `helper_794f`, `value_4d05`, `tool3`) or one- and
 * two-letter leftovers other than the loop counters i, j, k, n (`#n` is not one) — and the module's
 * size in lines (its code, without header and provenance); and the names that contradict the kind of value
 * they hold, where the code shows it (a string named as a list, `trimmedWords = query.trim()`; a list as a
 * text; a boolean or a number as either), and paragraphs named by their first words (`ifAnUploadText`): the
 * namer's rules value-kind.ts and long-text.ts (src/lift/names/, read from dist/, so build first) should
 * leave none.
 *
 *   node scripts/placeholders.mjs <lifted .mjs | folder of lifted modules | release input>… [--json] [--show]
 *
 * `--show` lists each module's misfit names with the kind of their value.
 *
 * `--churn` measures instead the rename churn from each module to the next, in the order given: of the functions
 * whose code is the same on both sides but for names (renameChurn), how many names changed (`--show` lists some).
 *
 * A release input (a tarball, binary, cli.js) is lifted first, without verification, to a temporary folder.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";
import { generate } from "astring";
import { analyze } from "eslint-scope";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { kindOf, misfit, elementKind, iteratedList } = await import(join(root, "dist", "lift", "names", "value-kind.js"));
const { isParagraph } = await import(join(root, "dist", "lift", "names", "long-text.js"));
const { returnedValues } = await import(join(root, "dist", "ast", "pattern.js"));
const LOOP_COUNTERS = new Set(["i", "j", "k", "n"]);
const PROVENANCE_MARK = "\nconst provenance = ";

/**
 * Whether a name tells the reader nothing, or not all: a hash tag, a one- or two-letter leftover, or
 * a number (`v12`, and also `tool3`: a numbered suffix is a placeholder for the word that would tell
 * the three apart). Globals such as `Uint8Array` or `atob` are the platform's names, not ours.
 */
export function isPlaceholder(name) {
  if (name.length <= 2 && !LOOP_COUNTERS.has(name)) return !(name in globalThis);
  if (/_[0-9a-f]{4}\d*$/.test(name)) return true;
  return /\d$/.test(name) && !(name in globalThis);
}

/** The module's code, without the header comments and the provenance object. */
export function codeOf(text) {
  const start = text.search(/^(?!\/\/)(?=\S)/m);
  const end = text.indexOf(PROVENANCE_MARK);
  return text.slice(Math.max(0, start), end < 0 ? undefined : end).trimEnd() + "\n";
}

/** { lines, references, placeholders, share, top } for one module's text. */
export function measure(text) {
  const code = codeOf(text);
  const ast = parse(code, { ecmaVersion: "latest", sourceType: "module", ranges: true });
  const counts = new Map();
  let references = 0;
  const visit = (n, skip) => {
    if (!n || typeof n.type !== "string") return;
    if (n.type === "Identifier" && !skip.has(n)) {
      references++;
      if (isPlaceholder(n.name)) counts.set(n.name, (counts.get(n.name) ?? 0) + 1);
    }
    // A class's private names are the module's own too, and no loop counts with them.
    if (n.type === "PrivateIdentifier") {
      references++;
      if (n.name.length <= 2 || isPlaceholder(n.name)) counts.set(`#${n.name}`, (counts.get(`#${n.name}`) ?? 0) + 1);
    }
    const keysOf = new Set();
    if (n.type === "MemberExpression" && !n.computed) keysOf.add(n.property);
    if ((n.type === "Property" || n.type === "MethodDefinition" || n.type === "PropertyDefinition") && !n.computed && !n.shorthand)
      keysOf.add(n.key);
    if (n.type === "Property" && n.shorthand) keysOf.add(n.key); // counted once, as its value
    if (n.type === "LabeledStatement" || n.type === "BreakStatement" || n.type === "ContinueStatement") keysOf.add(n.label);
    for (const k of Object.keys(n)) {
      const v = n[k];
      if (Array.isArray(v)) v.forEach((c) => c && typeof c === "object" && visit(c, keysOf));
      else if (v && typeof v === "object" && k !== "loc") visit(v, keysOf);
    }
  };
  visit(ast, new Set());
  const placeholders = [...counts.values()].reduce((a, b) => a + b, 0);
  const top = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, count]) => ({ name, count }));
  const misfits = misfitNames(ast);
  return {
    lines: code.split("\n").length - 1,
    references,
    placeholders,
    share: references ? placeholders / references : 0,
    top,
    misfits,
  };
}

/**
 * The bindings whose name contradicts the kind of value the code gives them: variables by their initializer
 * (a name declared once; one that is assigned a value of another kind is left out), and the first parameter of
 * a callback over the parts of a `.split()`. [{ name, kind }], in source order.
 */
export function misfitNames(ast) {
  const parents = new Map();
  const walk = (n, parent) => {
    if (!n || typeof n.type !== "string") return;
    if (parent) parents.set(n, parent);
    for (const k of Object.keys(n)) {
      const v = n[k];
      if (Array.isArray(v)) v.forEach((c) => c && typeof c === "object" && walk(c, n));
      else if (v && typeof v === "object" && k !== "loc") walk(v, n);
    }
  };
  walk(ast, null);
  const scopes = analyze(ast, { ecmaVersion: 2022, sourceType: "module" });
  const variableOf = new Map();
  for (const scope of scopes.scopes) for (const ref of scope.references) if (ref.resolved) variableOf.set(ref.identifier, ref.resolved);
  /** A variable's one initializer, when it is a declared variable (not a for-of element), else null. */
  const initOf = (v) => {
    const def = v?.defs.length === 1 ? v.defs[0] : null;
    if (def?.type !== "Variable" || def.node.id.type !== "Identifier" || !def.node.init) return null;
    const loop = parents.get(def.parent);
    return loop && /^For(Of|In)Statement$/.test(loop.type) && loop.left === def.parent ? null : def.node.init;
  };
  const seen = new Set();
  const kindOfVariable = (v) => {
    if (!v || seen.has(v)) return null;
    seen.add(v);
    try {
      const lookup = (id) => kindOfVariable(variableOf.get(id));
      // A call of a local function whose every return has one kind (a handler factory's handler).
      const returns = (callee) => {
        const f = variableOf.get(callee);
        const def = f?.defs.length === 1 ? f.defs[0] : null;
        const fn = def?.type === "FunctionName" ? def.node : initOf(f);
        if (!fn || !/Function/.test(fn.type) || f.references.some((r) => r.isWrite() && !r.init)) return null;
        const kinds = returnedValues(fn).map((r) => (r ? kindOf(r, lookup) : null));
        return kinds.length > 0 && kinds.every((k) => k === kinds[0]) ? kinds[0] : null;
      };
      const kind = kindOf(initOf(v), lookup, returns);
      if (!kind) return null;
      for (const ref of v.references) {
        if (!ref.isWrite() || ref.init) continue;
        const a = parents.get(ref.identifier);
        if (a?.type === "UpdateExpression" && kind === "number") continue;
        if (a?.type !== "AssignmentExpression") return null;
        if (a.operator === "+=" && (kind === "string" || kind === "number")) continue;
        if (a.operator !== "=" || kindOf(a.right, lookup) !== kind) return null;
      }
      return kind;
    } finally {
      seen.delete(v);
    }
  };
  const out = [];
  for (const scope of scopes.scopes) {
    for (const v of scope.variables) {
      const def = v.defs[0];
      if (!def) continue;
      let kind = null;
      if (def.type === "Variable") kind = kindOfVariable(v);
      else if (def.type === "Parameter" && def.node.params[0] === def.name)
        kind = elementKind(
          iteratedList(def.node, (n) => parents.get(n)),
          (id) => initOf(variableOf.get(id)),
        );
      if (kind && misfit(v.name, kind)) out.push({ name: v.name, kind, at: def.name.start });
      // A paragraph named by its first words (`ifAnUploadText`) rather than by what it is about and for.
      const text = def.type === "Variable" ? initOf(v) : null;
      if (text?.type === "Literal" && typeof text.value === "string" && isParagraph(text.value) && !/(Boilerplate|Paragraph)$/.test(v.name))
        out.push({ name: v.name, kind: "paragraph", at: def.name.start });
    }
  }
  return out.sort((a, b) => a.at - b.at).map(({ name, kind }) => ({ name, kind }));
}

/**
 * The functions of a module, each as its code with every name replaced by its order of first appearance (`$0`,
 * `$1`, …) and the names in that order: a function declaration, or a declaration of one binding to a function,
 * at any depth. A function inside another is its own unit: in the outer one it is a name, so each name belongs
 * to the one unit whose own code holds it. Property keys are not names; the platform's globals are not counted.
 */
export function namedUnits(text) {
  const ast = parse(codeOf(text), { ecmaVersion: "latest", sourceType: "module" });
  const isUnit = (n) =>
    n.type === "FunctionDeclaration" ||
    (n.type === "VariableDeclaration" && n.declarations.length === 1 && /Function/.test(n.declarations[0].init?.type ?? ""));
  const units = [];
  const find = (n) => {
    if (!n || typeof n.type !== "string") return;
    if (isUnit(n)) units.push(n);
    for (const k of Object.keys(n)) {
      const v = n[k];
      if (Array.isArray(v)) v.forEach(find);
      else if (v && typeof v === "object") find(v);
    }
  };
  find(ast);
  return units.map((unit) => {
    const names = [];
    const slot = (name) => {
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name)}`;
    };
    // A copy with the names replaced, and each inner unit replaced by its name.
    const copy = (n, top) => {
      if (!n || typeof n !== "object") return n;
      if (Array.isArray(n)) return n.map((c) => copy(c, false));
      if (!top && isUnit(n)) {
        const id = n.type === "FunctionDeclaration" ? n.id : n.declarations[0].id;
        return { type: "ExpressionStatement", expression: { type: "Identifier", name: `unit ${copy(id, false).name}` } };
      }
      if (n.type === "Identifier") return { type: "Identifier", name: slot(n.name) };
      const out = { ...n };
      for (const k of Object.keys(n)) {
        if (k === "loc" || k === "start" || k === "end") continue;
        const v = n[k];
        const key =
          (k === "property" && n.type === "MemberExpression" && !n.computed) ||
          (k === "key" && /^(Property|MethodDefinition|PropertyDefinition)$/.test(n.type) && !n.computed) ||
          (k === "label" && /^(Labeled|Break|Continue)Statement$/.test(n.type));
        if (!key) out[k] = copy(v, false);
      }
      // `{ name }` reads the binding `name` under the key `name`: the key stays, the value is a name.
      if (n.type === "Property" && n.shorthand) out.shorthand = false;
      return out;
    };
    const code = generate(copy(unit, true));
    return { code, names: names.filter((name) => !(name in globalThis)) };
  });
}

/**
 * Rename churn from module `a` to module `b`: the units (see namedUnits) whose code, names aside, is the same on
 * both sides, paired in order, and how many of their names differ. { units: [a's, b's], matched, names, renamed,
 * examples }: `renamed` of `names` (non-global names of matched units) changed; up to 8 examples `old → new`.
 */
export function renameChurn(a, b) {
  const [ua, ub] = [namedUnits(a), namedUnits(b)];
  const byCode = new Map();
  for (const u of ub) byCode.set(u.code, [...(byCode.get(u.code) ?? []), u]);
  let matched = 0;
  let names = 0;
  let renamed = 0;
  const examples = [];
  for (const u of ua) {
    const other = byCode.get(u.code)?.shift();
    if (!other) continue;
    matched++;
    names += u.names.length;
    u.names.forEach((name, i) => {
      if (other.names[i] === name) return;
      renamed++;
      if (examples.length < 8) examples.push(`${name} → ${other.names[i]}`);
    });
  }
  return { units: [ua.length, ub.length], matched, names, renamed, examples };
}

/** The lifted modules an input names: a module, a folder of them, or a release input lifted into a temporary folder. */
export function liftedModules(path) {
  if (statSync(path).isDirectory()) {
    const found = readdirSync(path, { recursive: true })
      .filter((f) => String(f).endsWith("tool-search.mjs"))
      .map((f) => join(path, String(f)));
    if (found.length) return found.sort();
  } else if (path.endsWith(".mjs")) return [path];
  // A release input: lift it first.
  const out = mkdtempSync(join(tmpdir(), "searchlift-scripts-"));
  try {
    execFileSync(process.execPath, [join(root, "bin", "searchlift.js"), "lift", path, "--out", out, "--no-verify"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    return liftedModules(out).map((f) => ({ file: f, cleanup: out }));
  } catch {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`cannot lift ${path}`);
  }
}

/** Label of a lifted module: client/version/platform from its folder, else its path. */
export function labelOf(file) {
  const parts = file.split(/[\\/]/);
  return parts.length >= 4 ? parts.slice(-4, -1).join("/") : relative(process.cwd(), file);
}

function main(argv) {
  const json = argv.includes("--json");
  const show = argv.includes("--show");
  const churn = argv.includes("--churn");
  const inputs = argv.filter((a) => !["--json", "--show", "--churn"].includes(a));
  if (!inputs.length) {
    console.error("usage: node scripts/placeholders.mjs <lifted .mjs | folder | release input>… [--json] [--show] [--churn]");
    process.exit(2);
  }
  const rows = [];
  for (const input of inputs) {
    let entries;
    try {
      entries = liftedModules(input).map((e) => (typeof e === "string" ? { file: e } : e));
    } catch (e) {
      console.error(`placeholders: ${e.code === "ENOENT" ? `no such file: ${input}` : e.message}`);
      process.exit(1);
    }
    for (const e of entries) {
      const text = readFileSync(e.file, "utf8");
      rows.push({ module: labelOf(e.file), ...measure(text), text: churn ? text : undefined });
      if (e.cleanup) rmSync(e.cleanup, { recursive: true, force: true });
    }
  }
  if (churn) return printChurn(rows, json, show);
  if (json) return console.log(JSON.stringify(rows, null, 2));
  const w = Math.max(6, ...rows.map((r) => r.module.length));
  console.log(`${"module".padEnd(w)}  lines  references  placeholders   share  misfits  most frequent`);
  for (const r of rows) {
    const top = r.top
      .slice(0, 4)
      .map((t) => `${t.name}×${t.count}`)
      .join(" ");
    console.log(
      `${r.module.padEnd(w)}  ${String(r.lines).padStart(5)}  ${String(r.references).padStart(10)}  ${String(r.placeholders).padStart(12)}  ${(100 * r.share).toFixed(1).padStart(5)}%  ${String(r.misfits.length).padStart(7)}  ${top}`,
    );
    if (show) for (const m of r.misfits) console.log(`  ${m.name}: a ${m.kind === "array" ? "list" : m.kind}`);
  }
}

/** `--churn`: the rename churn from each module to the next, in the order given, and in all. */
function printChurn(rows, json, show) {
  const pairs = rows.slice(1).map((r, i) => ({ from: rows[i].module, to: r.module, ...renameChurn(rows[i].text, r.text) }));
  const total = { matched: 0, names: 0, renamed: 0 };
  for (const p of pairs) for (const k of Object.keys(total)) total[k] += p[k];
  if (json) return console.log(JSON.stringify({ pairs, total }, null, 2));
  for (const p of pairs) {
    console.log(`${p.from} → ${p.to}: ${p.renamed} of ${p.names} names renamed in ${p.matched} functions unchanged but for names`);
    if (show) for (const e of p.examples) console.log(`  ${e}`);
  }
  console.log(`total: ${total.renamed} of ${total.names} names renamed in ${total.matched} functions`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
