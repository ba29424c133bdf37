/**
 * The corpus's descriptions and search hints (corpus.ts): sentences that put a tool's words at and off word
 * boundaries, next to punctuation, unicode and regex-special characters, some longer than the caps where
 * releases cut them.
 */
import type { Rng } from "./rng.js";
import { CAPS, cap, FILLER, REGEX_BITS, SENTENCE_ENDS, UNICODE_WORDS, VERBS_AND_NOUNS } from "./corpus-words.js";

/** A word in a variant that matches, or deliberately does not match, at word boundaries. */
function decorate(rng: Rng, w: string): string {
  switch (rng.int(16)) {
    case 0:
      return `${w}s`;
    case 1:
      return `re${w}`;
    case 2:
      return `${w}_id`;
    case 3:
      return `(${w})`;
    case 4:
      return `${w}.`;
    case 5:
      return `\`${w}\``;
    case 6:
      return `${w}-like`;
    case 7:
      return w.toUpperCase();
    case 8:
      return cap(w);
    case 9:
      return `"${w}",`;
    case 10:
      return `${w}/${rng.pick(FILLER)}`;
    default:
      return w;
  }
}

/**
 * Text made of pieces (sentences, their ends, separators) and joined once, into one flat string. Texts built
 * by `+=` were ropes of thousands of strings that stayed alive until printed; with the arrays and strings
 * made per sentence, they were most of what the corpus allocated, and most of its time went to the GC.
 */
export class Text {
  private readonly parts: string[] = [];
  /** The length of the joined text. */
  length = 0;

  add(piece: string): void {
    this.parts.push(piece);
    this.length += piece.length;
  }

  /** A place for a piece that is drawn later (see `fill`). */
  hole(): number {
    this.parts.push("");
    return this.parts.length - 1;
  }

  fill(hole: number, piece: string): void {
    this.parts[hole] = piece;
    this.length += piece.length;
  }

  toString(): string {
    return this.parts.join("");
  }
}

/** The word lists a sentence draws from, with their words capitalised, for a sentence's first word. */
const CAPITALISED = new Map<readonly string[], string[]>(
  [REGEX_BITS, UNICODE_WORDS, VERBS_AND_NOUNS, FILLER].map((list) => [list, list.map(cap)]),
);

/** A word from `list`, capitalised or not: the same draw either way. */
function pickWord(rng: Rng, list: readonly string[], capitalised: boolean): string {
  return rng.pick(capitalised ? CAPITALISED.get(list)! : list);
}

function sentenceWord(rng: Rng, keyWords: string[], capitalised: boolean): string {
  const r = rng.next();
  if (r < 0.3 && keyWords.length > 0) {
    const w = decorate(rng, rng.pick(keyWords));
    return capitalised ? cap(w) : w;
  }
  if (r < 0.37) return pickWord(rng, REGEX_BITS, capitalised);
  if (r < 0.41) return pickWord(rng, UNICODE_WORDS, capitalised);
  if (r < 0.5) return pickWord(rng, VERBS_AND_NOUNS, capitalised);
  return pickWord(rng, FILLER, capitalised);
}

/** One array per sentence length, reused for each sentence's words (sentences are made one at a time): an array
 *  per sentence was a good part of what the corpus allocated. */
const SENTENCE_WORDS: string[][] = [];

/** `len` words and an ending, the first word capitalised (which is what capitalising the whole sentence did,
 *  also when that word is empty). */
function addSentence(rng: Rng, keyWords: string[], len: number, out: Text): void {
  const words = (SENTENCE_WORDS[len] ??= new Array<string>(len).fill(""));
  for (let i = 0; i < len; i++) words[i] = sentenceWord(rng, keyWords, i === 0);
  out.add(words.join(" "));
  out.add(rng.pick(SENTENCE_ENDS));
}

export function sentence(rng: Rng, keyWords: string[], len: number): string {
  const out = new Text();
  addSentence(rng, keyWords, len, out);
  return out.toString();
}

const SENTENCE_SEPARATORS = [" ", "\n", "\n\n"];
const LONG_TEXT_TARGETS = [2100, 4200, 9000];

export function description(rng: Rng, keyWords: string[]): string | undefined {
  const r = rng.next();
  if (r < 0.04) return undefined;
  if (r < 0.07) return "";
  const out = new Text();
  // The separator between sentences is drawn after them: holes until then.
  const holes: number[] = [];
  const sentences = rng.range(1, 4);
  for (let i = 0; i < sentences; i++) {
    if (i > 0) holes.push(out.hole());
    addSentence(rng, keyWords, rng.range(3, 14), out);
  }
  const separator = rng.pick(SENTENCE_SEPARATORS);
  for (const h of holes) out.fill(h, separator);
  // Long descriptions with a marker near the end: beyond 2048 and 4096 characters, where releases cut them.
  if (rng.chance(0.04)) {
    const target = rng.pick(LONG_TEXT_TARGETS);
    while (out.length < target) {
      out.add(" ");
      addSentence(rng, keyWords, 12, out);
    }
    out.add(" ");
    out.add(rng.pick(["zebra", "endmarker", keyWords[0] ?? "tail"]));
  }
  return out.toString();
}

/** Hint phrases besides the tool's own words. */
const HINT_PHRASES = [
  "start here",
  "playbook",
  "instructions",
  "how to use",
  "billing",
  "invoices",
  "triage",
  "deploy",
  "kanban",
  "sprint",
  "warehouse",
];
const HINT_SEPARATORS = [", ", " ", "; ", " | "];

/** What `rng.pick([...first, ...second])` picks (the same draw), without making that list. */
function pickFromEither<T>(rng: Rng, first: readonly T[], second: readonly T[]): T {
  const i = rng.int(first.length + second.length);
  return i < first.length ? first[i]! : second[i - first.length]!;
}

export function searchHint(rng: Rng, keyWords: string[], hintWords: string[]): string | undefined {
  if (!rng.chance(0.3)) return undefined;
  if (rng.chance(0.1)) {
    // Longer than the 4096-character cut, with a word that only exists past the cut.
    const out = new Text();
    const target = CAPS.searchHintChars + rng.range(0, 600);
    while (out.length < target) {
      addSentence(rng, keyWords, 10, out);
      out.add(" ");
    }
    const tail = rng.pick(["hintbeyondcut", "quokka", "farawayword"]);
    hintWords.push(tail);
    out.add(tail);
    return out.toString();
  }
  const count = rng.range(1, 6);
  const phrases: string[] = [];
  for (let i = 0; i < count; i++) {
    const phrase = pickFromEither(rng, HINT_PHRASES, keyWords);
    phrases.push(phrase);
    // The hint's words, for queries: a phrase's words one by one.
    if (phrase.includes(" ")) hintWords.push(...phrase.split(" "));
    else hintWords.push(phrase);
  }
  return phrases.join(rng.pick(HINT_SEPARATORS));
}
