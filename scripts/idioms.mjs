#!/usr/bin/env node
/**
 * What of the minifier's hand is left in lifted modules (issue 44): per module, in its code (without
 * header and provenance),
 *
 * - `decls`: declarations that chain several bindings (`let a = 1, b = 2;`; for-loop heads aside);
 * - `>120`: lines over 120 characters, and `>120 code`: those still over 120 with their string and template
 *   literals emptied (a string cannot be broken; the rest of a line can);
 * - `void0`: `void 0` (and `void` of any literal); `!0/!1`: `!` of a number literal;
 * - `ctl`: `a && b();`, `a || b();`, `a ?? b();` and `c ? d() : e();` as statements;
 * - `seq`: comma sequences outside for-loop heads;
 * - `else`: an `else` after a branch that always returns, throws, breaks or continues;
 * - `1line`: a loop or if body that is itself an if or a loop without braces, or an `else` on the line of
 *   the statement before it (`if (…) a(); else b();`);
 * - `noop`: statements without an effect: an expression with no call, construction, assignment, update,
 *   await, yield or delete (`searchResult.data.matches;`), a call of a function of the module whose
 *   body does nothing but return such expressions (`getAccepted();`), or a call of a part of call()'s
 *   context that the adapter fills with `emptyState()` (`contextRoom();`), or a call of a string or array method
 *   that only makes a new value, thrown away, with arguments that do nothing either (`query.replace(re, identity);`:
 *   no effect on a string, though only the contract says the query is one).
 *
 *   node scripts/idioms.mjs <lifted .mjs | folder of lifted modules | release input>… [--json] [--show]
 *
 * A release input (a tarball, binary, cli.js) is lifted first, without verification, to a temporary folder.
 * `--show` prints each finding's line.
 */
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";
import { codeOf, labelOf, liftedModules } from "./placeholders.mjs";

const KINDS = ["decls", "long", "longCode", "void0", "bool", "ctl", "seq", "else", "oneLine", "wrapped", "noop"];
const HEADINGS = {
  decls: "decls",
  long: ">120",
  longCode: ">120 code",
  void0: "void0",
  bool: "!0/!1",
  ctl: "ctl",
  seq: "seq",
  else: "else",
  oneLine: "1line",
  wrapped: "wrap",
  noop: "noop",
};

const LOOPS = new Set(["ForStatement", "ForInStatement", "ForOfStatement", "WhileStatement", "DoWhileStatement"]);
const COMPOUND = new Set([...LOOPS, "IfStatement", "SwitchStatement", "TryStatement", "LabeledStatement"]);
const EFFECTS = new Set([
  "CallExpression",
  "NewExpression",
  "AssignmentExpression",
  "UpdateExpression",
  "AwaitExpression",
  "YieldExpression",
  "TaggedTemplateExpression",
  "ImportExpression",
]);

function children(n) {
  const out = [];
  for (const k of Object.keys(n)) {
    if (k === "loc") continue;
    const v = n[k];
    if (Array.isArray(v)) out.push(...v.filter((c) => c && typeof c.type === "string"));
    else if (v && typeof v.type === "string") out.push(v);
  }
  return out;
}

/** Whether evaluating `n` shows any effect a reader would look for (a function's body is not evaluated). */
function hasVisibleEffect(n) {
  if (!n || typeof n.type !== "string") return false;
  if (EFFECTS.has(n.type) || (n.type === "UnaryExpression" && n.operator === "delete")) return true;
  if (n.type === "ArrowFunctionExpression" || n.type === "FunctionExpression" || n.type === "ClassExpression") return false;
  return children(n).some(hasVisibleEffect);
}

/** Whether a statement always leaves the code after it: return, throw, break, continue, or a block or if that always does. */
function exits(s) {
  if (!s) return false;
  if (["ReturnStatement", "ThrowStatement", "BreakStatement", "ContinueStatement"].includes(s.type)) return true;
  if (s.type === "BlockStatement") return exits(s.body.at(-1));
  if (s.type === "IfStatement") return !!s.alternate && exits(s.consequent) && exits(s.alternate);
  return false;
}

/** Whether a statement of a function's body does nothing but return or compute values without a visible effect. */
function quietStatement(s) {
  if (s.type === "EmptyStatement") return true;
  if (s.type === "ReturnStatement") return !hasVisibleEffect(s.argument);
  if (s.type === "ExpressionStatement") return !hasVisibleEffect(s.expression);
  if (s.type === "BlockStatement") return s.body.every(quietStatement);
  if (s.type === "IfStatement")
    return !hasVisibleEffect(s.test) && quietStatement(s.consequent) && (!s.alternate || quietStatement(s.alternate));
  return false;
}

/**
 * Names of what a call does nothing with: the module's functions whose body does nothing visible (`function f() {}`,
 * `const f = () => x.y`), and the bindings destructured from the keys of call()'s context to which toolSearch's
 * adapter gives `emptyState()`.
 */
function emptyFunctions(ast) {
  const names = new Set();
  const quiet = (f) =>
    f &&
    /Function/.test(f.type) &&
    !f.generator &&
    (f.body.type === "BlockStatement" ? f.body.body.every(quietStatement) : !hasVisibleEffect(f.body));
  const keyOf = (p) => (p.type !== "Property" || p.computed ? null : p.key.type === "Identifier" ? p.key.name : String(p.key.value));
  const emptyKeys = new Set();
  const patterns = [];
  const visit = (n) => {
    if (n.type === "FunctionDeclaration" && n.id && quiet(n)) names.add(n.id.name);
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && quiet(n.init)) names.add(n.id.name);
    // release.call(input, {…}, {…}) in the adapter: the keys it fills with the empty state.
    if (
      n.type === "CallExpression" &&
      n.callee.type === "MemberExpression" &&
      n.callee.property.name === "call" &&
      n.callee.object.name === "release"
    )
      for (const a of n.arguments.filter((a) => a.type === "ObjectExpression"))
        for (const p of a.properties)
          if (p.value?.type === "CallExpression" && p.value.callee.name === "emptyState" && keyOf(p) !== null) emptyKeys.add(keyOf(p));
    if (n.type === "ObjectPattern") patterns.push(n);
    children(n).forEach(visit);
  };
  visit(ast);
  for (const pattern of patterns)
    for (const p of pattern.properties) {
      const target = p.type === "Property" ? (p.value.type === "AssignmentPattern" ? p.value.left : p.value) : null;
      if (target?.type === "Identifier" && emptyKeys.has(keyOf(p))) names.add(target.name);
    }
  return names;
}

/** Methods of strings and arrays that only make a new value (a callback of theirs may do more; see thrownAway). */
const VALUE_METHODS = new Set([
  "replace",
  "replaceAll",
  "slice",
  "substring",
  "trim",
  "trimStart",
  "trimEnd",
  "toLowerCase",
  "toUpperCase",
  "split",
  "join",
  "concat",
  "padStart",
  "padEnd",
  "map",
  "filter",
  "flatMap",
  "includes",
  "indexOf",
  "startsWith",
  "endsWith",
]);

/** `x.replace(re, identity);`: a value method's new value thrown away, its arguments without effect and its callbacks quiet. */
function thrownAway(e, empties, constants) {
  if (e.type !== "CallExpression" || e.callee.type !== "MemberExpression" || e.callee.computed) return false;
  if (!VALUE_METHODS.has(e.callee.property.name) || hasVisibleEffect(e.callee.object)) return false;
  return e.arguments.every((a) => {
    // A name passed may be a callback: only a quiet function of the module's, or a constant, is surely harmless.
    if (a.type === "Identifier") return empties.has(a.name) || constants.has(a.name);
    if (a.type === "ArrowFunctionExpression" || a.type === "FunctionExpression")
      return a.body.type === "BlockStatement" ? a.body.body.every(quietStatement) : !hasVisibleEffect(a.body);
    return !hasVisibleEffect(a);
  });
}

/** { counts, findings } for one module's text. */
export function measure(text) {
  const code = codeOf(text);
  const ast = parse(code, { ecmaVersion: "latest", sourceType: "module", locations: true });
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0]));
  const findings = [];
  const found = (kind, n) => {
    counts[kind]++;
    findings.push({ kind, line: n.loc.start.line });
  };
  const empties = emptyFunctions(ast);
  // Names declared with a literal (a regular expression, a string, a number): no callback.
  const constants = new Set();
  const collect = (n) => {
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && (n.init?.type === "Literal" || n.init?.type === "TemplateLiteral"))
      constants.add(n.id.name);
    children(n).forEach(collect);
  };
  collect(ast);
  const heads = new Set();
  const visit = (n) => {
    if (n.type === "ForStatement") {
      if (n.init) heads.add(n.init);
      if (n.update) heads.add(n.update);
    }
    if (n.type === "VariableDeclaration" && n.declarations.length > 1 && !heads.has(n)) found("decls", n);
    if (n.type === "UnaryExpression" && n.operator === "void" && n.argument.type === "Literal") found("void0", n);
    if (n.type === "UnaryExpression" && n.operator === "!" && n.argument.type === "Literal" && typeof n.argument.value === "number")
      found("bool", n);
    if (n.type === "SequenceExpression" && !heads.has(n)) found("seq", n);
    if (n.type === "ExpressionStatement" && !n.directive) {
      const e = n.expression;
      if (e.type === "LogicalExpression" || e.type === "ConditionalExpression") found("ctl", n);
      const emptyCall =
        e.type === "CallExpression" && e.callee.type === "Identifier" && empties.has(e.callee.name) && !e.arguments.some(hasVisibleEffect);
      if (!hasVisibleEffect(e) || emptyCall || thrownAway(e, empties, constants)) found("noop", n);
    }
    if (n.type === "IfStatement" && n.alternate && exits(n.consequent)) found("else", n);
    const bodies = LOOPS.has(n.type) ? [n.body] : n.type === "IfStatement" ? [n.consequent, n.alternate] : [];
    for (const b of bodies) {
      // else-if chains are the one compound alternate a person writes without braces.
      if (b && COMPOUND.has(b.type) && !(n.type === "IfStatement" && b === n.alternate && b.type === "IfStatement")) found("oneLine", b);
    }
    for (const b of bodies) {
      // An else's head is the line of its `else`.
      const head = b && b === n.alternate ? code.slice(0, code.lastIndexOf("else", b.start)).split("\n").length : n.loc.start.line;
      if (b && b.type !== "BlockStatement" && b.type !== "IfStatement" && (b.loc.start.line > head || b.loc.end.line > b.loc.start.line))
        found("wrapped", b);
    }
    if (
      n.type === "IfStatement" &&
      n.alternate &&
      n.consequent.type !== "BlockStatement" &&
      n.consequent.loc.end.line === n.alternate.loc.start.line
    )
      found("oneLine", n.alternate);
    for (const c of children(n)) visit(c);
  };
  visit(ast);
  // Lines, with each string literal (and template literal, expressions and all) emptied for the second count.
  const lines = code.split("\n");
  const blanked = lines.map((l) => l.length);
  const strings = (n) => {
    if ((n.type === "Literal" && typeof n.value === "string") || n.type === "TemplateLiteral") {
      if (n.loc.start.line === n.loc.end.line) blanked[n.loc.start.line - 1] -= Math.max(0, n.end - n.start - 2);
      return;
    }
    children(n).forEach(strings);
  };
  strings(ast);
  lines.forEach((l, i) => {
    if (l.length > 120) {
      counts.long++;
      findings.push({ kind: "long", line: i + 1 });
      if (blanked[i] > 120) found("longCode", { loc: { start: { line: i + 1 } } });
    }
  });
  return { lines: lines.length - 1, counts, findings: findings.sort((a, b) => a.line - b.line), code };
}

function main(argv) {
  const json = argv.includes("--json");
  const show = argv.includes("--show");
  const inputs = argv.filter((a) => !a.startsWith("--"));
  if (!inputs.length) {
    console.error("usage: node scripts/idioms.mjs <lifted .mjs | folder | release input>… [--json] [--show]");
    process.exit(2);
  }
  const rows = [];
  for (const input of inputs) {
    let entries;
    try {
      entries = liftedModules(input).map((e) => (typeof e === "string" ? { file: e } : e));
    } catch (e) {
      console.error(`idioms: ${e.code === "ENOENT" ? `no such file: ${input}` : e.message}`);
      process.exit(1);
    }
    for (const e of entries) {
      const { lines, counts, findings, code } = measure(readFileSync(e.file, "utf8"));
      rows.push({ module: labelOf(e.file), lines, ...counts, findings: show ? findings : undefined, code: show ? code : undefined });
      if (e.cleanup) rmSync(e.cleanup, { recursive: true, force: true });
    }
  }
  if (json)
    return console.log(
      JSON.stringify(
        rows.map((r) => ({ ...r, code: undefined })),
        null,
        2,
      ),
    );
  const w = Math.max(6, ...rows.map((r) => r.module.length));
  const cols = ["lines", ...KINDS];
  const head = (k) => HEADINGS[k] ?? k;
  console.log(`${"module".padEnd(w)}  ${cols.map((k) => head(k).padStart(Math.max(5, head(k).length))).join("  ")}`);
  const total = Object.fromEntries(cols.map((k) => [k, 0]));
  for (const r of rows) {
    cols.forEach((k) => (total[k] += r[k]));
    console.log(`${r.module.padEnd(w)}  ${cols.map((k) => String(r[k]).padStart(Math.max(5, head(k).length))).join("  ")}`);
    if (show) {
      const lines = r.code.split("\n");
      for (const f of r.findings) console.log(`  ${HEADINGS[f.kind]} ${f.line}: ${lines[f.line - 1].trim().slice(0, 160)}`);
    }
  }
  if (rows.length > 1)
    console.log(`${"total".padEnd(w)}  ${cols.map((k) => String(total[k]).padStart(Math.max(5, head(k).length))).join("  ")}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
