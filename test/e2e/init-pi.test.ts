/**
 * `syt init --harness pi` and `syt doctor --harness pi` through the built CLI, on real files (Pi itself not needed):
 * the exit codes, a file that is not ours refused untouched, and the written extension, loaded as Pi loads it, fed a
 * captured Pi 0.73.1 tool_result through the real engine: the view with its marker, the exit line kept, and a
 * retrieve from the shell Pi would run (its session in TOKENLESS_SESSION_ID) byte-exact.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/root.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const FOREIGN = 'export default function (pi) { pi.on("tool_call", () => undefined); }\n';

function project(): { dir: string; env: Record<string, string>; projectFile: string; userFile: string } {
  const dir = tempDir();
  spawnSync('git', ['init', '-q', dir]);
  const env = { HOME: join(dir, 'home'), PI_CODING_AGENT_DIR: join(dir, 'agent'), TOKENLESS_DATA_DIR: join(dir, 'data'), TOKENLESS_PI_BIN: '/nonexistent/pi' };
  return { dir, env, projectFile: join(dir, '.pi', 'extensions', 'save-your-tokens.js'), userFile: join(dir, 'agent', 'extensions', 'save-your-tokens.js') };
}
const cli = (p: { dir: string; env: Record<string, string> }, ...args: string[]) => runCli(args, { cwd: p.dir, env: p.env });

afterEach(() => {
  delete process.env['TOKENLESS_SESSION_ID'];
});

describe('syt init --harness pi', () => {
  it('installs (0), is idempotent (0), is found by doctor (0, 1 once removed) and uninstalls (0)', () => {
    const p = project();
    const first = cli(p, 'init', '--harness', 'pi');
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`${p.projectFile}: created (new file)`);
    expect(readFileSync(join(p.dir, '.git', 'info', 'exclude'), 'utf8')).toContain('/.pi/extensions/save-your-tokens.js');
    const installed = readFileSync(p.projectFile, 'utf8');
    const second = cli(p, 'init', '--harness', 'pi');
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('unchanged (the extension is already installed)');
    expect(readFileSync(p.projectFile, 'utf8')).toBe(installed);
    const doctor = cli(p, 'doctor', '--harness', 'pi');
    expect(doctor.status, doctor.stdout).toBe(0);
    expect(doctor.stdout).toMatch(/ok +pi-extension: installed in/);
    expect(doctor.stdout).toMatch(/warn +pi: `\/nonexistent\/pi --version` did not run/);
    expect(cli(p, 'init', '--harness', 'pi', '--uninstall').status).toBe(0);
    expect(existsSync(p.projectFile)).toBe(false);
    expect(cli(p, 'doctor', '--harness', 'pi').status).toBe(1);
  });

  it("writes the user scope into $PI_CODING_AGENT_DIR/extensions; refuses a file that is not ours (1) and --http (2), changing nothing", () => {
    const p = project();
    expect(cli(p, 'init', '--harness', 'pi', '--scope', 'user').status).toBe(0);
    expect(existsSync(p.userFile)).toBe(true);
    mkdirSync(join(p.dir, '.pi', 'extensions'), { recursive: true });
    writeFileSync(p.projectFile, FOREIGN);
    const refused = cli(p, 'init', '--harness', 'pi');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('a file that is not ours is already at this path');
    expect(cli(p, 'init', '--harness', 'pi', '--uninstall').status).toBe(1);
    expect(readFileSync(p.projectFile, 'utf8')).toBe(FOREIGN);
    const http = cli(p, 'init', '--harness', 'pi', '--scope', 'user', '--http');
    expect(http.status).toBe(2);
    expect(cli(p, 'init', '--harness', 'nope').status).toBe(2);
  });

  it('the written extension views a captured Pi result through the real engine, and the shell retrieves it byte-exact', async () => {
    const p = project();
    expect(cli(p, 'init', '--harness', 'pi').status).toBe(0);
    // The module Pi would load, under a name Node imports as ESM (Pi itself loads it through jiti).
    const copy = join(p.dir, 'extension.mjs');
    writeFileSync(copy, readFileSync(p.projectFile));
    const handlers = new Map<string, (event: object, ctx: object) => unknown>();
    const module = (await import(pathToFileURL(copy).href)) as { default: (pi: object) => void };
    module.default({ on: (name: string, handler: (event: object, ctx: object) => unknown) => handlers.set(name, handler) });
    const event = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/pi/tool-results.jsonl'), 'utf8').split('\n')[2] ?? '') as { input: { command: string } };
    const ctx = { sessionManager: { getSessionId: () => 'pi-session-1' } };
    await handlers.get('session_start')?.({ type: 'session_start', reason: 'startup' }, ctx);
    // The engine runs with the data dir of this test (the extension's child inherits Pi's environment).
    process.env['TOKENLESS_DATA_DIR'] = p.env['TOKENLESS_DATA_DIR'];
    let result: { content: { text: string }[] } | undefined;
    try {
      result = (await handlers.get('tool_result')?.(event, ctx)) as typeof result;
    } finally {
      delete process.env['TOKENLESS_DATA_DIR'];
    }
    const text = result?.content[0]?.text ?? '';
    expect(text).toContain('299 repeated lines folded');
    expect(text.endsWith('\n\n\nCommand exited with code 3')).toBe(true);
    const key = /<<tokenless:(\d{29})>>/.exec(text)?.[1] ?? '';
    expect(process.env['TOKENLESS_SESSION_ID']).toBe('pi-session-1');
    const retrieved = runCli(['retrieve', key], { env: { ...p.env, TOKENLESS_SESSION_ID: 'pi-session-1' } });
    expect(retrieved.status).toBe(0);
    expect(retrieved.stdoutBytes).toEqual(spawnSync('bash', ['-c', event.input.command]).stdout);
  });
});
