/**
 * `tokenless retrieve ID --lines | --grep | --search` end to end: a real `tokenless run` view, its retrieval line
 * copied as the agent would, parts printed on stdout with one note on stderr, the README's exit codes.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

function shownView(): { env: Record<string, string>; line: string; id: string } {
  const env = { TOKENLESS_DATA_DIR: tempDir(), TOKENLESS_SESSION_ID: 'part-session' };
  const run = runCli(['run', '--', 'seq', '1', '3000'], { env });
  expect(run.status).toBe(0);
  const line = run.stdout.trimEnd().split('\n').at(-1) ?? '';
  expect(line).toMatch(/^\[tokenless retrieve [0-9]{29}\]$/);
  return { env, line, id: line.slice(20, 49) };
}

describe('tokenless retrieve, part of the original', () => {
  it('prints a line range exactly, and says how to go on', () => {
    const { env, line, id } = shownView();
    // The whole retrieval line, pasted as one argument, is accepted like the bare id.
    const part = runCli(['retrieve', line, '--lines', '120-123'], { env });
    expect(part).toMatchObject({ status: 0, stdout: '120\n121\n122\n123\n' });
    expect(part.stderr).toBe(`[tokenless retrieve: lines 120-123 of 3000; more: tokenless retrieve ${id} --lines 124-]\n`);
    const whole = runCli(['retrieve', id], { env });
    expect(whole.stdout).toBe(Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join(''));
    expect(whole.stderr).toBe('');
  });

  it('greps with context and searches sections', () => {
    const { env, id } = shownView();
    const grep = runCli(['retrieve', id, '--grep', '^(1500|2999)$', '-C', '1'], { env });
    expect(grep).toMatchObject({ status: 0, stdout: '1499-1499\n1500:1500\n1501-1501\n--\n2998-2998\n2999:2999\n3000-3000\n' });
    expect(grep.stderr).toMatch(/2 lines of 3000 lines match/);
    const search = runCli(['retrieve', id, '--search', '2999'], { env });
    expect(search.status).toBe(0);
    expect(search.stdout.split('\n')[0]).toBe('── lines 2971-3000 ──');
    expect(search.stdout).toContain('\n2999\n');
  });

  it('exits 2 on malformed options and 1 on a marker the session was not shown, printing nothing', () => {
    const { env, id } = shownView();
    for (const args of [['--lines', '0'], ['--grep', '('], ['--grep', 'a', '--search', 'b'], ['-C', '2'], ['--search', 'x', '--top', '99']]) {
      const result = runCli(['retrieve', id, ...args], { env });
      expect(result, args.join(' ')).toMatchObject({ status: 2, stdout: '' });
      expect(result.stderr).toMatch(/^tokenless retrieve: /);
    }
    const other = runCli(['retrieve', id, '--lines', '1'], { env: { ...env, TOKENLESS_SESSION_ID: 'another' } });
    expect(other).toMatchObject({ status: 1, stdout: '' });
    expect(other.stderr).toContain(`marker ${id} was not shown in session another`);
  });

  it('bounds a --grep pattern in time (exit 1, the limit named) and refuses a --session that is not the shell\'s own', () => {
    const env = { TOKENLESS_DATA_DIR: tempDir(), TOKENLESS_SESSION_ID: 'part-session' };
    const run = runCli(['run', '--', 'sh', '-c', `seq 1 3000; echo ${'a'.repeat(40)}b`], { env });
    const id = /\[tokenless retrieve ([0-9]{29})\]/.exec(run.stdout)?.[1] ?? '';
    expect(id).not.toBe('');
    const started = Date.now();
    const grep = runCli(['retrieve', id, '--grep', '^(a|a)*$'], { env });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(grep).toMatchObject({ status: 1, stdout: '' });
    expect(grep.stderr).toMatch(/^tokenless retrieve: --grep \/\^\(a\|a\)\*\$\/ did not finish within the 2 s limit/);
    const other = runCli(['retrieve', id, '--session', 'another'], { env });
    expect(other).toMatchObject({ status: 1, stdout: '' });
    expect(other.stderr).toContain("--session another is not this shell's session (part-session)");
  }, 15_000);
});
