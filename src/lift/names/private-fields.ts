/**
 * Names for a class's private fields. Minifiers shorten `#descriptions` to `#e` like any other name,
 * and a release that adds a field reletters the others (`#r` and `#o` trade places), so the letters
 * would show in every diff. A field is named by what it holds:
 *   - a Map or WeakMap that one method reads and fills (`get`, then `set`) holds that method's results:
 *     `describe` → `#descriptions`, `parsedNameOf` → `#parsedNames`;
 *   - a field every write of which stores one and the same variable (other writes only reset it) takes
 *     that variable's name: `this.#t = sortedNameText` → `#sortedNameText`.
 * Only placeholder names are replaced, one class body at a time; names the class or a class inside it
 * already uses are not handed out again.
 */
import type { ClassBody, Expression, MethodDefinition, PrivateIdentifier, PropertyDefinition } from "acorn";
import { walk as estreeWalk } from "estree-walker";
import { walk, type Node } from "../../ast/pattern.js";
import { verbResult } from "./producing-call.js";
import { isPlaceholderName, plural } from "./words.js";
import { fromEstree, toEstree } from "../../ast/estree-bridge.js";

/** A field's name that says nothing: no letter is a loop counter here. */
const isPlaceholderField = (name: string) => name.length <= 2 || isPlaceholderName(name);

/** Rename the placeholder private fields of every class in `root`, in place. */
export function namePrivateFields(root: Node): void {
  walk(root, (n) => {
    if (n.type === "ClassBody") nameFieldsOf(n);
  });
}

type Member = MethodDefinition | PropertyDefinition;

/** The private names a class body declares. */
function ownNames(body: ClassBody): string[] {
  return body.body
    .filter((m): m is Member => m.type !== "StaticBlock" && m.key.type === "PrivateIdentifier")
    .map((m) => (m.key as PrivateIdentifier).name);
}

function nameFieldsOf(body: ClassBody): void {
  const taken = new Set<string>();
  walk(body, (n) => {
    if (n.type === "PrivateIdentifier") taken.add(n.name);
  });
  const renames = new Map<string, string>();
  for (const field of body.body) {
    if (field.type !== "PropertyDefinition" || field.key.type !== "PrivateIdentifier") continue;
    const old = field.key.name;
    if (renames.has(old) || !isPlaceholderField(old)) continue;
    const want = cacheOfMethod(body, old) ?? storedVariable(body, old);
    if (!want) continue;
    let name = want;
    for (let i = 2; taken.has(name); i++) name = `${want}${i}`;
    taken.add(name);
    renames.set(old, name);
  }
  if (renames.size) renameIn(body, renames);
}

/**
 * Visit every node of `body` where its private `field` is in reach, with the class member it is in: a class
 * inside it that declares a field of that name has it to itself.
 */
function inReach(body: ClassBody, field: string, visit: (n: Node, member: ClassBody["body"][number]) => void): void {
  for (const member of body.body) {
    estreeWalk(toEstree(member), {
      enter(node) {
        const n = fromEstree(node);
        if (n.type === "ClassBody" && ownNames(n).includes(field)) this.skip();
        else visit(n, member);
      },
    });
  }
}

/** `x.#field`. */
function isField(n: Node, field: string): boolean {
  return n.type === "MemberExpression" && n.property.type === "PrivateIdentifier" && n.property.name === field;
}

/** A Map or WeakMap field read (`get`) and filled (`set`) in one method only: the plural of what the method gives. */
function cacheOfMethod(body: ClassBody, field: string): string | null {
  const methods = new Set<ClassBody["body"][number]>();
  const calls = new Set<string>();
  inReach(body, field, (n, member) => {
    if (n.type !== "CallExpression" || n.callee.type !== "MemberExpression" || n.callee.computed) return;
    const { object, property } = n.callee;
    if (!isField(object, field) || property.type !== "Identifier" || !/^(get|set)$/.test(property.name)) return;
    methods.add(member);
    calls.add(property.name);
  });
  const [method] = methods;
  if (calls.size !== 2 || methods.size !== 1 || method!.type !== "MethodDefinition" || method!.kind !== "method") return null;
  if (method!.computed || method!.key.type !== "Identifier" || !holdsMap(body, field)) return null;
  const made = verbResult(method!.key.name);
  return made && !made.endsWith("Result") ? plural(made) : `${method!.key.name}Cache`;
}

/** Every value the field is given (its initializer and each `=`) is a `new Map()` or `new WeakMap()`. */
function holdsMap(body: ClassBody, field: string): boolean {
  const values = valuesGiven(body, field);
  return (
    values.length > 0 &&
    values.every((v) => v?.type === "NewExpression" && v.callee.type === "Identifier" && /^(Weak)?Map$/.test(v.callee.name))
  );
}

/** The variable every write that is not a reset stores in the field, when it is always the same one. */
function storedVariable(body: ClassBody, field: string): string | null {
  const stored = new Set<string>();
  for (const v of valuesGiven(body, field)) {
    if (isReset(v)) continue;
    if (v?.type !== "Identifier") return null;
    stored.add(v.name);
  }
  const [name] = stored;
  return stored.size === 1 && !isPlaceholderName(name!) ? name! : null;
}

/** What the field is given: its initializer (null when it has none) and what each assignment to it stores. */
function valuesGiven(body: ClassBody, field: string): Array<Expression | null> {
  const out: Array<Expression | null> = [];
  for (const member of body.body)
    if (member.type === "PropertyDefinition" && member.key.type === "PrivateIdentifier" && member.key.name === field)
      out.push(member.value ?? null);
  inReach(body, field, (n) => {
    if (n.type === "AssignmentExpression" && isField(n.left, field)) out.push(n.operator === "=" ? n.right : n);
    if (n.type === "UpdateExpression" && isField(n.argument, field)) out.push(n);
  });
  return out;
}

/** An empty start: no value, null or undefined, a literal, or a new empty collection. */
function isReset(v: Expression | null): boolean {
  if (!v || v.type === "Literal") return true;
  if (v.type === "Identifier") return v.name === "undefined";
  if (v.type === "UnaryExpression") return v.operator === "void" && v.argument.type === "Literal";
  if (v.type === "NewExpression") return v.arguments.length === 0;
  if (v.type === "ArrayExpression") return v.elements.length === 0;
  return v.type === "ObjectExpression" && v.properties.length === 0;
}

/** Rename the private names of `body` wherever they reach. */
function renameIn(body: ClassBody, renames: Map<string, string>): void {
  const reach: Array<Map<string, string>> = [renames];
  estreeWalk(toEstree(body), {
    enter(node) {
      const n = fromEstree(node);
      const live = reach.at(-1)!;
      if (n.type === "PrivateIdentifier") n.name = live.get(n.name) ?? n.name;
      else if (n.type === "ClassBody" && n !== body) {
        const own = ownNames(n);
        reach.push(new Map([...live].filter(([name]) => !own.includes(name))));
      }
    },
    leave(node) {
      if (fromEstree(node).type === "ClassBody" && fromEstree(node) !== body) reach.pop();
    },
  });
}
