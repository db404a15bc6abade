/**
 * `syt init --harness gemini-cli` on real files through the built CLI: a rich project settings file installed twice,
 * then uninstalled byte for byte; a commented file refused untouched; user scope under $GEMINI_CLI_HOME; doctor.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

const RICH = `{
\t"general": { "vimMode": true },
\t"hooks": {
\t\t"BeforeTool": [ { "matcher": "write_file", "hooks": [ { "type": "command", "command": "/usr/local/bin/guard" } ] } ]
\t}
}
`;

function project(content: string | null): { dir: string; file: string; env: Record<string, string> } {
  const dir = tempDir();
  const file = join(dir, '.gemini', 'settings.json');
  if (content !== null) {
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(file, content);
  }
  return { dir, file, env: { HOME: join(dir, 'home'), GEMINI_CLI_HOME: join(dir, 'gemini-home'), TOKENLESS_DATA_DIR: join(dir, 'data'), TOKENLESS_GEMINI_BIN: '/nonexistent/gemini' } };
}

const init = (p: { dir: string; env: Record<string, string> }, ...args: string[]) => runCli(['init', '--harness', 'gemini-cli', ...args], { cwd: p.dir, env: p.env });

describe('syt init --harness gemini-cli', () => {
  it('adds one BeforeTool hook, keeps everything else, is idempotent, and uninstalls to the exact bytes', () => {
    const p = project(RICH);
    const first = init(p);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/updated \(our hooks added\); backup .*settings\.json\.syt-backup/);
    const installed = readFileSync(p.file, 'utf8');
    const settings = JSON.parse(installed) as { general: unknown; hooks: { BeforeTool: { matcher: string; hooks: { command: string }[] }[] } };
    expect(settings.general).toEqual({ vimMode: true });
    expect(settings.hooks.BeforeTool.map((group) => group.matcher)).toEqual(['write_file', 'run_shell_command']);
    expect(settings.hooks.BeforeTool[1]?.hooks[0]?.command).toMatch(/cli\.cjs'? hook pre_tool$/);
    expect(installed).toMatch(/^\t"general"/m);
    const second = init(p);
    expect(second.stdout).toMatch(/unchanged \(our hooks are already registered\)/);
    expect(readFileSync(p.file, 'utf8')).toBe(installed);
    const doctor = runCli(['doctor', '--harness', 'gemini-cli'], { cwd: p.dir, env: p.env });
    expect(doctor.stdout).toMatch(/ok +gemini-hooks: registered in .*\.gemini\/settings\.json/);
    expect(doctor.stdout).toMatch(/warn +gemini-cli: `\/nonexistent\/gemini --version` did not run/);
    const removed = init(p, '--uninstall');
    expect(removed.stdout).toMatch(/restored \(restored byte for byte from the backup\)/);
    expect(readFileSync(p.file, 'utf8')).toBe(RICH);
    expect(existsSync(`${p.file}.syt-backup`)).toBe(false);
  });

  it('refuses a commented settings file and changes nothing; --http is Claude Code only', () => {
    const commented = '{\n  // "model": "x"\n  "general": {}\n}\n';
    const p = project(commented);
    const result = init(p);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/not plain JSON .*comments are not supported here.*nothing was changed/);
    expect(readFileSync(p.file, 'utf8')).toBe(commented);
    expect(init(p, '--http').stderr).toMatch(/--http serves Claude Code only/);
  });

  it('writes the user scope under $GEMINI_CLI_HOME, and doctor fails without hooks', () => {
    const p = project(null);
    const doctor = runCli(['doctor', '--harness', 'gemini-cli'], { cwd: p.dir, env: p.env });
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(/fail +gemini-hooks: no tokenless hooks/);
    expect(init(p, '--scope', 'user').status).toBe(0);
    const user = join(p.env['GEMINI_CLI_HOME'] ?? '', '.gemini', 'settings.json');
    expect(JSON.parse(readFileSync(user, 'utf8'))).toMatchObject({ hooks: { BeforeTool: [{ matcher: 'run_shell_command' }] } });
    expect(existsSync(p.file)).toBe(false);
    expect(init(p, '--scope', 'user', '--uninstall').status).toBe(0);
    expect(existsSync(user)).toBe(false);
  });
});

describe('syt init --harness gemini-cli in a git project', () => {
  it('keeps the file naming this machine\'s paths out of git and prints the next steps (init writes machine paths without keeping them out of git regression)', () => {
    const p = project(null);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: p.dir, encoding: 'utf8' });
    expect(git('init', '-q').status).toBe(0);
    const result = init(p);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('/.gemini/settings.json');
    expect(result.stdout).toMatch(/git ignores the file holding this machine's paths/u);
    expect(git('check-ignore', '-q', '.gemini/settings.json').status).toBe(0);
    expect(git('status', '--porcelain', '--untracked-files=all', '--', '.gemini', '.codex').stdout).toBe('');
    expect(result.stdout).toContain('Next steps');
    expect(result.stdout).toContain('doctor --harness gemini-cli');
    expect(result.stdout).toContain('init --harness gemini-cli --uninstall');
  });
});
