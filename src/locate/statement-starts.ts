/**
 * Where top-level statements may start, found by a single cheap scan instead of a full parse.
 *
 * Minified bundles are megabytes of code on a few lines; parsing all of it to look at one function
 * costs seconds. This scanner tracks bracket depth while skipping strings, template literals,
 * comments and regex literals, and records the positions after a `;` or a closing `}` at the base
 * depth. Those are only candidates: the parser confirms one (see partial-parse.ts), and a wrong
 * guess costs a retry, never a wrong answer.
 *
 * In a script (CommonJS) `<!--`, and `-->` with nothing but spaces before it on its line, begin a comment to
 * the end of the line, as in a browser; in a module they are operators (and V8 refuses them). The scanner
 * skips them as comments when told the text is a script.
 */

/* eslint-disable @typescript-eslint/no-unsafe-enum-comparison -- C is character codes, compared with charCodeAt's numbers */
const enum C {
  LF = 10,
  CR = 13,
  SPACE = 32,
  BANG = 33,
  DQUOTE = 34,
  PERCENT = 37,
  AMP = 38,
  SQUOTE = 39,
  LPAREN = 40,
  RPAREN = 41,
  STAR = 42,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  SLASH = 47,
  COLON = 58,
  SEMI = 59,
  LT = 60,
  EQ = 61,
  GT = 62,
  QUESTION = 63,
  LBRACKET = 91,
  BACKSLASH = 92,
  RBRACKET = 93,
  CARET = 94,
  BACKTICK = 96,
  LBRACE = 123,
  PIPE = 124,
  RBRACE = 125,
  TILDE = 126,
}

/** After these characters a `/` starts a regex literal, not a division. */
const REGEX_AFTER = new Set<number>([
  C.LPAREN,
  C.COMMA,
  C.EQ,
  C.COLON,
  C.LBRACKET,
  C.BANG,
  C.AMP,
  C.PIPE,
  C.QUESTION,
  C.LBRACE,
  C.RBRACE,
  C.SEMI,
  C.PLUS,
  C.MINUS,
  C.STAR,
  C.PERCENT,
  C.LT,
  C.GT,
  C.TILDE,
  C.CARET,
]);
// Not `of`: minifiers name variables `of` (2.1.312 divides by one inside a template), and a regex
// literal right after for-of's `of` is far rarer.
const REGEX_AFTER_WORD = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|new|delete|void|throw|yield|await|instanceof)$/;

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95 || c > 127;
}

const enum K {
  OTHER,
  SPACE,
  WORD,
  SLASH,
  QUOTE,
  BACKTICK,
  OPEN,
  CLOSE,
  SEMI,
}

/** What each ASCII character starts, for the scan's dispatch (everything from 128 on is a word character). */
const KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  KIND[c] = c <= C.SPACE ? K.SPACE : isWordChar(c) ? K.WORD : K.OTHER;
}
KIND[C.SLASH] = K.SLASH;
KIND[C.DQUOTE] = KIND[C.SQUOTE] = K.QUOTE;
KIND[C.BACKTICK] = K.BACKTICK;
KIND[C.LBRACE] = KIND[C.LPAREN] = KIND[C.LBRACKET] = K.OPEN;
KIND[C.RBRACE] = KIND[C.RPAREN] = KIND[C.RBRACKET] = K.CLOSE;
KIND[C.SEMI] = K.SEMI;

/**
 * Candidate statement starts at depth 0 of the text from `from` on (a CJS wrapper's body is
 * scanned from just inside its brace). Resumable: `scanTo` goes no further than asked, so a
 * lookup near the top of a 6 MB chunk does not pay for the rest of it.
 */
export class StatementScanner {
  /** Ascending candidate starts found so far; always includes `from`. */
  readonly starts: number[];
  private i: number;
  private depth = 0;
  private prev: number = C.SEMI; // last significant character, for the regex/division decision
  private prevWordEnd = -1; // end of the last identifier-like run, if prev was a word character
  /** Template literal nesting: depth at which each open `${` resumes its template. */
  private templates: number[] = [];
  /**
   * Where the scan left depth 0 and came back, alternately (ascending): a position is at the top
   * level of its statement when an even number of these lie before it.
   */
  private readonly flips: number[] = [];
  private jumps: Jumps | null = null;

  constructor(
    private readonly text: string,
    from = 0,
    /** The text is a script: HTML-like comments are comments (see above). */
    private readonly htmlComments = false,
  ) {
    this.starts = [from];
    this.i = from;
  }

  get done(): boolean {
    return this.i >= this.text.length;
  }

  /**
   * Whether `pos` lies outside every bracket, brace and template expression of the statement
   * around it (scans up to `pos` if needed). Declarations of module-level names sit there.
   */
  atTopLevel(pos: number): boolean {
    this.scanTo(pos + 1);
    const f = this.flips;
    let lo = 0;
    let hi = f.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (f[mid]! < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo % 2 === 0;
  }

  /** Scan until position `until` (or the end), recording starts on the way. */
  scanTo(until: number): void {
    const text = this.text;
    const n = Math.min(text.length, until);
    const flips = this.flips;
    const jumps = (this.jumps ??= jumpsIn(text));
    let { i, depth, prev } = this;
    while (i < n) {
      const c = text.charCodeAt(i);
      switch (c < 128 ? KIND[c] : K.WORD) {
        case K.SPACE:
          i++;
          continue;
        case K.WORD:
          while (++i < text.length) {
            const d = text.charCodeAt(i);
            if (d < 128 && KIND[d] !== K.WORD) break;
          }
          prev = c;
          this.prevWordEnd = i;
          continue;
        case K.SLASH: {
          const d = text.charCodeAt(i + 1);
          if (d === C.SLASH) {
            const e = text.indexOf("\n", i);
            i = e === -1 ? text.length : e + 1;
            continue;
          }
          if (d === C.STAR) {
            const e = text.indexOf("*/", i + 2);
            i = e === -1 ? text.length : e + 2;
            continue;
          }
          const regex = isWordChar(prev)
            ? REGEX_AFTER_WORD.test(text.slice(Math.max(0, this.prevWordEnd - 12), this.prevWordEnd))
            : REGEX_AFTER.has(prev);
          if (regex) {
            i = skipRegex(text, i);
            prev = C.RPAREN; // a regex literal is an operand
            continue;
          }
          prev = c;
          i++;
          continue;
        }
        case K.QUOTE:
          i = skipString(text, i, c, jumps);
          prev = C.RPAREN;
          continue;
        case K.OPEN:
          if (depth++ === 0) flips.push(i);
          prev = c;
          i++;
          continue;
        case K.CLOSE: {
          if (c === C.RBRACE && this.templates.length > 0 && this.templates[this.templates.length - 1] === depth - 1) {
            // The `}` closing a template's `${`: skip the template's text to its end or the next `${`.
            this.templates.pop();
            if (--depth === 0) flips.push(i);
            ({ i, depth, prev } = this.template(i, depth, jumps));
            continue;
          }
          if (--depth === 0) flips.push(i);
          i++;
          prev = c;
          if (c === C.RBRACE && depth === 0) this.starts.push(i);
          continue;
        }
        case K.BACKTICK:
          ({ i, depth, prev } = this.template(i, depth, jumps));
          continue;
        case K.SEMI:
          i++;
          prev = c;
          if (depth === 0) this.starts.push(i);
          continue;
        default:
          if (this.htmlComments && (c === C.LT || c === C.MINUS) && htmlCommentAt(text, i)) {
            const e = text.indexOf("\n", i);
            i = e === -1 ? text.length : e + 1;
            continue;
          }
          prev = c;
          i++;
      }
    }
    this.i = i;
    this.depth = depth;
    this.prev = prev;
  }

  /** A template literal's text from the backtick or `}` at `i`: to its end, or into its next `${`. */
  private template(i: number, depth: number, jumps: Jumps): { i: number; depth: number; prev: number } {
    const r = skipTemplate(this.text, i + 1, jumps);
    if (!r.openExpr) return { i: r.end, depth, prev: C.RPAREN };
    this.templates.push(depth);
    if (depth === 0) this.flips.push(i);
    return { i: r.end, depth: depth + 1, prev: C.LBRACE };
  }
}

/**
 * Whether a script's HTML-like comment starts at `i` (a `<` or `-` outside strings, regexes and comments):
 * `<!--` anywhere, or `-->` with only spaces and tabs between it and the start of its line (or of the text).
 * A `-->` after a block comment on the same line is not taken for one: a wrong guess costs a retry only.
 */
function htmlCommentAt(text: string, i: number): boolean {
  if (text.charCodeAt(i) === C.LT) return text.startsWith("!--", i + 1);
  if (!text.startsWith("->", i + 1)) return false;
  for (let j = i - 1; j >= 0; j--) {
    const d = text.charCodeAt(j);
    if (d === C.LF || d === C.CR || d === 0x2028 || d === 0x2029) return true;
    if (d !== C.SPACE && d !== 9 && d !== 11 && d !== 12 && d !== 0xa0 && d !== 0xfeff) return false;
  }
  return true;
}

/** Every candidate statement start of `text` from `from` on (the whole scan at once). */
export function statementStarts(text: string, from = 0, htmlComments = false): number[] {
  const s = new StatementScanner(text, from, htmlComments);
  s.scanTo(text.length);
  return s.starts;
}

/**
 * The next position of one character at or after a position that only grows, as the scan does:
 * indexOf runs again only once the scan has passed the last answer. Strings and templates are
 * skipped by these jumps instead of character by character (the client's prompts are long).
 */
class NextOf {
  private at = -2;
  constructor(
    private readonly text: string,
    private readonly ch: string,
  ) {}
  from(j: number): number {
    if (this.at !== -1 && this.at < j) this.at = this.text.indexOf(this.ch, j);
    return this.at === -1 ? this.text.length : this.at;
  }
}

interface Jumps {
  backslash: NextOf;
  lf: NextOf;
  cr: NextOf;
  dquote: NextOf;
  squote: NextOf;
  backtick: NextOf;
  dollar: NextOf;
}

function jumpsIn(text: string): Jumps {
  const of = (ch: string) => new NextOf(text, ch);
  return { backslash: of("\\"), lf: of("\n"), cr: of("\r"), dquote: of('"'), squote: of("'"), backtick: of("`"), dollar: of("$") };
}

function skipString(text: string, i: number, quote: number, k: Jumps): number {
  const close = quote === C.DQUOTE ? k.dquote : k.squote;
  for (let j = i + 1; ;) {
    const end = close.from(j);
    const bs = k.backslash.from(j);
    const line = Math.min(k.lf.from(j), k.cr.from(j));
    const first = Math.min(end, bs, line);
    if (first >= text.length) return text.length;
    if (first === bs) {
      j = bs + 2;
      continue;
    }
    return first === end ? end + 1 : line; // unterminated: stop at the line end
  }
}

/** From just after a backtick (or a `}` resuming a template): to just after the closing backtick, or after `${`. */
function skipTemplate(text: string, j: number, k: Jumps): { end: number; openExpr: boolean } {
  for (;;) {
    const tick = k.backtick.from(j);
    const bs = k.backslash.from(j);
    const dollar = k.dollar.from(j);
    const first = Math.min(tick, bs, dollar);
    if (first >= text.length) return { end: text.length, openExpr: false };
    if (first === bs) j = bs + 2;
    else if (first === tick) return { end: tick + 1, openExpr: false };
    else if (text.charCodeAt(dollar + 1) === C.LBRACE) return { end: dollar + 2, openExpr: true };
    else j = dollar + 1;
  }
}

function skipRegex(text: string, i: number): number {
  let inClass = false;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === C.BACKSLASH) j++;
    else if (c === C.LBRACKET) inClass = true;
    else if (c === C.RBRACKET) inClass = false;
    else if (c === C.SLASH && !inClass) {
      j++;
      while (j < text.length && isWordChar(text.charCodeAt(j))) j++; // flags
      return j;
    } else if (c === C.LF || c === C.CR) return j;
  }
  return text.length;
}
