/**
 * Every command (the last test checks the list against the program's own help), given a bad option value and (where
 * it reads one) a path that does not exist: the message names the program as invoked, the command, the option or
 * path, the value given and what is allowed; the exit code is the README's (2 usage error or malformed input, 1 the
 * operation failed). Run through a `syt` symlink to the built CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.ts';
let home = '';

// Shared by every test of the file (useTempDirs would remove it after the first test).
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'syt-cli-errors-'));
  mkdirSync(join(home, 'bin'));
  symlinkSync(CLI, join(home, 'bin', 'syt'));
  symlinkSync(CLI, join(home, 'bin', 'tokenless'));
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(name: 'syt' | 'tokenless', args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(home, 'bin', name), ...args], {
    cwd: home,
    input: '',
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TZ: 'UTC', NO_COLOR: '1', TOKENLESS_DATA_DIR: join(home, 'data'), CLAUDE_CONFIG_DIR: join(home, 'claude'), TOKENLESS_CLAUDE_BIN: '/nonexistent/claude' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// [command as typed, expected exit code, what the one stderr line must say]
const BAD_VALUES: readonly (readonly [string, readonly string[], 1 | 2, RegExp])[] = [
  ['retrieve', ['retrieve', 'garbage'], 2, /^syt retrieve: "garbage" is not a marker: expected \[tokenless retrieve ID\]/],
  ['filter', ['filter', '--command', 'git status', '--exit-code', 'abc'], 2, /^syt filter: --exit-code "abc": expected a whole number/],
  ['rewrite', ['rewrite', 'git status', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['demo', ['demo', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['stats status', ['stats', 'status', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['stats summary --format', ['stats', 'summary', '--format', 'xml'], 2, /^syt stats summary: --format "xml": expected one of table, json, csv$/],
  ['stats summary --limit', ['stats', 'summary', '--limit', 'abc'], 2, /^syt stats summary: --limit "abc": expected a whole number/],
  ['stats summary --since', ['stats', 'summary', '--since', 'soon'], 2, /^syt stats: --since expects YYYY-MM-DD, an ISO time, or Nd\/Nh; got soon$/],
  ['stats list', ['stats', 'list', '--limit', '-1'], 2, /^syt stats list: --limit "-1": expected a whole number/],
  ['stats show', ['stats', 'show', 'abc'], 2, /^syt stats show: record id "abc": expected a whole number/],
  ['stats diff', ['stats', 'diff', 'abc'], 2, /^syt stats diff: give a record ID/],
  ['stats compare', ['stats', 'compare', 'a', 'b', '--limit', 'x'], 2, /^syt stats compare: --limit "x": expected a whole number/],
  ['stats usage', ['stats', 'usage', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['stats enable', ['stats', 'enable', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['stats export --batch', ['stats', 'export', '--otlp', '--batch', 'abc'], 2, /^syt stats export: --batch "abc": expected a whole number/],
  ['stats disable', ['stats', 'disable', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['stats clear', ['stats', 'clear'], 2, /^syt stats clear: deletes every record; run again with --yes$/],
  ['cost --rereads', ['cost', '--rereads', 'many'], 2, /^syt cost: --rereads "many": expected a whole number/],
  ['cost --cache-hit-rate', ['cost', '--cache-hit-rate', '2'], 2, /^syt cost: --cache-hit-rate "2": expected a share between 0 and 1$/],
  ['cost --model', ['cost', '--model', 'nope'], 2, /^syt cost: --model nope has no price/],
  ['cost history --max-sessions', ['cost', 'history', '--max-sessions', 'many'], 2, /^syt cost history: --max-sessions "many": expected a whole number/],
  ['cost history --since', ['cost', 'history', '--since', 'soon'], 2, /^syt cost history: --since expects YYYY-MM-DD, an ISO time, or Nd\/Nh; got soon$/],
  ['cost simulate', ['cost', 'simulate', '--bogus', 'x.jsonl'], 2, /^syt: unknown option '--bogus'/],
  ['dashboard', ['dashboard', '--limit', 'x'], 2, /^syt dashboard: --limit "x": expected a whole number/],
  ['analyze', ['analyze', '--context-window', '-5'], 2, /^syt analyze: --context-window "-5": expected a whole number of tokens$/],
  ['analyze FILE', ['analyze', CLI], 2, /^syt analyze: \S+cli\.cjs is a file, not a project directory \(for a transcript: syt analyze --log /],
  ['skills', ['skills', '--profile', 'galaxy'], 2, /^syt skills: unknown profile galaxy \(chat, agentic, rag\)$/],
  ['skills --context-window', ['skills', '--context-window', '0'], 2, /^syt skills: --context-window "0": expected a whole number of tokens, 1 or more$/],
  ['skills FILE', ['skills', CLI], 2, /^syt skills: \S+cli\.cjs is a file, not a project directory$/],
  ['chunk', ['chunk', 'x.md', '--max-tokens', 'abc'], 2, /^syt chunk: --max-tokens "abc": expected a whole number of tokens, 1 or more$/],
  ['chunk --max-tokens 0 (was accepted)', ['chunk', 'x.md', '--max-tokens', '0'], 2, /^syt chunk: --max-tokens "0": expected a whole number of tokens, 1 or more$/],
  ['compact', ['compact', '--profile', 'galaxy'], 2, /^syt compact: unknown profile galaxy \(chat, agentic, rag\)$/],
  // Issue 29's smaller defects, each named after what it did.
  ['cost --since names syt stats', ['cost', '--since', 'yesterday'], 2, /^syt cost: --since expects YYYY-MM-DD, an ISO time, or Nd\/Nh; got yesterday$/],
  ['cost --model names a source file and lists no models', ['cost', '--model', 'gpt-9'], 2, /^syt cost: --model gpt-9 has no price; known models: claude-[\w.-]+(, [\w.-]+){3,}$/],
  ['plan --rpm abc accepted', ['plan', 'x.json', '--rpm', 'abc'], 2, /^syt plan: --rpm "abc": expected a number of 0 or more$/],
  ['run --bogus -- ls accepted', ['run', '--bogus', '--', 'ls'], 2, /^tokenless run: unknown option '--bogus' \(allowed before --: --view-as "<program> <args>", --help\)$/],
  ['cost simulate /etc/passwd exits 0 with a report', ['cost', 'simulate', '/etc/passwd'], 2, /^syt cost simulate: \/etc\/passwd is not a Claude Code transcript \(no request with recorded usage in it\)$/],
  ['plan', ['plan', 'x.json', '--engine', 'nope'], 2, /^syt plan: --engine "nope": expected one of anthropic, openai/],
  ['schema', ['schema', 'x.json', '--mode', 'lossy'], 2, /^syt schema: --mode "lossy": expected one of recoverable, lossless$/],
  ['select', ['select', 'q', '--chunks', '.', '--order', 'random'], 2, /^syt select: --order "random": expected one of deterministic, relevance$/],
  ['select --max', ['select', 'q', '--chunks', '.', '--max', 'abc'], 2, /^syt select: --max "abc": expected a number of 0 or more$/],
  ['gateway', ['gateway', '--port', '99999'], 2, /^syt gateway: --port "99999": expected a port number/],
  ['gateway --keep-warm-cap', ['gateway', '--keep-warm', '--keep-warm-cap', 'lots'], 2, /^syt gateway: --keep-warm-cap "lots": expected a number of 0 or more/],
  ['gateway --keep-warm-idle without --keep-warm', ['gateway', '--keep-warm-idle', '5'], 2, /^syt gateway: --keep-warm-cap and --keep-warm-idle go with --keep-warm/],
  ['init', ['init', '--scope', 'galaxy'], 2, /^syt init: --scope "galaxy": expected one of project, user$/],
  ['init --port', ['init', '--http', '--port', '70000'], 2, /^syt init: --port "70000": expected a port number \(0-65535\)$/],
  ['doctor', ['doctor', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['serve', ['serve', '--port', 'abc'], 2, /^syt serve: --port "abc": expected a port number/],
  ['serve --port out of range', ['serve', '--port', '99999'], 2, /^syt serve: --port "99999": expected a port number \(0-65535\)$/],
  ['hook', ['hook', 'nonsense'], 2, /usage: tokenless hook </],
  ['run', ['run'], 2, /usage: tokenless run /],
  ['discover', ['discover', '--mode', 'auto'], 2, /^syt discover: --mode "auto": expected one of default, bypass$/],
  ['filters list', ['filters', 'list', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['filters test', ['filters', 'test', '--bogus'], 2, /^syt: unknown option '--bogus'/],
  ['filters try', ['filters', 'try', 'x.toml'], 2, /^syt: missing required argument 'command'/],
  ['filters trust', ['filters', 'trust', '--bogus'], 2, /^syt: unknown option '--bogus'/],
];

const MISSING_PATHS: readonly (readonly [string, readonly string[], RegExp])[] = [
  ['analyze DIR', ['analyze', '/nonexistent'], /^syt analyze: no such directory: \/nonexistent$/],
  ['analyze --log', ['analyze', '--log', '/nonexistent.jsonl'], /^syt analyze: no such file or folder: \/nonexistent.jsonl$/],
  ['skills DIR', ['skills', '/nonexistent'], /^syt skills: no such directory: \/nonexistent$/],
  ['compact FILE', ['compact', '/nonexistent.md'], /^syt compact: no such file: \/nonexistent.md \(nothing was changed\)$/],
  ['compact --restore', ['compact', '--restore', '/nonexistent.md'], /^syt compact --restore: cannot read \/nonexistent.md: no such file$/],
  ['filter --stderr', ['filter', '--command', 'git status', '--stderr', '/nonexistent'], /^syt filter: cannot read --stderr file: .*\/nonexistent/],
  ['stats usage --log', ['stats', 'usage', '--log', '/nonexistent.jsonl'], /^syt stats usage: no such transcript: \/nonexistent.jsonl$/],
  ['stats usage --claude-dir', ['stats', 'usage', '--claude-dir', '/nonexistent'], /^syt stats usage: no such directory: \/nonexistent$/],
  ['cost --log', ['cost', '--log', '/nonexistent.jsonl'], /^syt cost: no such transcript: \/nonexistent.jsonl$/],
  ['cost history PATH', ['cost', 'history', '/nonexistent.jsonl'], /^syt cost history: no such file or directory: \/nonexistent.jsonl$/],
  ['cost history --claude-dir', ['cost', 'history', '--claude-dir', '/nonexistent'], /^syt cost history: no such file or directory: \/nonexistent$/],
  ['cost --claude-dir', ['cost', '--claude-dir', '/nonexistent'], /^syt cost: no such directory: \/nonexistent$/],
  ['cost simulate', ['cost', 'simulate', '/nonexistent.jsonl'], /^syt cost simulate: no such transcript: \/nonexistent.jsonl$/],
  ['dashboard --log', ['dashboard', '--log', '/nonexistent.jsonl'], /^syt dashboard: no such transcript: \/nonexistent.jsonl$/],
  ['dashboard --claude-dir', ['dashboard', '--claude-dir', '/nonexistent'], /^syt dashboard: no such directory: \/nonexistent$/],
  ['dashboard --out', ['dashboard', '--out', '/nonexistent/dir/d.html'], /^syt dashboard: cannot write \/nonexistent\/dir\/d.html: /],
  ['select --chunks', ['select', 'q', '--chunks', '/nonexistent'], /^syt select: cannot read chunks directory \/nonexistent/],
  ['chunk', ['chunk', '/nonexistent.md'], /^syt chunk: cannot read \/nonexistent.md/],
  ['schema', ['schema', '/nonexistent.json'], /^syt schema: cannot read \/nonexistent.json/],
  ['plan', ['plan', '/nonexistent.json'], /^syt plan: cannot read \/nonexistent.json/],
  ['filters test FILE', ['filters', 'test', '/nonexistent.toml'], /^syt filters test: cannot read \/nonexistent.toml \(ENOENT\)$/],
  ['filters try FILE', ['filters', 'try', '/nonexistent.toml', '--', 'true'], /^syt filters try: cannot read \/nonexistent.toml \(ENOENT\)$/],
];

describe('option errors and exit codes, every command (built CLI as `syt`)', () => {
  it.each(BAD_VALUES)('%s: a bad value is a usage error that says what is allowed', (_name, args, code, message) => {
    const result = run('syt', args);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.status).toBe(code);
    expect(result.stdout).toBe('');
  });

  it.each(MISSING_PATHS)('%s: a missing path fails (exit 1), names the path and prints no report', (_name, args, message) => {
    const result = run('syt', args);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
  });

  it('hook --help lists every lifecycle and session (hook --help omits session regression)', () => {
    const help = run('syt', ['hook', '--help']).stdout;
    for (const lifecycle of ['before_model', 'pre_tool', 'post_tool', 'retrieve', 'session']) expect(help).toMatch(new RegExp(`\\b${lifecycle}\\b`, 'u'));
  });

  it('the same error says `tokenless` when invoked as tokenless', () => {
    const result = run('tokenless', ['stats', 'summary', '--format', 'xml']);
    expect(result.stderr).toBe('tokenless stats summary: --format "xml": expected one of table, json, csv\n');
    expect(result.status).toBe(2);
  });

  // Their messages are written `syt …` or `tokenless …` in the source; what prints is the name typed.
  it.each([
    [['cost', '--model', 'nope'], /^tokenless cost: --model nope has no price/],
    [['cost', '--log', '/nonexistent.jsonl'], /^tokenless cost: no such transcript/],
    [['init', '--scope', 'galaxy'], /^tokenless init: --scope "galaxy"/],
    [['init', '--harness', 'gemini-cli', '--http'], /^tokenless init: --http serves Claude Code only/],
    [['dashboard', '--limit', 'x'], /^tokenless dashboard: --limit "x"/],
    [['dashboard', '--log', '/nonexistent.jsonl'], /^tokenless dashboard: no such transcript/],
  ])('invoked as tokenless, %j names tokenless', (args, message) => {
    const result = run('tokenless', args);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\bsyt\b/);
    for (const line of run('syt', args).stderr.split('\n').filter(Boolean)) expect(line).not.toMatch(/^tokenless\b/);
  });

  it("doctor's advice names the command as invoked", () => {
    const as = (name: 'syt' | 'tokenless') => run(name, ['doctor']).stdout.replace(/\s+/g, ' ');
    expect(as('tokenless')).toContain('run `tokenless init`');
    expect(as('tokenless')).not.toMatch(/`syt /);
    expect(as('syt')).toContain('run `syt init`');
    expect(as('syt')).not.toMatch(/`tokenless /);
  });

  it('every command of the program has a bad-value case above (new commands need one)', () => {
    const commands = (path: readonly string[]): string[][] => {
      const help = run('syt', [...path, '--help']).stdout;
      const section = help.slice(help.indexOf('\nCommands:\n') + 1);
      if (!help.includes('\nCommands:\n')) return [];
      const names = [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((match) => match[1] ?? '').filter((name) => name !== 'help');
      return names.flatMap((name) => [[...path, name], ...commands([...path, name])]);
    };
    const all = commands([]);
    expect(all.length).toBeGreaterThan(25);
    expect(all.map((path) => path.join(' '))).toEqual(expect.arrayContaining(['discover', 'filters list', 'filters test', 'filters try', 'filters trust']));
    const groups = new Set(['stats', 'filters']);
    const covered = (path: readonly string[]): boolean =>
      BAD_VALUES.some(([, args]) => path.every((word, i) => args[i] === word) && !all.some((other) => other.length === path.length + 1 && other.slice(0, -1).join(' ') === path.join(' ') && other.at(-1) === args[path.length]));
    expect(all.filter((path) => !groups.has(path.join(' ')) && !covered(path)).map((path) => path.join(' '))).toEqual([]);
  });

  it('a well-formed marker that is not in the stash is an operation failure (exit 1), not a usage error', () => {
    const result = run('syt', ['retrieve', '0123456789abcdef01234567', '--session', 's1']);
    expect(result.stderr).toMatch(/^syt retrieve: marker \S+ /);
    expect(result.status).toBe(1);
  });
});
