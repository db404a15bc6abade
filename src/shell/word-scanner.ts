// Scanning of single words. Quotes and every nested construct ($(…), `…`, ${…}, $((…)), <(…)) are read to their
// true end, so an operator inside them never looks like a separator. `$(…)` and `<(…)` hold whole command
// lists: those are read by the parser through `readSubstitution`, on this same scanner.

import { ShellSyntaxError } from './syntax-error.ts';
import type { WordFlag } from './types.ts';
import { assignmentTilde } from './word.ts';

export const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', ')']);
const ARRAY_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/;
const MAX_DEPTH = 64;

export class WordScanner {
  readonly src: string;
  pos = 0;
  private depth = 0;
  /** Reads a command list up to and including its closing `)`; supplied by the parser. */
  private readonly readSubstitution: () => void;

  constructor(src: string, readSubstitution: () => void) {
    this.src = src;
    this.readSubstitution = readSubstitution;
  }

  protected scanWord(flags: Set<WordFlag>): void {
    const s = this.src;
    const start = this.pos;
    if (s[start] === '~') flags.add('tilde');
    this.scanWordBody(flags, start);
    if (assignmentTilde(s.slice(start, this.pos))) flags.add('tilde');
  }

  private scanWordBody(flags: Set<WordFlag>, start: number): void {
    const s = this.src;
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      if (WORD_END.has(c)) return;
      if (c === '<' || c === '>') {
        if (s[this.pos + 1] !== '(') return;
        flags.add('process-substitution');
        this.pos += 2;
        this.nested(() => this.readSubstitution());
      } else if (c === '(') {
        if (ARRAY_PREFIX.test(s.slice(start, this.pos))) {
          flags.add('array-assignment');
          this.pos += 1;
          this.scanBalanced(flags, ')');
        } else if (this.pos > start && '?*+@!'.includes(s.charAt(this.pos - 1))) {
          throw new ShellSyntaxError('unsupported-construct', 'extended glob pattern', this.pos);
        } else return;
      } else this.scanChar(flags, false);
    }
  }

  /** Consumes one unquoted-context unit: a quote, an expansion, an escape or a plain character. */
  private scanChar(flags: Set<WordFlag>, inParam: boolean): void {
    const s = this.src;
    const c = s.charAt(this.pos);
    if (c === '\\') {
      const next = s[this.pos + 1];
      if (next === undefined) throw new ShellSyntaxError('trailing-backslash', 'backslash at end of input', this.pos);
      flags.add(next === '\n' ? 'line-continuation' : 'escape');
      this.pos += 2;
    } else if (c === "'") {
      const close = s.indexOf("'", this.pos + 1);
      if (close < 0) throw new ShellSyntaxError('unterminated-quote', "unterminated ' quote", this.pos);
      flags.add('single-quote');
      this.pos = close + 1;
    } else if (c === '"') {
      flags.add('double-quote');
      this.pos += 1;
      this.scanDoubleQuoted(flags);
    } else if (c === '`') this.scanBacktick(flags);
    else if (c === '$') this.scanDollar(flags, false);
    else {
      if (c === '*' || c === '?' || c === '[') flags.add('glob');
      else if (c === '{' && !inParam) flags.add('brace');
      this.pos += 1;
    }
  }

  private scanDoubleQuoted(flags: Set<WordFlag>): void {
    const s = this.src;
    const open = this.pos - 1;
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      if (c === '"') {
        this.pos += 1;
        return;
      }
      if (c === '\\') {
        if (s[this.pos + 1] === '\n') flags.add('line-continuation');
        this.pos += 2;
      } else if (c === '`') this.scanBacktick(flags);
      else if (c === '$') this.scanDollar(flags, true);
      else this.pos += 1;
    }
    throw new ShellSyntaxError('unterminated-quote', 'unterminated " quote', open);
  }

  private scanBacktick(flags: Set<WordFlag>): void {
    const s = this.src;
    const open = this.pos;
    flags.add('backtick');
    this.pos += 1;
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      if (c === '`') {
        this.pos += 1;
        return;
      }
      this.pos += c === '\\' ? 2 : 1;
    }
    throw new ShellSyntaxError('unterminated-substitution', 'unterminated backquote', open);
  }

  private scanDollar(flags: Set<WordFlag>, inDouble: boolean): void {
    const s = this.src;
    const next = s[this.pos + 1];
    if (next === "'" && !inDouble) {
      flags.add('ansi-c-quote');
      const open = this.pos;
      this.pos += 2;
      while (this.pos < s.length && s[this.pos] !== "'") this.pos += s[this.pos] === '\\' ? 2 : 1;
      if (this.pos >= s.length) throw new ShellSyntaxError('unterminated-quote', "unterminated $' quote", open);
      this.pos += 1;
    } else if (next === '"' && !inDouble) {
      flags.add('locale-quote');
      this.pos += 2;
      this.scanDoubleQuoted(flags);
    } else if (next === '(' && s[this.pos + 2] === '(') {
      flags.add('arithmetic');
      this.pos += 3;
      this.scanArithmetic(flags);
    } else if (next === '(') {
      flags.add('command-substitution');
      this.pos += 2;
      this.nested(() => this.readSubstitution());
    } else if (next === '[') {
      flags.add('arithmetic');
      this.pos += 2;
      this.scanBalanced(flags, ']');
    } else if (next === '{') {
      flags.add('parameter');
      this.pos += 2;
      this.nested(() => this.scanParameter(flags, inDouble));
    } else {
      if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) flags.add('parameter');
      this.pos += 1;
    }
  }

  /** The inside of `${…}` up to its matching brace. */
  private scanParameter(flags: Set<WordFlag>, inDouble: boolean): void {
    const s = this.src;
    const open = this.pos;
    let depth = 0;
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      if (c === '}') {
        this.pos += 1;
        if (depth === 0) return;
        depth -= 1;
      } else if (c === '{') {
        depth += 1;
        this.pos += 1;
      } else if (c === "'" && inDouble) {
        // Whether these quote inside "${…}" depends on the operator and the bash version: refuse to guess.
        throw new ShellSyntaxError('unsupported-construct', "' inside \"${…}\"", this.pos);
      } else this.scanChar(flags, true);
    }
    throw new ShellSyntaxError('unterminated-substitution', 'unterminated ${', open);
  }

  /** Arithmetic after `((` or `$((`, up to the closing `))`. */
  protected scanArithmetic(flags: Set<WordFlag>): void {
    const s = this.src;
    const open = this.pos;
    let depth = 0;
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      if (c === '(') {
        depth += 1;
        this.pos += 1;
      } else if (c === ')') {
        if (depth > 0) {
          depth -= 1;
          this.pos += 1;
        } else if (s[this.pos + 1] === ')') {
          this.pos += 2;
          return;
        } else {
          // `$( (a) b)` is a command substitution holding a subshell; bash decides by backtracking, we refuse.
          throw new ShellSyntaxError('unsupported-construct', 'ambiguous (( … )', this.pos);
        }
      } else if (c === '\n' || c === ' ' || c === '\t' || c === ';' || c === '&' || c === '|' || c === '<' || c === '>') {
        this.pos += 1;
      } else this.scanChar(flags, true);
    }
    throw new ShellSyntaxError('unterminated-substitution', 'unterminated ((', open);
  }

  /** A bracketed run such as `a=( … )` or `$[ … ]`, nesting the same bracket. */
  private scanBalanced(flags: Set<WordFlag>, close: ')' | ']'): void {
    const s = this.src;
    const open = close === ')' ? '(' : '[';
    const from = this.pos;
    let depth = 0;
    while (this.pos < s.length) {
      const c = s.charAt(this.pos);
      if (c === close) {
        this.pos += 1;
        if (depth === 0) return;
        depth -= 1;
      } else if (c === open) {
        depth += 1;
        this.pos += 1;
      } else if (WORD_END.has(c) || c === '<' || c === '>') this.pos += 1;
      else this.scanChar(flags, true);
    }
    throw new ShellSyntaxError('unbalanced-parens', `missing ${close}`, from);
  }

  /** Runs a nested scan or parse, refusing input nested deeper than any real command line needs. */
  nested(scan: () => void): void {
    if (this.depth >= MAX_DEPTH) throw new ShellSyntaxError('too-deep', 'nesting too deep', this.pos);
    this.depth += 1;
    try {
      scan();
    } finally {
      this.depth -= 1;
    }
  }
}
