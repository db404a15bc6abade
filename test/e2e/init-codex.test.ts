/**
 * `syt init --harness codex` on real files through the built CLI: a project hooks.json holding a hook of the user's
 * installed twice, then uninstalled byte for byte; user scope under $CODEX_HOME; doctor, with the trust warning.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

const MINE = `{
  "hooks": {
    "PreToolUse": [ { "matcher": "apply_patch", "hooks": [ { "type": "command", "command": "/usr/local/bin/guard" } ] } ]
  }
}
`;

function project(content: string | null): { dir: string; file: string; env: Record<string, string> } {
  const dir = tempDir();
  const file = join(dir, '.codex', 'hooks.json');
  if (content !== null) {
    mkdirSync(join(dir, '.codex'));
    writeFileSync(file, content);
  }
  return { dir, file, env: { HOME: join(dir, 'home'), CODEX_HOME: join(dir, 'codex-home'), TOKENLESS_DATA_DIR: join(dir, 'data'), TOKENLESS_CODEX_BIN: '/nonexistent/codex' } };
}

const init = (p: { dir: string; env: Record<string, string> }, ...args: string[]) => runCli(['init', '--harness', 'codex', ...args], { cwd: p.dir, env: p.env });

describe('syt init --harness codex', () => {
  it('adds one PreToolUse hook, keeps the user\'s, is idempotent, and uninstalls to the exact bytes', () => {
    const p = project(MINE);
    const first = init(p);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/updated \(our hooks added\); backup .*hooks\.json\.syt-backup/);
    const installed = readFileSync(p.file, 'utf8');
    const hooks = JSON.parse(installed) as { hooks: { PreToolUse: { matcher: string; hooks: { command: string; timeout: number }[] }[] } };
    expect(hooks.hooks.PreToolUse.map((group) => group.matcher)).toEqual(['apply_patch', 'Bash']);
    expect(hooks.hooks.PreToolUse[1]?.hooks[0]?.command).toMatch(/cli\.cjs'? hook pre_tool$/);
    expect(init(p).stdout).toMatch(/unchanged \(our hooks are already registered\)/);
    expect(readFileSync(p.file, 'utf8')).toBe(installed);
    const doctor = runCli(['doctor', '--harness', 'codex'], { cwd: p.dir, env: p.env });
    expect(doctor.stdout).toMatch(/ok +codex-hooks: registered in .*\.codex\/hooks\.json/);
    expect(doctor.stdout).toMatch(/warn +codex-trust: .*no trust entry yet/);
    expect(doctor.stdout).toMatch(/warn +codex: `\/nonexistent\/codex --version` did not run; install Codex CLI 0\.169\.0/);
    const removed = init(p, '--uninstall');
    expect(removed.stdout).toMatch(/restored \(restored byte for byte from the backup\)/);
    expect(readFileSync(p.file, 'utf8')).toBe(MINE);
    expect(existsSync(`${p.file}.syt-backup`)).toBe(false);
  });

  it('writes the user scope under $CODEX_HOME, and doctor fails without hooks; --http is Claude Code only', () => {
    const p = project(null);
    const http = init(p, '--http');
    expect(http.status).toBe(2);
    expect(http.stderr).toMatch(/--http serves Claude Code only; codex uses command hooks/);
    expect(existsSync(p.file)).toBe(false);
    const doctor = runCli(['doctor', '--harness', 'codex'], { cwd: p.dir, env: p.env });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(/fail +codex-hooks: no tokenless hooks/);
    expect(init(p, '--scope', 'user').status).toBe(0);
    const user = join(p.env['CODEX_HOME'] ?? '', 'hooks.json');
    expect(JSON.parse(readFileSync(user, 'utf8'))).toMatchObject({ hooks: { PreToolUse: [{ matcher: 'Bash' }] } });
    expect(existsSync(p.file)).toBe(false);
    expect(init(p, '--scope', 'user', '--uninstall').status).toBe(0);
    expect(existsSync(user)).toBe(false);
  });
});

describe('syt init --harness codex in a git project', () => {
  it('keeps the file naming this machine\'s paths out of git and prints the next steps (init writes machine paths without keeping them out of git regression)', () => {
    const p = project(null);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: p.dir, encoding: 'utf8' });
    expect(git('init', '-q').status).toBe(0);
    const result = init(p);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('/.codex/hooks.json');
    expect(result.stdout).toMatch(/git ignores the file holding this machine's paths/u);
    expect(git('check-ignore', '-q', '.codex/hooks.json').status).toBe(0);
    expect(git('status', '--porcelain', '--untracked-files=all', '--', '.gemini', '.codex').stdout).toBe('');
    expect(result.stdout).toContain('Next steps');
    expect(result.stdout).toContain('doctor --harness codex');
    expect(result.stdout).toContain('init --harness codex --uninstall');
  });
});
