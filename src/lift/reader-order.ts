/**
 * The readable copy in the order a reader wants it: the contract's functions first (searchTools, scoreTools,
 * toolSearch), their adapter after them, then the factory that holds the release's code — inside it the
 * routine's entry points first (what the factory returns: the scorer, its scores-only variant, call() and
 * what computes the scorer's arguments), the helper functions after, the constants and classes last — and
 * the module's ports at the end. A helper gets a one-line comment from what is known of it (`about`: the
 * curated names file, the port that replaced it, the role it plays) when its name does not already say it.
 *
 * The order never changes what the module does: only function declarations move, and they are hoisted
 * (made before any statement of their body runs); every other statement (a `let`, a `const`, a class, the
 * factory's `return`) keeps its place relative to the others. A body that declares one function name
 * twice, where order decides which wins, is left as it is. The faithful copy is never reordered.
 */
import { parse, type Comment } from "acorn";
import type { Node } from "../ast/pattern.js";
import { KEY_PORT, READ_PORT } from "./key-port.js";

export interface ReaderOrderOptions {
  /** The contract's functions, in the order they are to come first. */
  exports: readonly string[];
  /** What is known of a helper, by its readable name: one sentence or more (the first is used). */
  about?: ReadonlyMap<string, string>;
}

/** The longest comment line written (with its indentation inside the factory, it stays under 110 columns). */
const COMMENT_WIDTH = 100;

type Statement = Node & { start: number; end: number };

/** `text` (the readable module's code, before layout) in the reader's order, with the helpers' comments. */
export function readerOrder(text: string, opts: ReaderOrderOptions): string {
  const comments: Comment[] = [];
  const ast = parse(text, { ecmaVersion: "latest", sourceType: "module", onComment: comments }) as unknown as { body: Statement[] };
  const body = ast.body;
  const factory = body.find((s) => s.type === "FunctionDeclaration" && returnsRoles(s)) as
    (Statement & { type: "FunctionDeclaration"; body: { body: Statement[]; start: number; end: number } }) | undefined;
  if (!factory) return text;
  const roles = returnedRoles(factory);
  const about = new Map(opts.about ?? []);
  for (const [name, role] of roles) if (!about.has(name)) about.set(name, ROLE_ABOUT[role] ?? "");

  // The factory's body: entry points, helper functions, then the rest in its own order.
  const inner = factory.body.body;
  const last = inner.at(-1);
  const entries = [...roles.keys()];
  const innerText = reordered(
    text,
    factory.body.start + 1,
    inner,
    comments,
    (s) => {
      if (s === last && s.type === "ReturnStatement") return 3;
      const name = declaredFunction(s);
      if (name === null) return 2;
      const entry = entries.indexOf(name);
      return entry >= 0 ? entry / entries.length : 1;
    },
    about,
  );
  const factoryText =
    innerText === null ? text.slice(factory.start, factory.end) : `${text.slice(factory.start, factory.body.start + 1)}\n${innerText}\n}`;

  // The module: the contract's functions, the adapter, the factory, the ports.
  const firstPort = body.findIndex((s, i) => i > body.indexOf(factory) && PORT_NAMES.has(declaredFunction(s) ?? ""));
  const outer = reordered(
    text,
    0,
    body,
    comments,
    (s) => {
      if (s === factory) return 2;
      const name = declaredFunction(s);
      const contract = name === null ? -1 : opts.exports.indexOf(name);
      if (contract >= 0) return contract / opts.exports.length;
      return firstPort >= 0 && body.indexOf(s) >= firstPort ? 3 : 1;
    },
    new Map(),
    (s) => (s === factory ? factoryText : null),
  );
  return outer === null ? text : `${outer}\n`;
}

/** The ports the key port and the conversion wrappers add at the module's end (key-port.ts). */
const PORT_NAMES = new Set([KEY_PORT, READ_PORT]);

/** What the factory's roles are, in words a reader needs. */
const ROLE_ABOUT: Record<string, string> = {
  search: "The release's tool search, as its signature located it: searchTools runs it.",
  scores: "The search without its early returns and final cut: every scored tool in input order (scoreTools).",
  call: "The release's call() of the tool search tool, as its signature located it: toolSearch runs it.",
  arguments: "The arguments call() computes for the search from its tools and query.",
};

/**
 * The statements of one body in the order `rank` gives (stable), each with the comments before it, joined by
 * blank lines; null when the order would not be safe (see the module comment) or nothing moves.
 */
function reordered(
  text: string,
  from: number,
  statements: Statement[],
  comments: Comment[],
  rank: (s: Statement) => number,
  about: ReadonlyMap<string, string>,
  replace: (s: Statement) => string | null = () => null,
): string | null {
  const names = statements.map(declaredFunction).filter((n): n is string => n !== null);
  if (new Set(names).size !== names.length) return null;
  const segments = statements.map((s, i) => {
    const start = i === 0 ? from : statements[i - 1]!.end;
    const lead = text.slice(start, s.start).trim();
    const own = replace(s) ?? text.slice(s.start, s.end);
    const name = declaredName(s);
    const note = !lead && name && !hasComment(comments, start, s.start) ? commentFor(name, about.get(name)) : null;
    return [lead, note, own].filter(Boolean).join("\n");
  });
  const order = statements.map((s, i) => ({ i, r: rank(s) })).sort((a, b) => a.r - b.r || a.i - b.i);
  // Safe: the statements that are not function declarations keep their relative order.
  const kept = order.filter(({ i }) => declaredFunction(statements[i]!) === null).map(({ i }) => i);
  if (kept.some((v, k) => k > 0 && v < kept[k - 1]!)) return null;
  const trailing = text.slice(statements.at(-1)?.end ?? from).trim();
  return [...order.map(({ i }) => segments[i]!), ...(trailing && from === 0 ? [trailing] : [])].join("\n\n");
}

function hasComment(comments: Comment[], from: number, to: number): boolean {
  return comments.some((c) => c.start >= from && c.end <= to);
}

/** A one-line comment from what is known of a helper, or null when nothing is or its name already says it. */
function commentFor(name: string, known: string | undefined): string | null {
  if (!known) return null;
  let line = known.replace(/\s+/g, " ").trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
  line = sentence;
  if (line.length > COMMENT_WIDTH) {
    // A clause that fits, cut where the sentence pauses; none: no comment rather than half a sentence.
    // A semicolon or dash before a colon: a colon may be the code's own (`select: query`).
    const pause = Math.max(line.lastIndexOf("; ", COMMENT_WIDTH), line.lastIndexOf(" — ", COMMENT_WIDTH));
    const cut = pause >= 20 ? pause : line.lastIndexOf(": ", COMMENT_WIDTH);
    if (cut < 20) return null;
    line = `${line.slice(0, cut)}.`;
  }
  if (obvious(name, line)) return null;
  return `// ${line}`;
}

/** Whether every content word of the sentence is already in the name (`escapeText`: "Escapes the text."). */
function obvious(name: string, sentence: string): boolean {
  const stem = (w: string) => w.toLowerCase().slice(0, 5);
  const inName = new Set(name.split(/(?=[A-Z])|_/).map(stem));
  const content = sentence
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length >= 4 && !/^(the|this|that|with|from|into|what|when|each|their|them|they|which|its)$/i.test(w));
  return content.length > 0 && content.every((w) => inName.has(stem(w)));
}

function declaredFunction(s: Statement): string | null {
  return s.type === "FunctionDeclaration" && s.id ? s.id.name : null;
}

function declaredName(s: Statement): string | null {
  if ((s.type === "FunctionDeclaration" || s.type === "ClassDeclaration") && s.id) return s.id.name;
  if (s.type === "VariableDeclaration" && s.declarations.length === 1 && s.declarations[0]!.id.type === "Identifier")
    return s.declarations[0]!.id.name;
  return null;
}

/** Whether a function's last statement returns an object with a `search` key: the factory. */
function returnsRoles(fn: Statement): boolean {
  return returnedObject(fn)?.properties.some((p) => p.type === "Property" && keyName(p.key) === "search") ?? false;
}

function returnedObject(fn: Statement): (Node & { type: "ObjectExpression" }) | null {
  if (fn.type !== "FunctionDeclaration") return null;
  const ret = fn.body.body.at(-1);
  return ret?.type === "ReturnStatement" && ret.argument?.type === "ObjectExpression" ? ret.argument : null;
}

function keyName(k: Node): string | null {
  return k.type === "Identifier" ? k.name : k.type === "Literal" && typeof k.value === "string" ? k.value : null;
}

/**
 * The factory's functions by the role its return gives them: `search: f`, `scores: g`, `call: h`, and through
 * `(…) => f(...args(…))` the function that computes the arguments. In that order.
 */
function returnedRoles(fn: Statement): Map<string, string> {
  const roles = new Map<string, string>();
  for (const p of returnedObject(fn)?.properties ?? []) {
    if (p.type !== "Property") continue;
    const role = keyName(p.key);
    if (!role || !(role in ROLE_ABOUT)) continue;
    let v: Node = p.value;
    if (v.type === "ArrowFunctionExpression" && v.body.type === "CallExpression") {
      const call = v.body;
      const spread = call.arguments[0];
      if (spread?.type === "SpreadElement" && spread.argument.type === "CallExpression" && spread.argument.callee.type === "Identifier")
        if (!roles.has(spread.argument.callee.name)) roles.set(spread.argument.callee.name, "arguments");
      v = call.callee;
    }
    if (v.type === "Identifier" && !roles.has(v.name)) roles.set(v.name, role);
  }
  // The arguments function after the routines it feeds.
  const args = [...roles].filter(([, r]) => r === "arguments");
  return new Map([...[...roles].filter(([, r]) => r !== "arguments"), ...args]);
}
