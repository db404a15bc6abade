/**
 * `syt init --harness copilot --scope user` and `syt doctor --harness copilot` through the built CLI, on real files
 * (Copilot itself not needed): the exit codes, idempotence, $COPILOT_HOME honoured, and a file that is not ours
 * refused untouched.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const FOREIGN = '{"version":1,"hooks":{"postToolUse":[{"type":"command","bash":"echo mine"}]}}\n';

function project(): { dir: string; env: Record<string, string>; file: string } {
  const dir = tempDir();
  spawnSync('git', ['init', '-q', dir]);
  const env = { HOME: join(dir, 'home'), COPILOT_HOME: join(dir, 'copilot-home'), TOKENLESS_DATA_DIR: join(dir, 'data'), TOKENLESS_COPILOT_BIN: '/nonexistent/copilot' };
  return { dir, env, file: join(dir, 'copilot-home', 'hooks', 'save-your-tokens.json') };
}
const cli = (p: { dir: string; env: Record<string, string> }, ...args: string[]) => runCli(args, { cwd: p.dir, env: p.env });

describe('syt init --harness copilot', () => {
  it('installs (0), is idempotent (0), is found by doctor (0, 1 once removed) and uninstalls (0)', () => {
    const p = project();
    const first = cli(p, 'init', '--harness', 'copilot', '--scope', 'user');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`${p.file}: created (new file)`);
    const installed = readFileSync(p.file, 'utf8');
    expect(JSON.parse(installed)).toMatchObject({ version: 1, hooks: { postToolUse: [{ type: 'command', timeoutSec: 30 }] } });
    const second = cli(p, 'init', '--harness', 'copilot', '--scope', 'user');
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('unchanged (our hooks are already registered)');
    expect(readFileSync(p.file, 'utf8')).toBe(installed);
    const doctor = cli(p, 'doctor', '--harness', 'copilot');
    expect(doctor.status, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/ok +copilot-hooks: postToolUse registered in/);
    expect(doctor.stdout).toMatch(/warn +copilot: `\/nonexistent\/copilot --version` did not run/);
    expect(cli(p, 'init', '--harness', 'copilot', '--scope', 'user', '--uninstall').status).toBe(0);
    expect(existsSync(p.file)).toBe(false);
    expect(cli(p, 'doctor', '--harness', 'copilot').status).toBe(1);
  });

  it('refuses a file that is not ours (1, untouched; doctor fails) and --http (2)', () => {
    const p = project();
    mkdirSync(join(p.dir, 'copilot-home', 'hooks'), { recursive: true });
    writeFileSync(p.file, FOREIGN);
    const refused = cli(p, 'init', '--harness', 'copilot', '--scope', 'user');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('a file that is not ours is already at this path');
    expect(cli(p, 'init', '--harness', 'copilot', '--scope', 'user', '--uninstall').status).toBe(1);
    expect(readFileSync(p.file, 'utf8')).toBe(FOREIGN);
    const doctor = cli(p, 'doctor', '--harness', 'copilot');
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toMatch(/fail +copilot-hooks: .* is not a hooks file of ours/);
    expect(cli(p, 'init', '--harness', 'copilot', '--scope', 'user', '--http').status).toBe(2);
  });
});
