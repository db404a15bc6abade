// Recursive-descent parser for the bash subset a rewrite can reason about: lists, and-or chains, pipelines,
// simple commands, subshells, brace groups, `(( … ))` and `[[ … ]]`. Keyword compounds (if, for, while, case,
// function definitions…) are refused as unparseable: their extent cannot be splice-safe without a full grammar.

import { Lexer, type Token } from './lexer.ts';
import { ShellSyntaxError } from './syntax-error.ts';
import type {
  AndOr,
  AndOrOp,
  Command,
  CommandFlag,
  CompoundCommand,
  List,
  ParseResult,
  PipeOp,
  Pipeline,
  Redirect,
  SimpleCommand,
  Word,
} from './types.ts';
import { isAssignmentWord } from './word.ts';

const KEYWORD_COMPOUNDS = new Set(['if', 'while', 'until', 'for', 'select', 'case', 'function', 'coproc']);
const MISPLACED_KEYWORDS = new Set(['then', 'else', 'elif', 'fi', 'do', 'done', 'esac', 'in', '}', ']]']);

/** Parses a command line; never throws: anything uncertain is an `unparseable` result. */
export function parseShell(source: string): ParseResult {
  try {
    const parser = new Parser(source);
    const list = parser.parseScript();
    return { kind: 'parsed', script: { source, list, flags: [...parser.lexer.flags] } };
  } catch (error) {
    if (error instanceof ShellSyntaxError) {
      return { kind: 'unparseable', code: error.code, message: error.message, offset: error.offset };
    }
    const code = error instanceof RangeError ? 'too-deep' : 'internal-error';
    return { kind: 'unparseable', code, message: String(error), offset: 0 };
  }
}

type ListEnd = 'eof' | ')' | '}';

class Parser {
  readonly lexer: Lexer;

  constructor(source: string) {
    this.lexer = new Lexer(source, () => this.parseSubstitution());
  }

  parseScript(): List {
    const list = this.parseList('eof');
    this.lexer.next();
    return list;
  }

  /** The list inside `$(…)` or `<(…)`, consuming the closing parenthesis. */
  private parseSubstitution(): void {
    this.parseList(')');
    this.lexer.next();
  }

  private parseList(end: ListEnd): List {
    const items: AndOr[] = [];
    for (;;) {
      this.skipNewlines();
      if (this.atListEnd(end)) break;
      const chain = this.parseAndOr();
      const t = this.lexer.peek();
      if (t.type === 'op' && (t.op === ';' || t.op === '&' || t.op === '\n')) {
        this.lexer.next();
        items.push({ ...chain, terminator: t.op, background: t.op === '&' });
      } else if (this.atListEnd(end)) {
        items.push({ ...chain, terminator: null, background: false });
        break;
      } else throw unexpected(t);
    }
    return { items };
  }

  private atListEnd(end: ListEnd): boolean {
    const t = this.lexer.peek();
    if (t.type === 'eof') {
      if (end === 'eof') return true;
      throw new ShellSyntaxError('unbalanced-parens', `missing ${end}`, t.start);
    }
    if (t.type === 'op' && t.op === ')') {
      if (end === ')') return true;
      throw new ShellSyntaxError('unbalanced-parens', 'unexpected )', t.start);
    }
    return end === '}' && t.type === 'word' && t.word.text === '}';
  }

  private parseAndOr(): Omit<AndOr, 'terminator' | 'background'> {
    const pipelines = [this.parsePipeline()];
    const operators: AndOrOp[] = [];
    for (let t = this.lexer.peek(); t.type === 'op' && (t.op === '&&' || t.op === '||'); t = this.lexer.peek()) {
      this.lexer.next();
      operators.push(t.op);
      this.skipNewlines();
      pipelines.push(this.parsePipeline());
    }
    const first = pipelines[0];
    const last = pipelines.at(-1);
    return { start: first?.start ?? 0, end: last?.end ?? 0, pipelines, operators };
  }

  private parsePipeline(): Pipeline {
    const start = this.lexer.peek().start;
    let negated = false;
    let timed = false;
    for (let t = this.lexer.peek(); t.type === 'word'; t = this.lexer.peek()) {
      if (t.word.text === '!') negated = !negated;
      else if (t.word.text === 'time') timed = true;
      else break;
      this.lexer.next();
      const option = this.lexer.peek();
      if (t.word.text === 'time' && option.type === 'word' && option.word.text === '-p') this.lexer.next();
    }
    const commands = [this.parseCommand()];
    const operators: PipeOp[] = [];
    for (let t = this.lexer.peek(); t.type === 'op' && (t.op === '|' || t.op === '|&'); t = this.lexer.peek()) {
      this.lexer.next();
      operators.push(t.op);
      this.skipNewlines();
      commands.push(this.parseCommand());
    }
    const end = commands.at(-1)?.end ?? start;
    return { start, end, negated, timed, commands, operators };
  }

  private parseCommand(): Command {
    const t = this.lexer.peek();
    if (t.type === 'op' && t.op === '(') {
      if (this.lexer.src[t.start + 1] === '(') return this.parseArithmeticCommand(t.start);
      return this.parseBlock('subshell', t.start, ')');
    }
    if (t.type === 'word') {
      const text = t.word.text;
      if (text === '{') return this.parseBlock('group', t.start, '}');
      if (text === '[[') return this.parseTest(t.start);
      if (KEYWORD_COMPOUNDS.has(text)) throw new ShellSyntaxError('unsupported-construct', `"${text}" compound`, t.start);
      if (MISPLACED_KEYWORDS.has(text)) throw unexpected(t);
    }
    if (t.type === 'word' || t.type === 'redir') return this.parseSimple();
    throw unexpected(t);
  }

  private parseBlock(kind: 'subshell' | 'group', start: number, close: ')' | '}'): CompoundCommand {
    this.lexer.next();
    this.lexer.flags.add(kind);
    let body: List = { items: [] };
    this.lexer.nested(() => {
      body = this.parseList(close);
    });
    const closing = this.lexer.next();
    if (body.items.length === 0) throw unexpected(closing);
    return this.withRedirects({ kind, start, end: closing.end, body, redirects: [] });
  }

  private parseArithmeticCommand(start: number): CompoundCommand {
    this.lexer.rewind(start);
    this.lexer.flags.add('arithmetic-command');
    const end = this.lexer.scanArithmeticCommand();
    return this.withRedirects({ kind: 'arithmetic', start, end, body: null, redirects: [] });
  }

  private parseTest(start: number): CompoundCommand {
    this.lexer.next();
    this.lexer.flags.add('test-command');
    // Inside [[ ]] `<`, `>`, `&&`, `(` are operators of the test itself; skip every token up to `]]`.
    for (;;) {
      const t = this.lexer.next();
      if (t.type === 'eof') throw new ShellSyntaxError('unbalanced-parens', 'missing ]]', start);
      if (t.type === 'word' && t.word.text === ']]') {
        return this.withRedirects({ kind: 'test', start, end: t.end, body: null, redirects: [] });
      }
    }
  }

  private withRedirects(command: CompoundCommand): CompoundCommand {
    const redirects: Redirect[] = [];
    while (this.lexer.peek().type === 'redir') redirects.push(this.parseRedirect(new Set()));
    const end = redirects.at(-1)?.end ?? command.end;
    return { ...command, end, redirects };
  }

  private parseSimple(): SimpleCommand {
    const assignments: Word[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    const flags = new Set<CommandFlag>();
    const start = this.lexer.peek().start;
    let end = start;
    for (let t = this.lexer.peek(); t.type === 'word' || t.type === 'redir'; t = this.lexer.peek()) {
      if (t.type === 'redir') {
        const redirect = this.parseRedirect(flags);
        redirects.push(redirect);
        end = redirect.end;
        continue;
      }
      this.lexer.next();
      if (words.length === 0 && isAssignmentWord(t.word.text)) assignments.push(t.word);
      else words.push(t.word);
      for (const flag of t.word.flags) flags.add(flag);
      end = t.end;
    }
    const after = this.lexer.peek();
    if (after.type === 'op' && after.op === '(') {
      // `name ()` opens a function definition; `cmd arg (` is a syntax error. Neither is ours to rewrite.
      throw new ShellSyntaxError('unsupported-construct', 'function definition or stray (', after.start);
    }
    return { kind: 'simple', start, end, assignments, words, redirects, flags: [...flags] };
  }

  private parseRedirect(flags: Set<CommandFlag>): Redirect {
    const t = this.lexer.next();
    if (t.type !== 'redir') throw unexpected(t);
    const target = this.lexer.next();
    if (target.type !== 'word') throw unexpected(target);
    const redirect: Redirect = { start: t.start, end: target.end, fd: t.fd, op: t.op, target: target.word, heredoc: null };
    for (const flag of target.word.flags) flags.add(flag);
    if (t.fd?.startsWith('{') === true) flags.add('named-fd');
    if (t.op === '<<' || t.op === '<<-') {
      flags.add('heredoc');
      this.lexer.flags.add('heredoc');
      this.lexer.queueHeredoc(redirect, t.op === '<<-');
    } else if (t.op === '<<<') {
      flags.add('herestring');
      this.lexer.flags.add('herestring');
    }
    return redirect;
  }

  private skipNewlines(): void {
    for (let t = this.lexer.peek(); t.type === 'op' && t.op === '\n'; t = this.lexer.peek()) this.lexer.next();
  }
}

function unexpected(t: Token): ShellSyntaxError {
  const what = t.type === 'eof' ? 'end of input' : t.type === 'word' ? t.word.text : t.op;
  return new ShellSyntaxError('unexpected-token', `unexpected ${JSON.stringify(what)}`, t.start);
}

/** Every simple command of a list, in source order, descending into subshells and groups. */
export function simpleCommands(list: List): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  for (const chain of list.items) {
    for (const pipeline of chain.pipelines) {
      for (const command of pipeline.commands) {
        if (command.kind === 'simple') out.push(command);
        else if (command.body !== null) out.push(...simpleCommands(command.body));
      }
    }
  }
  return out;
}
