import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

const PASSING = `description = "the project's check script"
command = ["./check.sh", "./check.sh *"]
collapse = [{ pattern = '^ok ', label = '{count} checks passed' }]
[on_failure]
keep = ['^not ok', '^#']
[[test]]
input = "ok 1\\nok 2\\nok 3\\n# done\\n"
expected = "3 checks passed\\n# done"
[[test]]
exit_code = 1
input = "ok 1\\nnot ok 2 - parser\\n# 1 failed\\n"
expected = "not ok 2 - parser\\n# 1 failed"
`;

function repo(): { dir: string; filters: string; env: Record<string, string> } {
  const root = tempDir();
  const dir = join(root, 'repo');
  const filters = join(dir, '.tokenless', 'filters');
  mkdirSync(join(dir, '.git'), { recursive: true });
  mkdirSync(filters, { recursive: true });
  writeFileSync(join(dir, 'check.sh'), '#!/bin/sh\nfor i in $(seq 1 60); do echo "ok $i - case $i"; done\necho "# all passed"\n', { mode: 0o755 });
  return { dir, filters, env: { TOKENLESS_DATA_DIR: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') } };
}

describe('tokenless filters', () => {
  it('the README\'s example filter passes its own inline test as printed', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('# .tokenless/filters/check.toml\n');
    expect(start).toBeGreaterThan(0);
    const { dir, filters, env } = repo();
    writeFileSync(join(filters, 'check.toml'), readme.slice(start, readme.indexOf('```', start)));
    const result = runCli(['filters', 'test'], { cwd: dir, env });
    expect(result.stdout).toContain('1 passed, 0 failed');
    expect(result.status).toBe(0);
  });

  it('test: exit 0 when every inline test passes, 1 with a diff when one fails', () => {
    const { dir, filters, env } = repo();
    writeFileSync(join(filters, 'check.toml'), PASSING);
    const passed = runCli(['filters', 'test'], { cwd: dir, env });
    expect(passed.stdout).toContain('2 passed, 0 failed');
    expect(passed.status).toBe(0);
    writeFileSync(join(filters, 'check.toml'), PASSING.replace('expected = "3 checks passed', 'expected = "4 checks passed'));
    const failed = runCli(['filters', 'test', join(filters, 'check.toml')], { cwd: dir, env });
    expect(failed.stdout).toMatch(/FAIL {2}check: test 1\n {6}--- expected\n {6}\+\+\+ actual/);
    expect(failed.stdout).toContain('-4 checks passed');
    expect(failed.status).toBe(1);
  });

  it('test and doctor: a malformed file and a regex that would backtrack are reported with file and line, exit 1', () => {
    const { dir, filters, env } = repo();
    writeFileSync(join(filters, 'bad.toml'), 'command = "x"\nskip = [\n');
    writeFileSync(join(filters, 'slow.toml'), 'command = "y"\n\nkeep = ["^(\\\\w+\\\\s?)*$"]\n');
    const result = runCli(['filters', 'test'], { cwd: dir, env });
    expect(result.stdout).toContain(`error ${join(filters, 'bad.toml')}:3: Invalid TOML document`);
    expect(result.stdout).toMatch(new RegExp(`error ${join(filters, 'slow.toml')}:3: slow: keep\\[0\\] .*repeats a group that itself repeats`));
    expect(result.status).toBe(1);
    const doctor = JSON.parse(runCli(['doctor', '--json'], { cwd: dir, env }).stdout) as { checks: { name: string; status: string; detail: string }[] };
    const check = doctor.checks.find((entry) => entry.name === 'filter-files');
    expect(check?.status).toBe('warn');
    expect(check?.detail).toContain(`${join(filters, 'bad.toml')}:3: Invalid TOML document`);
    const none = runCli(['filters', 'test'], { cwd: tempDir(), env });
    expect(none.stderr).toMatch(/no filter files here/);
    expect(none.status).toBe(1);
  });

  it('an untrusted project filter does not run; once trusted, run shows its view with a marker', () => {
    const { dir, filters, env } = repo();
    writeFileSync(join(filters, 'check.toml'), PASSING);
    const waiting = runCli(['filters', 'trust'], { cwd: dir, env });
    expect(waiting.stdout).toContain(`untrusted  ${join(filters, 'check.toml')}`);
    expect(waiting.status).toBe(1);
    const raw = runCli(['run', '--', './check.sh'], { cwd: dir, env });
    expect(raw.stdout).not.toContain('checks passed');
    expect(runCli(['filters', 'trust', '--all'], { cwd: dir, env }).status).toBe(0);
    const viewed = runCli(['run', '--', './check.sh'], { cwd: dir, env });
    expect(viewed.stdout).toMatch(/^60 checks passed\n# all passed\n\[tokenless retrieve (\w+)\]\n$/);
    expect(viewed.status).toBe(0);
    const listed = runCli(['filters', 'list', '--json'], { cwd: dir, env });
    expect(JSON.parse(listed.stdout)).toMatchObject({ files: [{ scope: 'project', trusted: true, filters: [{ name: 'check', tests: 2 }] }] });
  });

  it("a person's own filter runs from the spec cache without node:crypto or node:zlib; an edit to it is parsed again", () => {
    const { dir, env } = repo();
    const own = join(env['XDG_CONFIG_HOME'] ?? '', 'tokenless', 'filters');
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, 'check.toml'), PASSING);
    const probe = join(tempDir(), 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => require('fs').writeSync(2, `loaded ${['crypto', 'zlib'].filter((id) => process.moduleLoadList.includes(`NativeModule ${id}`)).join(',')};\\n`));\n");
    const event = (command: string): string => JSON.stringify({ session_id: 's', transcript_path: '/nonexistent', cwd: dir, permission_mode: 'bypassPermissions', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't' });
    const rewritten = (result: { stdout: string }): string => (JSON.parse(result.stdout) as { hookSpecificOutput: { updatedInput: { command: string } } }).hookSpecificOutput.updatedInput.command;
    // The first run parses the file and fills the cache; the hook call after it is what every later call pays.
    expect(runCli(['run', '--', './check.sh'], { cwd: dir, env }).stdout).toMatch(/^60 checks passed\n/);
    const cached = runCli(['hook', 'pre_tool'], { cwd: dir, env: { ...env, NODE_OPTIONS: `--require ${probe}` }, input: event('./check.sh') });
    expect(rewritten(cached)).toContain('./check.sh');
    expect(cached.stderr).toContain('loaded ;');
    writeFileSync(join(own, 'check.toml'), PASSING.replace("label = '{count} checks passed'", "label = '{count} checks done'").replace('expected = "3 checks passed', 'expected = "3 checks done'));
    expect(runCli(['run', '--', './check.sh'], { cwd: dir, env }).stdout).toMatch(/^60 checks done\n/);
  });

  it('try: runs the command, shows the view the hook would show with token counts, exits as the command did; usage errors exit 2', () => {
    const { dir, filters, env } = repo();
    writeFileSync(join(filters, 'check.toml'), PASSING);
    const tried = runCli(['filters', 'try', join(filters, 'check.toml'), '--', './check.sh'], { cwd: dir, env });
    expect(tried.stdout).toMatch(/^60 checks passed\n# all passed\n\[tokenless retrieve \w+\]\n--- check \(its command pattern matches\), exit 0: raw \d+ tokens, view \d+ tokens, saves \d+%\n$/);
    expect(tried.status).toBe(0);
    // Shorter by its stages, but not once the retrieval line is counted: the hook shows it raw, and so does try.
    const small = runCli(['filters', 'try', join(filters, 'check.toml'), '--', 'printf', 'ok 1\\nok 2\\nok 3\\n'], { cwd: dir, env });
    expect(small.stdout).toMatch(/^ok 1\nok 2\nok 3\n--- check .*not smaller by enough .*the raw output would be shown\n$/);
    const failing = runCli(['filters', 'try', join(filters, 'check.toml'), '--', 'sh', '-c', 'echo "not ok 1"; exit 3'], { cwd: dir, env });
    expect(failing.status).toBe(3);
    expect(runCli(['filters', 'try', join(filters, 'check.toml')], { cwd: dir, env }).status).not.toBe(0);
  });
});
