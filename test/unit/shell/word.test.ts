import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShell, simpleCommands } from '../../../src/shell/parse.ts';
import { shellQuote } from '../../../src/shell/quote.ts';
import { assignmentName, heredocDelimiter, isAssignmentWord, literalValue } from '../../../src/shell/word.ts';

describe('literalValue', () => {
  it.each([
    ['git', 'git'],
    ["'git'", 'git'],
    ['"git"', 'git'],
    ['g\\it', 'git'],
    ['"g"\'i\'t', 'git'],
    ['gi\\\nt', 'git'],
    ["'a b'", 'a b'],
    ['"a\\"b"', 'a"b'],
    ['"a\\nb"', 'a\\nb'],
    ['"a\\$b"', 'a$b'],
    ['\\$HOME', '$HOME'],
    ["''", ''],
    ['日本語', '日本語'],
    ['--flag=value', '--flag=value'],
    ['a]b', 'a]b'],
    ['}', '}'],
    ['a#b', 'a#b'],
    // Not assignment-looking: bash leaves these tildes alone (checked in bash 5).
    ['--p=~/b', '--p=~/b'],
    ['a:~/c', 'a:~/c'],
    ['./x=~', './x=~'],
    ['1x=~', '1x=~'],
  ])('reads %j as %j', (text, value) => {
    expect(literalValue(text)).toBe(value);
  });

  it.each([
    '$X',
    '${X}',
    '"$X"',
    '$(git)',
    '`git`',
    '*.js',
    'file?',
    '[ab]',
    '{a,b}',
    '~/bin',
    '~',
    '=ls',
    // bash expands a tilde after `=` and `:` in any assignment-looking word, argument or not (issue 30, item 3).
    'x=~/.bashrc',
    'x=a:~/d',
    'a[1]=~',
    'x+=~',
    "$'git'",
    '$"git"',
    '"unterminated',
    "'unterminated",
    'trailing\\',
    'a b',
  ])('finds %j not static', (text) => {
    expect(literalValue(text)).toBeNull();
  });
});

describe('shellQuote', () => {
  it.each([
    ['git', 'git'],
    ['/usr/bin/node', '/usr/bin/node'],
    ['a-b_c.d,e:f@g%h+i', 'a-b_c.d,e:f@g%h+i'],
    ['k=v', 'k=v'],
    ['', "''"],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
    ['~x', "'~x'"],
    ['=x', "'=x'"],
    ['*', "'*'"],
    ['日本', "'日本'"],
    ['a\nb', "'a\nb'"],
  ])('quotes %j as %j', (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });

  it('round-trips any string through literalValue and through the parser as one word', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (word) => {
        const quoted = shellQuote(word);
        expect(literalValue(quoted)).toBe(word);
        const result = parseShell(`cmd ${quoted}`);
        expect(result.kind).toBe('parsed');
        if (result.kind !== 'parsed') return;
        const words = simpleCommands(result.script.list)[0]?.words.map((w) => w.text);
        expect(words).toEqual(['cmd', quoted]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('assignment words', () => {
  it.each([
    ['FOO=1', 'FOO'],
    ['_x=', '_x'],
    ['A+=b', 'A'],
    ['arr[1]=x', 'arr'],
    ['1A=x', null],
    ['"A"=x', null],
    ['=x', null],
    ['a-b=x', null],
  ])('reads the name of %j as %j', (text, name) => {
    expect(assignmentName(text)).toBe(name);
    expect(isAssignmentWord(text)).toBe(name !== null);
  });
});

describe('heredocDelimiter', () => {
  it.each([
    ['EOF', 'EOF', false],
    ["'EOF'", 'EOF', true],
    ['"EOF"', 'EOF', true],
    ['\\EOF', 'EOF', true],
    ['E"O"F', 'EOF', true],
  ])('reads %j as %j (quoted: %s)', (text, delimiter, quoted) => {
    expect(heredocDelimiter(text)).toEqual({ delimiter, quoted });
  });
});
