/**
 * `syt init` on real files through the built CLI: missing, empty, commented-out (invalid) and rich settings files,
 * installed twice in a row, then uninstalled, compared byte for byte. A project's hooks go to the local settings file
 * (not committed: they name this machine's paths); the shared `.claude/settings.json` is never written, and 0.1's
 * install there is moved out or removed byte-exact.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

const RICH = `{
\t"$schema": "https://json.schemastore.org/claude-code-settings.json",
\t"permissions": { "allow": ["Bash(npm test:*)"], "deny": ["Bash(git push:*)"] },
\t"env": { "FOO": "1" },
\t"hooks": {
\t\t"PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "/usr/local/bin/guard" } ] } ],
\t\t"Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]
\t}
}`;
const COMMENTED = `{
  // "model": "opus",
  "env": {}
}
`;

/** A project whose local settings file (the one init writes) starts as `content` (null: absent). */
function project(content: string | null, shared: string | null = null): { dir: string; file: string; shared: string; env: Record<string, string> } {
  const dir = tempDir();
  const file = join(dir, '.claude', 'settings.local.json');
  mkdirSync(join(dir, '.claude'));
  if (content !== null) writeFileSync(file, content);
  if (shared !== null) writeFileSync(join(dir, '.claude', 'settings.json'), shared);
  return { dir, file, shared: join(dir, '.claude', 'settings.json'), env: { HOME: join(dir, 'home'), TOKENLESS_DATA_DIR: join(dir, 'data') } };
}

const read = (path: string): string | null => (existsSync(path) ? readFileSync(path, 'utf8') : null);

describe('syt init (project scope)', () => {
  it.each([
    ['missing', null],
    ['empty', ''],
    ['rich', RICH],
  ])('%s local settings: install, install again (no change), uninstall restores the bytes; settings.json untouched', (_name, original) => {
    const { dir, file, shared, env } = project(original, RICH);
    const first = runCli(['init'], { cwd: dir, env });
    expect(first.status, first.stderr).toBe(0);
    const installed = read(file) ?? '';
    const settings = JSON.parse(installed) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(settings.hooks['PreToolUse']?.at(-1)?.hooks[0]?.command).toMatch(/^\/bin\/sh \S+\/launch\.sh \S*node \S+cli\.cjs hook pre_tool$/);
    expect(settings.hooks['PostToolUse']?.at(-1)?.hooks[0]?.command).toMatch(/ hook post_tool$/);
    if (original !== null) expect(read(`${file}.syt-backup`)).toBe(original);
    expect(read(shared)).toBe(RICH);
    expect(existsSync(`${shared}.syt-backup`)).toBe(false);

    const second = runCli(['init'], { cwd: dir, env });
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/unchanged/);
    expect(read(file)).toBe(installed);

    const removed = runCli(['init', '--uninstall'], { cwd: dir, env });
    expect(removed.status, removed.stderr).toBe(0);
    expect(read(file)).toBe(original);
    expect(existsSync(`${file}.syt-backup`)).toBe(false);
    expect(read(shared)).toBe(RICH);
  });

  it('keeps every other key and hook of a rich file, in its own indentation', () => {
    const { dir, file, env } = project(RICH);
    runCli(['init'], { cwd: dir, env });
    const installed = read(file) ?? '';
    expect(installed).toMatch(/^\t"permissions"/m);
    const settings = JSON.parse(installed) as Record<string, unknown>;
    const original = JSON.parse(RICH) as { hooks: Record<string, unknown[]> };
    expect(settings).toMatchObject({ $schema: expect.any(String) as unknown, env: { FOO: '1' }, permissions: { deny: ['Bash(git push:*)'] } });
    expect((settings['hooks'] as Record<string, unknown[]>)['Stop']).toEqual(original.hooks['Stop']);
    expect((settings['hooks'] as Record<string, unknown[]>)['PreToolUse']?.[0]).toEqual(original.hooks['PreToolUse']?.[0]);
  });

  it('refuses a commented-out (invalid JSON) file with a clear message and changes nothing', () => {
    const { dir, file, env } = project(COMMENTED);
    for (const args of [['init'], ['init', '--uninstall']]) {
      const result = runCli(args, { cwd: dir, env });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toMatch(/not valid JSON/);
      expect(read(file)).toBe(COMMENTED);
      expect(existsSync(`${file}.syt-backup`)).toBe(false);
    }
  });

  it('--dry-run prints the diff and writes nothing', () => {
    const { dir, file, env } = project(RICH);
    const result = runCli(['init', '--dry-run'], { cwd: dir, env });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/would be updated/);
    expect(result.stdout).toMatch(/^\+.*hook pre_tool/m);
    expect(read(file)).toBe(RICH);
    expect(existsSync(`${file}.syt-backup`)).toBe(false);
  });

  it('--http registers one HTTP hook per event in the private local file and drops the command hooks', () => {
    const { dir, file: local, shared: file, env } = project(null, RICH);
    runCli(['init'], { cwd: dir, env });
    const result = runCli(['init', '--http', '--port', '40123'], { cwd: dir, env });
    expect(result.status, result.stderr).toBe(0);
    expect(read(file)).toBe(RICH);
    expect(statSync(local).mode & 0o777).toBe(0o600);
    const settings = JSON.parse(read(local) ?? '') as { hooks: Record<string, { hooks: { type: string; url: string; headers: Record<string, string> }[] }[]> };
    const hook = settings.hooks['PreToolUse']?.[0]?.hooks[0];
    expect(hook).toMatchObject({ type: 'http', url: 'http://127.0.0.1:40123/tokenless/claude-code/pre_tool' });
    expect(hook?.headers['X-Tokenless-Token']).toBe(readFileSync(join(dir, 'data', 'serve-token'), 'utf8').trim());
    runCli(['init', '--uninstall'], { cwd: dir, env });
    expect(read(file)).toBe(RICH);
    expect(existsSync(local)).toBe(false);
  });
});

describe('syt init (issue 15, item 12)', () => {
  const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });

  it('writes through a symlinked settings.local.json, keeps the link, and uninstall restores the target byte for byte', () => {
    const { dir, file, env } = project(null);
    mkdirSync(join(dir, 'dotfiles'));
    writeFileSync(join(dir, 'dotfiles', 'claude-settings.json'), RICH);
    symlinkSync('../dotfiles/claude-settings.json', file);
    expect(runCli(['init'], { cwd: dir, env }).status).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(read(join(dir, 'dotfiles', 'claude-settings.json'))).toMatch(/hook pre_tool/);
    expect(runCli(['init', '--uninstall'], { cwd: dir, env }).status).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe('../dotfiles/claude-settings.json');
    expect(read(join(dir, 'dotfiles', 'claude-settings.json'))).toBe(RICH);
    expect(existsSync(`${file}.syt-backup`)).toBe(false);
  });

  it('--http makes git ignore the local settings file that holds the token', () => {
    const { dir, env } = project(RICH);
    expect(git(dir, 'init', '-q').status).toBe(0);
    const result = runCli(['init', '--http'], { cwd: dir, env });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/info\/exclude: git ignores the file holding the hook token/);
    expect(git(dir, 'check-ignore', '-q', '.claude/settings.local.json').status).toBe(0);
    expect(read(join(dir, '.git', 'info', 'exclude'))).toMatch(/^\/\.claude\/settings\.local\.json$/m);
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all').stdout).not.toMatch(/settings\.local\.json/);
    // Already ignored: nothing is added a second time.
    const exclude = read(join(dir, '.git', 'info', 'exclude'));
    expect(runCli(['init', '--http', '--port', '40124'], { cwd: dir, env }).stdout).toMatch(/is ignored by git/);
    expect(read(join(dir, '.git', 'info', 'exclude'))).toBe(exclude);
  });

  it('--http says what to do when the local settings file is tracked, or there is no git', () => {
    const tracked = project(RICH);
    git(tracked.dir, 'init', '-q');
    writeFileSync(join(tracked.dir, '.claude', 'settings.local.json'), '{}\n');
    git(tracked.dir, 'add', '.claude/settings.local.json');
    expect(runCli(['init', '--http'], { cwd: tracked.dir, env: tracked.env }).stdout).toMatch(/is tracked by git .*git rm --cached \.claude\/settings\.local\.json/);
    const bare = project(RICH);
    expect(runCli(['init', '--http'], { cwd: bare.dir, env: { ...bare.env, GIT_CEILING_DIRECTORIES: bare.dir } }).stdout).toMatch(/not in a git work tree: keep \.claude\/settings\.local\.json out of version control/);
  });

  it('--dry-run --http never prints the token and creates none', () => {
    const { dir, env } = project(RICH);
    const dry = runCli(['init', '--http', '--dry-run'], { cwd: dir, env });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/X-Tokenless-Token.*<token: see serve-token in the data dir>/);
    expect(existsSync(join(dir, 'data', 'serve-token'))).toBe(false);
    expect(runCli(['init', '--http'], { cwd: dir, env }).status).toBe(0);
    const token = readFileSync(join(dir, 'data', 'serve-token'), 'utf8').trim();
    for (const args of [['--dry-run'], ['--dry-run', '--json'], ['--json']]) {
      const out = runCli(['init', '--http', '--port', '40125', ...args], { cwd: dir, env });
      expect(out.status).toBe(0);
      expect(out.stdout).not.toContain(token);
    }
  });
});

describe('syt init keeps machine paths out of the committed settings.json', () => {
  const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });
  const hooksIn = (path: string): string[] => Object.keys((JSON.parse(read(path) ?? '{}') as { hooks?: Record<string, unknown> }).hooks ?? {});
  /** What 0.1's project install left: our hooks in .claude/settings.json and its backup (the same plan, so the same bytes). */
  function installedBy01(): ReturnType<typeof project> {
    const p = project(null, RICH);
    expect(runCli(['init', '--scope', 'user'], { cwd: p.dir, env: { ...p.env, CLAUDE_CONFIG_DIR: join(p.dir, '.claude') } }).status).toBe(0);
    expect(read(p.shared)).toMatch(/hook pre_tool/);
    expect(read(`${p.shared}.syt-backup`)).toBe(RICH);
    return p;
  }

  it('command hooks go to the git-ignored settings.local.json; git sees no change', () => {
    const { dir, file, shared, env } = project(null, RICH);
    expect(git(dir, 'init', '-q').status).toBe(0);
    const result = runCli(['init'], { cwd: dir, env });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/info\/exclude: git ignores the file holding this machine's paths/);
    expect(hooksIn(file)).toEqual(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'PreCompact', 'SessionEnd']);
    expect(read(shared)).toBe(RICH);
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all').stdout).toBe('?? .claude/settings.json\n');
    expect(result.stdout.replace(/\s+/g, ' ')).toContain("The hooks name this machine's paths, so they live in this file, which is not committed (.claude/settings.json is left as it was)");
  });

  it('an existing local file: its backup is git-ignored too', () => {
    const { dir, file, env } = project('{"permissions":{"allow":["Bash(make:*)"]}}\n');
    git(dir, 'init', '-q');
    expect(runCli(['init'], { cwd: dir, env }).status).toBe(0);
    expect(existsSync(`${file}.syt-backup`)).toBe(true);
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all').stdout).toBe('');
  });

  it("0.1's install in settings.json: doctor warns, init moves it (settings.json restored byte for byte)", () => {
    const { dir, file, shared, env } = installedBy01();
    const doctorEnv = { ...env, CLAUDE_CONFIG_DIR: join(dir, 'home', '.claude'), TOKENLESS_CLAUDE_BIN: '/nonexistent' };
    const before = JSON.parse(runCli(['doctor', '--json'], { cwd: dir, env: doctorEnv }).stdout) as { checks: { name: string; status: string; detail: string }[] };
    expect(before.checks.find((check) => check.name === 'hooks')).toMatchObject({ status: 'warn', detail: expect.stringMatching(/settings\.json, which is committed, with this machine's paths: run `tokenless init` to move them to \S+settings\.local\.json/) as unknown });
    const dry = runCli(['init', '--dry-run'], { cwd: dir, env });
    expect(dry.stdout).toMatch(/would move our hooks out of \S+settings\.json/);
    expect(read(shared)).not.toBe(RICH);
    const moved = runCli(['init'], { cwd: dir, env });
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/moved our hooks out of \S+\/\.claude\/settings\.json \(committed, so it must not name this machine's paths\) into \S+settings\.local\.json/);
    expect(moved.stdout).toMatch(/settings\.json: restored \(restored byte for byte from the backup\)/);
    expect(read(shared)).toBe(RICH);
    expect(existsSync(`${shared}.syt-backup`)).toBe(false);
    expect(hooksIn(file)).toContain('PreToolUse');
    const after = JSON.parse(runCli(['doctor', '--json'], { cwd: dir, env: doctorEnv }).stdout) as { checks: { name: string; status: string; detail: string }[] };
    expect(after.checks.find((check) => check.name === 'hooks')).toMatchObject({ status: 'ok', detail: `registered in ${file}` });
  });

  it("0.1's install in settings.json: uninstall removes it byte for byte", () => {
    const { dir, file, shared, env } = installedBy01();
    const removed = runCli(['init', '--uninstall'], { cwd: dir, env });
    expect(removed.status, removed.stderr).toBe(0);
    expect(read(shared)).toBe(RICH);
    expect(existsSync(`${shared}.syt-backup`)).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('a committed settings.json that is not valid JSON is only looked at: init installs and says so', () => {
    const { dir, file, shared, env } = project(null, COMMENTED);
    const result = runCli(['init'], { cwd: dir, env });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/settings\.json: not checked for hooks of an earlier syt init \(not valid JSON .*; nothing was changed\)/);
    expect(read(shared)).toBe(COMMENTED);
    expect(hooksIn(file)).toContain('PreToolUse');
  });
});

describe('syt init --scope user', () => {
  it('edits $CLAUDE_CONFIG_DIR/settings.json and restores it', () => {
    const dir = tempDir();
    const config = join(dir, 'claude-config');
    mkdirSync(config);
    writeFileSync(join(config, 'settings.json'), RICH);
    const env = { HOME: dir, CLAUDE_CONFIG_DIR: config, TOKENLESS_DATA_DIR: join(dir, 'data') };
    expect(runCli(['init', '--scope', 'user'], { cwd: dir, env }).status).toBe(0);
    expect(read(join(config, 'settings.json'))).toMatch(/hook post_tool/);
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(runCli(['doctor', '--json'], { cwd: dir, env: { ...env, PATH: '/usr/bin:/bin' } }).stdout).toMatch(/"name":"hooks","status":"ok"/);
    expect(runCli(['init', '--scope', 'user', '--uninstall'], { cwd: dir, env }).status).toBe(0);
    expect(read(join(config, 'settings.json'))).toBe(RICH);
  });

  it('doctor fails and says what to run when no hooks are registered', () => {
    const dir = tempDir();
    const result = runCli(['doctor'], { cwd: dir, env: { HOME: dir, TOKENLESS_DATA_DIR: join(dir, 'data') } });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/fail\s+hooks: no tokenless hooks registered: run `tokenless init`/);
  });
});

describe('syt init run twice', () => {
  it('says nothing about a backup when none is written (init run twice mentions a backup that does not exist regression)', () => {
    const p = project(null);
    expect(spawnSync('git', ['init', '-q'], { cwd: p.dir }).status).toBe(0);
    const first = runCli(['init'], { cwd: p.dir, env: p.env });
    expect(first.status, first.stderr).toBe(0);
    const second = runCli(['init'], { cwd: p.dir, env: p.env });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/unchanged \(our hooks are already registered\)/u);
    expect(existsSync(`${p.file}.syt-backup`)).toBe(false);
    expect(second.stdout).not.toMatch(/backup|a copy of your local settings/u);
    expect(readFileSync(join(p.dir, '.git', 'info', 'exclude'), 'utf8')).not.toContain('syt-backup');
  });

  it('still keeps a backup it writes out of git', () => {
    const p = project('{ "env": { "FOO": "1" } }\n');
    expect(spawnSync('git', ['init', '-q'], { cwd: p.dir }).status).toBe(0);
    const result = runCli(['init'], { cwd: p.dir, env: p.env });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(`${p.file}.syt-backup`)).toBe(true);
    expect(spawnSync('git', ['check-ignore', '-q', '.claude/settings.local.json.syt-backup'], { cwd: p.dir }).status).toBe(0);
  });
});
