/** Regressions from a newcomer's first hour (issue 18): figures that must not count, reasons that must be the real ones. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

const records = (env: Record<string, string>): number => (JSON.parse(runCli(['stats', 'status', '--json'], { env }).stdout) as { records: number }).records;

// Lines the generic folding shortens (checked below through `filter`), so a run that counted them would show a marker.
const bigLog = Array.from({ length: 5000 }, (_, i) => `2026-03-01 INFO worker processed batch ${i + 1}`).join('\n') + '\n';

describe('previews and agent-limited output are never counted as savings', () => {
  it('an offline `tokenless filter` preview writes no stats record, and its marker still retrieves', () => {
    const home = tempDir();
    const env = { HOME: home, TOKENLESS_DATA_DIR: join(home, 'data'), TOKENLESS_SESSION_ID: 's1' };
    const result = runCli(['filter', '--command', 'cat worker.log', '--json'], { env, input: bigLog });
    expect(result.status).toBe(0);
    const view = JSON.parse(result.stdout) as { stash_keys: string[] };
    expect(view.stash_keys.length).toBeGreaterThan(0);
    expect(records(env)).toBe(0);
    expect(runCli(['retrieve', view.stash_keys[0] ?? ''], { env }).stdout).toBe(bigLog);
    expect(runCli(['cost', '--json'], { env }).stdout).toMatch(/"savedTokens": 0,/);
  });

  it('`cat big.log | tokenless run -- head -2500` passes the lines the agent chose through and records nothing', () => {
    const home = tempDir();
    const env = { HOME: home, TOKENLESS_DATA_DIR: join(home, 'data'), TOKENLESS_SESSION_ID: 's1' };
    const expected = bigLog.split('\n').slice(0, 2500).join('\n') + '\n';
    for (const argv of [['head', '-2500'], ['tail', '-n', '2500'], ['grep', 'worker'], ['sed', '-n', '1,2500p']]) {
      const result = runCli(['run', '--', ...argv], { env, input: bigLog });
      expect(result.status, argv.join(' ')).toBe(0);
      if (argv[0] === 'head' || argv[0] === 'sed') expect(result.stdout).toBe(expected);
      expect(result.stdout, argv.join(' ')).not.toContain('tokenless retrieve');
    }
    expect(records(env)).toBe(0);
  });
});

describe('reasons and figures', () => {
  it('`syt compact CLAUDE.md` says folding would not save tokens when that is the reason', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'CLAUDE.md'), '# Notes\n\n- [x] a\n- [x] b\n- [ ] c\n');
    const result = runCli(['compact', 'CLAUDE.md'], { cwd: dir, env: { HOME: dir, TOKENLESS_DATA_DIR: join(dir, 'data') } });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^CLAUDE\.md: unchanged \(folding the 1 finished or stale block would not save tokens, \d+ -> \d+: /);
    expect(result.stdout).not.toContain('nothing finished or stale');
  });

  it('the project view does not list TODO.md or notes.txt as always loaded (Claude Code loads CLAUDE.md and its @imports)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'CLAUDE.md'), '# Project\n\nRun `npm test`.\n');
    writeFileSync(join(dir, 'TODO.md'), '# Todo\n\n- [ ] write the docs\n');
    writeFileSync(join(dir, 'notes.txt'), 'some notes\n');
    const result = runCli(['analyze', dir, '--json'], { env: { HOME: dir, TOKENLESS_DATA_DIR: join(dir, 'data') } });
    const report = JSON.parse(result.stdout) as { items: { path: string; loaded: string }[] };
    expect(report.items.find((item) => item.path === 'CLAUDE.md')?.loaded).toBe('always');
    expect(report.items.find((item) => item.path === 'TODO.md')?.loaded).toBe('on_demand');
    expect(report.items.find((item) => item.path === 'notes.txt')?.loaded).toBe('on_demand');
  });
});

describe('the next step', () => {
  it('`syt init` ends with what it installed, how permissions decide rewrites, allow rules and `syt doctor`', () => {
    const dir = tempDir();
    const result = runCli(['init'], { cwd: dir, env: { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), TOKENLESS_DATA_DIR: join(dir, 'data') } });
    expect(result.status).toBe(0);
    const steps = result.stdout.slice(result.stdout.indexOf('Next steps')).replace(/\s+/g, ' ');
    expect(steps).toContain('Installed: command hooks for PreToolUse (Bash, Skill)');
    expect(steps).toContain('rewritten silently');
    expect(steps).toContain('shows the rewritten line in its permission dialog in the terminal UI in the default permission mode, and is left alone in auto mode and in `claude -p`');
    expect(steps).toContain('"Bash(npm test:*)" to permissions.allow');
    expect(steps).toMatch(/tokenless doctor|syt doctor/);
    // --json stays one document.
    const json = runCli(['init', '--json'], { cwd: dir, env: { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), TOKENLESS_DATA_DIR: join(dir, 'data') } }).stdout;
    expect(json).not.toContain('Next steps');
    expect(JSON.parse(json)).toHaveProperty('files');
  });

  it('`syt doctor` says when no transcripts of the project were found', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'claude'));
    const result = runCli(['doctor', '--json'], { cwd: dir, env: { HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude'), TOKENLESS_DATA_DIR: join(dir, 'data'), TOKENLESS_CLAUDE_BIN: '/nonexistent' } });
    const checks = (JSON.parse(result.stdout) as { checks: { name: string; detail: string }[] }).checks;
    expect(checks.find((check) => check.name === 'permissions')?.detail).toMatch(/^no Claude Code transcripts found for this project/);
  });

  it('`syt dashboard` piped still prints the page (a terminal gets a file path instead)', () => {
    const dir = tempDir();
    const result = runCli(['dashboard'], { env: { HOME: dir, TOKENLESS_DATA_DIR: join(dir, 'data'), CLAUDE_CONFIG_DIR: join(dir, 'none') } });
    expect(result.status).toBe(0);
    expect(result.stdout.startsWith('<!doctype html>') || result.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
  });
});
