// Tokens of a bash command line: operators, redirections with their file descriptor, words (scanned by
// WordScanner), newlines followed by the heredoc bodies they release.

import type { Redirect, RedirectOp, ScriptFlag, Word, WordFlag } from './types.ts';
import { ShellSyntaxError } from './syntax-error.ts';
import { heredocDelimiter } from './word.ts';
import { WordScanner } from './word-scanner.ts';

export type ControlOp = '&&' | '||' | ';;&' | ';;' | ';&' | ';' | '&' | '|&' | '|' | '(' | ')' | '\n';

export type Token =
  | { readonly type: 'word'; readonly word: Word; readonly start: number; readonly end: number }
  | { readonly type: 'op'; readonly op: ControlOp; readonly start: number; readonly end: number }
  | { readonly type: 'redir'; readonly op: RedirectOp; readonly fd: string | null; readonly start: number; readonly end: number }
  | { readonly type: 'eof'; readonly start: number; readonly end: number };

// Longest first, so `&&` wins over `&` and `<<-` over `<<`.
const CONTROL_OPS: readonly ControlOp[] = [';;&', ';;', ';&', ';', '&&', '&', '||', '|&', '|', '(', ')'];
const REDIRECT_OPS: readonly RedirectOp[] = ['&>>', '&>', '<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];
const NAMED_FD = /^\{[A-Za-z_][A-Za-z0-9_]*\}(?=[<>])/;

interface PendingHeredoc {
  readonly redirect: Redirect;
  readonly delimiter: string;
  readonly quoted: boolean;
  readonly stripTabs: boolean;
}

export class Lexer extends WordScanner {
  readonly flags = new Set<ScriptFlag>();
  private buffered: Token | null = null;
  private readonly pending: PendingHeredoc[] = [];

  peek(): Token {
    this.buffered ??= this.lex();
    return this.buffered;
  }

  next(): Token {
    const token = this.peek();
    this.buffered = null;
    return token;
  }

  /** Forgets a peeked token so the parser can rescan from its start in another mode (`((`). */
  rewind(pos: number): void {
    this.buffered = null;
    this.pos = pos;
  }

  /** Registers a heredoc whose body starts after the next newline token. */
  queueHeredoc(redirect: Redirect, stripTabs: boolean): void {
    const { delimiter, quoted } = heredocDelimiter(redirect.target.text);
    this.pending.push({ redirect, delimiter, quoted, stripTabs });
  }

  /** Scans `(( … ))` at the current position, returning its end. */
  scanArithmeticCommand(): number {
    this.pos += 2;
    this.scanArithmetic(new Set());
    return this.pos;
  }

  private lex(): Token {
    this.skipBlanks();
    const s = this.src;
    const start = this.pos;
    if (start >= s.length) {
      if (this.pending.length > 0) throw new ShellSyntaxError('unterminated-heredoc', 'heredoc without body', start);
      return { type: 'eof', start, end: start };
    }
    const c = s.charAt(start);
    if (c === '\n') {
      this.pos += 1;
      this.readHeredocBodies();
      return { type: 'op', op: '\n', start, end: start + 1 };
    }
    if ((c === '<' || c === '>') && s[start + 1] === '(') return this.wordToken();
    const fd = this.scanFdPrefix();
    for (const op of REDIRECT_OPS) {
      if (s.startsWith(op, this.pos)) {
        this.pos += op.length;
        return { type: 'redir', op, fd, start, end: this.pos };
      }
    }
    if (fd !== null) this.pos = start;
    for (const op of CONTROL_OPS) {
      if (s.startsWith(op, start)) {
        this.pos += op.length;
        return { type: 'op', op, start, end: this.pos };
      }
    }
    return this.wordToken();
  }

  /** A leading `2` of `2>` or `{fd}` of `{fd}>`; leaves pos after it when found. */
  private scanFdPrefix(): string | null {
    const s = this.src;
    let j = this.pos;
    while (j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j += 1;
    if (j > this.pos && (s[j] === '<' || s[j] === '>') && s[j + 1] !== '(') {
      const fd = s.slice(this.pos, j);
      this.pos = j;
      return fd;
    }
    const named = NAMED_FD.exec(s.slice(this.pos, this.pos + 256));
    if (named !== null) {
      this.flags.add('named-fd');
      this.pos += named[0].length;
      return named[0];
    }
    return null;
  }

  private skipBlanks(): void {
    const s = this.src;
    for (;;) {
      const c = s[this.pos];
      if (c === ' ' || c === '\t') this.pos += 1;
      else if (c === '\\' && s[this.pos + 1] === '\n') {
        this.flags.add('line-continuation');
        this.pos += 2;
      } else if (c === '#') {
        // A `#` that starts a token opens a comment; inside a word it is an ordinary character.
        this.flags.add('comment');
        const nl = s.indexOf('\n', this.pos);
        this.pos = nl < 0 ? s.length : nl;
      } else return;
    }
  }

  private readHeredocBodies(): void {
    const s = this.src;
    for (const doc of this.pending.splice(0)) {
      const bodyStart = this.pos;
      let p = bodyStart;
      for (;;) {
        if (p >= s.length) throw new ShellSyntaxError('unterminated-heredoc', `heredoc "${doc.delimiter}" never ends`, bodyStart);
        const nl = s.indexOf('\n', p);
        const lineEnd = nl < 0 ? s.length : nl;
        const raw = s.slice(p, lineEnd);
        const line = doc.stripTabs ? raw.replace(/^\t+/, '') : raw;
        p = nl < 0 ? s.length : nl + 1;
        if (line === doc.delimiter) break;
      }
      doc.redirect.heredoc = { delimiter: doc.delimiter, quoted: doc.quoted, bodyStart, bodyEnd: p };
      this.pos = p;
    }
  }

  private wordToken(): Token {
    const start = this.pos;
    const flags = new Set<WordFlag>();
    this.scanWord(flags);
    for (const f of flags) this.flags.add(f);
    const word: Word = { text: this.src.slice(start, this.pos), start, end: this.pos, flags: [...flags] };
    return { type: 'word', word, start, end: this.pos };
  }

}
