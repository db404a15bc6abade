import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShell, simpleCommands } from '../../../src/shell/parse.ts';
import type { Command, Script, SimpleCommand } from '../../../src/shell/types.ts';

function parsed(source: string): Script {
  const result = parseShell(source);
  if (result.kind !== 'parsed') throw new Error(`unparseable: ${result.code} ${result.message}`);
  return result.script;
}

/** The source text of every simple command, in order, nested ones included. */
function commandTexts(source: string): string[] {
  return simpleCommands(parsed(source).list).map((command) => source.slice(command.start, command.end));
}

function only(source: string): SimpleCommand {
  const [command, ...rest] = simpleCommands(parsed(source).list);
  if (command === undefined || rest.length > 0) throw new Error('expected exactly one simple command');
  return command;
}

function topLevel(source: string): Command[] {
  return parsed(source).list.items.flatMap((chain) => chain.pipelines.flatMap((pipeline) => [...pipeline.commands]));
}

describe('parseShell', () => {
  it.each([
    ['git status', ['git status']],
    ['a && b || c; d & e', ['a', 'b', 'c', 'd', 'e']],
    ['a\nb\n\nc', ['a', 'b', 'c']],
    ['a | b |& c', ['a', 'b', 'c']],
    ['echo "x && y" \'a;b\' c', ['echo "x && y" \'a;b\' c']],
    ['echo $(a && b; c) | wc', ['echo $(a && b; c)', 'wc']],
    ['echo $(echo $(echo "$(date)")) && ls', ['echo $(echo $(echo "$(date)"))', 'ls']],
    ['echo "$(echo ")")" && ls', ['echo "$(echo ")")"', 'ls']],
    ['echo $(cat <<EOF\n)\nEOF\n) && ls', ['echo $(cat <<EOF\n)\nEOF\n)', 'ls']],
    ['echo `a && b` && c', ['echo `a && b`', 'c']],
    ['echo ${x:-a && b} && c', ['echo ${x:-a && b}', 'c']],
    ['echo $((1 && 2)) && c', ['echo $((1 && 2))', 'c']],
    ['diff <(a | b) >(c) && ls', ['diff <(a | b) >(c)', 'ls']],
    ['(cd x && make) && git status', ['cd x', 'make', 'git status']],
    ['{ a; b; } > log', ['a', 'b']],
    ['a # comment && b\nc', ['a', 'c']],
    ['echo a#b', ['echo a#b']],
    ['git \\\nstatus && ls', ['git \\\nstatus', 'ls']],
    ['FOO=1 BAR="x y" cmd arg', ['FOO=1 BAR="x y" cmd arg']],
    ['a &&\n b', ['a', 'b']],
    ['a |\n b', ['a', 'b']],
    ['echo "unicode ✓ 日本語" && ls', ['echo "unicode ✓ 日本語"', 'ls']],
    ['echo 🎉&&ls', ['echo 🎉', 'ls']],
    ['echo a\u00a0b', ['echo a\u00a0b']],
    ["echo $'it\\'s' && b", ["echo $'it\\'s'", 'b']],
    ['echo $"hello" ; b', ['echo $"hello"', 'b']],
    ['! git diff --quiet', ['git diff --quiet']],
    ['time -p make', ['make']],
    ['(( i++ )) && ls', ['ls']],
    ['[[ -f a && b < c ]] || ls', ['ls']],
    ['a=(1 "2 3") cmd', ['a=(1 "2 3") cmd']],
    ['echo ")" "(" \\( \\)', ['echo ")" "(" \\( \\)']],
    ['a;b&c', ['a', 'b', 'c']],
    ['ls ;', ['ls']],
    ['\n\nls\n', ['ls']],
    ['', []],
    ['# only a comment', []],
    ['echo $() x', ['echo $() x']],
  ])('splits %j into its simple commands', (source, expected) => {
    expect(commandTexts(source)).toEqual(expected);
  });

  it('keeps and-or operators, terminators and background flags', () => {
    const items = parsed('a && b || c & d; e\nf').list.items;
    expect(items.map((item) => [item.operators, item.terminator, item.background])).toEqual([
      [['&&', '||'], '&', true],
      [[], ';', false],
      [[], '\n', false],
      [[], null, false],
    ]);
  });

  it('records pipe operators, negation and time', () => {
    const [pipeline] = parsed('! time a | b |& c').list.items[0]?.pipelines ?? [];
    expect(pipeline?.operators).toEqual(['|', '|&']);
    expect(pipeline?.negated).toBe(true);
    expect(pipeline?.timed).toBe(true);
  });

  it('separates assignments, words and redirects with exact spans', () => {
    const source = 'FOO=1 BAR="x y" <in git log 2>&1 -5 >>out';
    const command = only(source);
    expect(command.assignments.map((word) => word.text)).toEqual(['FOO=1', 'BAR="x y"']);
    expect(command.words.map((word) => word.text)).toEqual(['git', 'log', '-5']);
    expect(command.redirects.map((r) => [r.fd, r.op, r.target.text, source.slice(r.start, r.end)])).toEqual([
      [null, '<', 'in', '<in'],
      ['2', '>&', '1', '2>&1'],
      [null, '>>', 'out', '>>out'],
    ]);
    for (const word of [...command.assignments, ...command.words]) expect(source.slice(word.start, word.end)).toBe(word.text);
  });

  it.each([
    ['cat > out', null, '>'],
    ['cat >| out', null, '>|'],
    ['cat &> out', null, '&>'],
    ['cat &>> out', null, '&>>'],
    ['cat 3< in', '3', '<'],
    ['cat 10>&-', '10', '>&'],
    ['cat <> f', null, '<>'],
    ['cat <&3', null, '<&'],
    ['cat <<< "word"', null, '<<<'],
    ['cat {fd}> f', '{fd}', '>'],
  ])('reads the redirect in %j', (source, fd, op) => {
    const [redirect] = only(source).redirects;
    expect([redirect?.fd, redirect?.op]).toEqual([fd, op]);
  });

  it('does not take a word with letters before > as a file descriptor', () => {
    const command = only('echo a2>x');
    expect(command.words.map((word) => word.text)).toEqual(['echo', 'a2']);
    expect(command.redirects[0]?.fd).toBeNull();
  });

  it.each([
    ['cat <<EOF\nhello && bye\nEOF\nls', 'EOF', false, 'hello && bye\nEOF\n'],
    ["cat <<'EOF' | wc\n$(x)\nEOF\nls", 'EOF', true, '$(x)\nEOF\n'],
    ['cat <<-"END"\n\tbody\n\tEND\nls', 'END', true, '\tbody\n\tEND\n'],
    ['cat <<E\\OF\nx\nEOF\nls', 'EOF', true, 'x\nEOF\n'],
  ])('reads the heredoc body of %j', (source, delimiter, quoted, body) => {
    const script = parsed(source);
    const [first] = simpleCommands(script.list);
    const heredoc = first?.redirects[0]?.heredoc;
    expect(heredoc?.delimiter).toBe(delimiter);
    expect(heredoc?.quoted).toBe(quoted);
    expect(heredoc === undefined || heredoc === null ? null : source.slice(heredoc.bodyStart, heredoc.bodyEnd)).toBe(body);
    expect(simpleCommands(script.list).at(-1)?.words[0]?.text).toBe('ls');
    expect(script.flags).toContain('heredoc');
  });

  it('reads two heredocs on one line in order', () => {
    const source = 'cat <<A <<B\na\nA\nb\nB\necho done';
    const [command, after] = simpleCommands(parsed(source).list);
    expect(command?.redirects.map((r) => r.heredoc?.delimiter)).toEqual(['A', 'B']);
    expect(after?.words.map((word) => word.text)).toEqual(['echo', 'done']);
  });

  it('accepts a heredoc whose delimiter is the last line without a newline', () => {
    expect(commandTexts('cat <<EOF\nx\nEOF')).toEqual(['cat <<EOF']);
  });

  it.each([
    ['echo $HOME', ['parameter']],
    ['echo ${HOME}', ['parameter']],
    ['echo $(date)', ['command-substitution']],
    ['echo `date`', ['backtick']],
    ['echo $((1+1))', ['arithmetic']],
    ['echo *.js', ['glob']],
    ['echo {a,b}', ['brace']],
    ['echo ~/x', ['tilde']],
    ["echo $'\\n'", ['ansi-c-quote']],
    ['echo $"x"', ['locale-quote']],
    ['cat <(ls)', ['process-substitution']],
    ['gi\\\nt', ['line-continuation']],
    ['cat <<< x', ['herestring']],
  ])('flags %j', (source, flags) => {
    expect(only(source).flags).toEqual(expect.arrayContaining(flags));
  });

  it.each([
    ['( a; b ) > out', 'subshell'],
    ['{ a; b; }', 'group'],
    ['(( x = 1 ))', 'arithmetic'],
    ['[[ -n $x ]]', 'test'],
  ])('parses %j as a %s compound command', (source, kind) => {
    const [command] = topLevel(source);
    expect(command?.kind).toBe(kind);
    expect(command?.start).toBe(0);
    expect(command?.end).toBe(source.length);
  });

  it.each([
    ["echo 'unterminated", 'unterminated-quote'],
    ['echo "unterminated', 'unterminated-quote'],
    ['echo "a $(b "c)', 'unterminated-quote'],
    ['echo $(b "c)', 'unterminated-quote'],
    ['echo $(ls', 'unbalanced-parens'],
    ['echo `ls', 'unterminated-substitution'],
    ['echo ${x', 'unterminated-substitution'],
    ['echo $((1+2', 'unterminated-substitution'],
    ['echo $((1+2)', 'unsupported-construct'],
    ['(a; b', 'unbalanced-parens'],
    ['a )', 'unbalanced-parens'],
    ['{ a; b', 'unbalanced-parens'],
    ['{ a }', 'unbalanced-parens'],
    ['cat <<EOF\nno end', 'unterminated-heredoc'],
    ['cat <<EOF', 'unterminated-heredoc'],
    ['echo \\', 'trailing-backslash'],
    ['&& ls', 'unexpected-token'],
    ['ls && && ls', 'unexpected-token'],
    ['ls ;; ls', 'unexpected-token'],
    ['; ls', 'unexpected-token'],
    ['ls |', 'unexpected-token'],
    ['ls >', 'unexpected-token'],
    ['()', 'unexpected-token'],
    ['}', 'unexpected-token'],
    ['done', 'unexpected-token'],
    ['if true; then ls; fi', 'unsupported-construct'],
    ['for f in *; do git add "$f"; done', 'unsupported-construct'],
    ['while true; do :; done', 'unsupported-construct'],
    ['case $x in a) ls;; esac', 'unsupported-construct'],
    ['echo $(case $x in a) ls;; esac)', 'unsupported-construct'],
    ['f() { ls; }', 'unsupported-construct'],
    ['function f { ls; }', 'unsupported-construct'],
    ['ls @(a|b)', 'unsupported-construct'],
    ['echo "${x:-\'a\'}"', 'unsupported-construct'],
    ['echo $((a) b)', 'unsupported-construct'],
    ['echo $( (a) b)', 'unexpected-token'],
    ['echo ' + '$('.repeat(200) + ')'.repeat(200), 'too-deep'],
  ])('refuses %j as %s', (source, code) => {
    const result = parseShell(source);
    expect(result.kind === 'unparseable' ? result.code : 'parsed').toBe(code);
  });

  it('keeps reserved words that are arguments or quoted as plain words', () => {
    expect(commandTexts('echo if then fi done; "if" x')).toEqual(['echo if then fi done', '"if" x']);
  });

  it('reads a word after assignments as a command even when it looks like a keyword', () => {
    expect(only('FOO=1 if').words.map((word) => word.text)).toEqual(['if']);
  });
});

describe('parseShell on arbitrary input', () => {
  it('never throws, and every span it reports is the exact source text', () => {
    const pieces = ['a', ' ', '\n', '"', "'", '\\', '$', '(', ')', '`', '{', '}', ';', '&', '|', '<', '>', '#', '=', '*', '2', 'é', '🎉', 'if', '<<E\n', 'E\n', '$(', '${', '$((', '))'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 30 }), (parts) => {
        const source = parts.join('');
        const result = parseShell(source);
        if (result.kind === 'unparseable') {
          expect(result.offset).toBeGreaterThanOrEqual(0);
          expect(result.offset).toBeLessThanOrEqual(source.length);
          return;
        }
        for (const command of simpleCommands(result.script.list)) {
          expect(command.start).toBeLessThanOrEqual(command.end);
          for (const word of [...command.assignments, ...command.words, ...command.redirects.map((r) => r.target)]) {
            expect(source.slice(word.start, word.end)).toBe(word.text);
            expect(word.start).toBeGreaterThanOrEqual(command.start);
            expect(word.end).toBeLessThanOrEqual(command.end);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });
});
