/**
 * `syt init --harness all` and `syt doctor --harness all` through the built CLI: only the agents whose program is on
 * PATH are set up (stand-in programs that print a version; the clients themselves are not needed), doctor checks each
 * one set up and fails on a broken one, plain `syt doctor` names the others, and the exit codes: 0, 1 when an agent is
 * broken or none is found, 2 for --http.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

/** A project whose PATH holds stand-ins for the given agents' programs (and node, for the hooks). */
function machine(programs: readonly { bin: string; version: string }[]): { dir: string; env: Record<string, string> } {
  const dir = tempDir();
  spawnSync('git', ['init', '-q', dir]);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const { bin: name, version } of programs) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho ${version}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const env = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'home', '.config'),
    PI_CODING_AGENT_DIR: join(dir, 'agent'),
    COPILOT_HOME: join(dir, 'copilot'),
    CODEX_HOME: join(dir, 'codex'),
    TOKENLESS_DATA_DIR: join(dir, 'data'),
    COLUMNS: '80',
  };
  return { dir, env };
}
const cli = (m: { dir: string; env: Record<string, string> }, ...args: string[]) => runCli(args, { cwd: m.dir, env: m.env });

describe('syt init --harness all', () => {
  it('sets up exactly the agents on PATH (0), doctor checks each (0, 1 once one breaks), uninstall removes them (0)', () => {
    const m = machine([
      { bin: 'claude', version: '2.1.332 (Claude Code)' },
      { bin: 'pi', version: '0.73.1' },
    ]);
    const init = cli(m, 'init', '--harness', 'all');
    expect(init.status, init.stderr).toBe(0);
    const claudeFile = join(m.dir, '.claude', 'settings.local.json');
    const piFile = join(m.dir, '.pi', 'extensions', 'save-your-tokens.js');
    expect(existsSync(claudeFile) && existsSync(piFile)).toBe(true);
    expect(existsSync(join(m.dir, '.gemini')) || existsSync(join(m.dir, '.opencode')) || existsSync(join(m.dir, '.codex'))).toBe(false);
    expect(init.stdout).toMatch(/Not found on PATH, left alone: Gemini CLI \(gemini\), OpenCode/);
    // Claude Code first: the default harness leads.
    expect(init.stdout.indexOf('Claude Code (')).toBeLessThan(init.stdout.indexOf('Pi ('));

    const doctor = cli(m, 'doctor', '--harness', 'all');
    expect(doctor.status, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/ok +agent: Claude Code: set up in/);
    expect(doctor.stdout).toMatch(/ok +agent: Pi: set up in/);
    expect(doctor.stdout).toMatch(/ok +pi-extension: installed in/);
    expect(doctor.stdout).toMatch(/ok +agents: not on this machine: Gemini CLI, OpenCode, Codex CLI,/);
    for (const line of doctor.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    // Plain doctor checks Claude Code and names the other agent set up here.
    const plain = cli(m, 'doctor');
    expect(plain.stdout).toMatch(/agents: also set up here: Pi/);

    // A settings file Claude Code cannot read is a broken install: doctor --harness all fails.
    writeFileSync(claudeFile, '{ not json');
    const broken = cli(m, 'doctor', '--harness', 'all');
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/fail +settings: .*settings\.local\.json/);

    writeFileSync(claudeFile, '{}\n');
    const removed = cli(m, 'init', '--harness', 'all', '--uninstall');
    expect(removed.status, removed.stderr).toBe(0);
    expect(existsSync(piFile)).toBe(false);
  });

  it('an agent on PATH but not set up is a warning naming the command; none found exits 1; --http exits 2', () => {
    const m = machine([{ bin: 'codex', version: 'codex-cli 0.169.0' }]);
    const doctor = cli(m, 'doctor', '--harness', 'all');
    expect(doctor.status).toBe(0);
    expect(doctor.stdout).toMatch(/warn +agent: Codex CLI \(.*codex\) is not set up: run\s+`tokenless init --harness codex`/);
    const http = cli(m, 'init', '--harness', 'all', '--http');
    expect(http.status).toBe(2);
    expect(http.stderr).toContain('--http is per agent');

    const empty = machine([]);
    const none = cli(empty, 'init', '--harness', 'all', '--json');
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no agent found on PATH');
    const parsed = JSON.parse(none.stdout) as { agents: unknown[]; not_found: string[] };
    expect(parsed.agents).toEqual([]);
    expect(parsed.not_found).toContain('Pi (pi)');
  });
});
