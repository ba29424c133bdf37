/** Small word helpers the naming rules share. */

export const cap = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
export const uncap = (s: string): string => (s ? s[0]!.toLowerCase() + s.slice(1) : s);

/** Words whose singular ends in s, as plurals: `aliases` is one `alias`, not an `aliase`. */
const ENDS_IN_S = "(alias|status|bias|canvas|bonus|campus|virus|focus|census)";
const SINGULAR_IN_S = new RegExp(`${ENDS_IN_S}es$`, "i");
const SINGULAR_ENDING_IN_S = new RegExp(`${ENDS_IN_S}$`, "i");

/** `tools` → `tool`, `entries` → `entry`, `matches` → `match`; null when the word is not a plural. */
export function singular(name: string | null | undefined): string | null {
  if (!name || name.length < 4 || !/^[a-z][A-Za-z]*s$/.test(name) || name.endsWith("ss") || SINGULAR_ENDING_IN_S.test(name)) return null;
  if (name.endsWith("ies")) return `${name.slice(0, -3)}y`;
  if (/(ch|sh|x|ss)es$/.test(name) || SINGULAR_IN_S.test(name)) return name.slice(0, -2);
  return name.slice(0, -1);
}

/** `tool` → `tools`, `entry` → `entries`, `match` → `matches`; plurals stay as they are. */
export function plural(name: string): string {
  if (singular(name)) return name;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(ch|sh|x|s)$/.test(name)) return `${name}es`;
  return `${name}s`;
}

/** The words of free text, lower case (`"tool_search"` → tool, search); letters only, one-letter words left out. */
export function textWords(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length > 1)
    .map((w) => w.toLowerCase());
}

/** A camelCase name of at most `max` words from free text (`"tool_search"` → `toolSearch`); null without words. */
export function camelWords(text: string, max = 3): string | null {
  return camelName(textWords(text).slice(0, max));
}

/** Words as a camelCase name; null when shorter than three letters. */
export function camelName(words: string[]): string | null {
  if (!words.length) return null;
  const name = words[0] + words.slice(1).map(cap).join("");
  return name.length >= 3 ? name : null;
}

/** The last word of a camelCase name of two words or more (`deferredTools` → tools); null for one word. */
export function lastWord(name: string): string | null {
  const words = name.split(/(?=[A-Z])/);
  return words.length > 1 ? uncap(words.at(-1)!) : null;
}

/** `prefix` + `Base`, or the prefix alone without a base. */
export const join = (prefix: string, base: string | null | undefined): string => (base ? `${prefix}${cap(base)}` : prefix);

/** Whether a name says nothing: numbered or hash-tagged, or one or two letters (loop counters aside). */
export function isPlaceholderName(name: string): boolean {
  if (name.length <= 2 && !/^[ijkn]$/.test(name)) return true;
  if (/_[0-9a-f]{4}\d*$/.test(name)) return true;
  return /^(v|value|helper|Helper|fn|arg|param|tmp|temp|var|ref|local)\d+$/.test(name);
}
