/**
 * The real Pi 0.73.1 (`bash scripts/install-pi.sh`), offline: `pi -p --offline` against a fake OpenAI-compatible
 * server on loopback (a provider with a baseUrl in $PI_CODING_AGENT_DIR/models.json), our extension installed by
 * `syt init --harness pi`. A large bash output reaches the model as our view with its exit line, a retrieve through
 * the shell returns it byte-exact, and a gate extension the person installed decides on exactly the commands it
 * decides on without ours (Pi has no permission rules of its own: such gates are what it has).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { installedClient, runAgent } from '../helpers/agent-work-tree.ts';
import { fakeChatModel as fakeModel } from '../helpers/openai-chat-server.ts';

const PI = installedClient('TOKENLESS_PI_BIN', 'pi-0.73.1', 'pi');
if (PI === null) console.warn('pi-real: Pi is not installed; run `bash scripts/install-pi.sh` (skipping)');

const ROOT = mkdtempSync(join(tmpdir(), 'syt-pi-real-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const LOG = 'for i in $(seq 1 300); do echo "INFO request handled path=/api/item status=200"; done; echo "ERROR failed once"; exit 3';
const MARKER = /<<tokenless:(\d{29})>>/;

/** A git project, a private HOME and Pi agent dir whose models.json points at the fake server. */
function project(name: string, url: string): { dir: string; agentDir: string; env: Record<string, string> } {
  const dir = join(ROOT, name);
  const agentDir = join(dir, '.home', 'agent');
  mkdirSync(agentDir, { recursive: true });
  spawnSync('git', ['init', '-q', dir]);
  writeFileSync(join(agentDir, 'models.json'), JSON.stringify({ providers: { fake: { baseUrl: url, api: 'openai-completions', apiKey: 'x', models: [{ id: 'm' }] } } }));
  const env = { HOME: join(dir, '.home'), PI_CODING_AGENT_DIR: agentDir, TOKENLESS_DATA_DIR: join(dir, '.syt'), PATH: process.env['PATH'] ?? '' };
  return { dir, agentDir, env };
}

/** `pi -p` (print mode: one prompt, then exit), asynchronously: the fake model answers from this process. */
function piPrint(dir: string, env: Record<string, string>): Promise<{ exit: number | null; stderr: string }> {
  return runAgent(PI ?? 'pi', ['-p', '--offline', '--provider', 'fake', '--model', 'm', 'go'], dir, env);
}

// A gate as Pi's own examples write them (permission-gate.ts): a tool_call handler that blocks by a pattern. It
// records every command it was asked about.
const GATE = (log: string): string => `import { appendFileSync } from 'node:fs';
export default function (pi) {
  pi.on('tool_call', (event) => {
    if (event.toolName !== 'bash') return undefined;
    appendFileSync(${JSON.stringify(log)}, JSON.stringify(event.input.command) + '\\n');
    if (/^touch /.test(event.input.command)) return { block: true, reason: 'touch is blocked here' };
    return undefined;
  });
}
`;

describe.skipIf(PI === null)('Pi 0.73.1, real client, offline', () => {
  it('shows a view of a large bash output with its exit code, stores that view, and a retrieve through the shell is byte-exact', async () => {
    const retrieved = join(ROOT, 'retrieved.txt');
    const model = await fakeModel((results) => {
      if (results.length === 0) return LOG;
      const key = MARKER.exec(results[0] ?? '')?.[1];
      return results.length === 1 && key !== undefined ? `node ${CLI} retrieve ${key} > ${retrieved}` : null;
    });
    try {
      const { dir, agentDir, env } = project('view', model.url);
      expect(runCli(['init', '--harness', 'pi'], { cwd: dir, env }).status).toBe(0);
      const doctor = runCli(['doctor', '--harness', 'pi'], { cwd: dir, env: { ...env, TOKENLESS_PI_BIN: PI ?? 'pi' } });
      expect(doctor.stdout).toMatch(/ok +pi: 0\.73\.1 \(the version tested with our hooks\)/);
      const run = await piPrint(dir, env);
      expect(run.exit, run.stderr).toBe(0);
      const shown = model.toolResults[1]?.[0] ?? '';
      expect(shown).toContain('299 repeated lines folded');
      expect(shown).toContain('ERROR failed once');
      expect(shown.endsWith('\n\nCommand exited with code 3')).toBe(true);
      const full = spawnSync('bash', ['-c', LOG]);
      expect(full.status).toBe(3);
      expect(readFileSync(retrieved)).toEqual(full.stdout);
      // What Pi keeps in its session file is the view too, not the 14 KiB it replaced.
      const sessions = join(agentDir, 'sessions');
      const files = readdirSync(sessions, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.jsonl'));
      const stored = files.map((file) => readFileSync(join(sessions, file), 'utf8')).join('');
      expect(stored).toContain('299 repeated lines folded');
      expect(stored).not.toContain('INFO request handled path=/api/item status=200\\nINFO');
    } finally {
      await model.close();
    }
  }, 240_000);

  it("with a gate extension loaded after ours, it judges the commands as typed and blocks the same ones (nothing widened)", async () => {
    const observed: Record<string, { gateSaw: string[]; flag: boolean; results: string[] }> = {};
    for (const withOurs of [false, true]) {
      const flag = join(ROOT, `flag-${withOurs}`);
      const commands = [`touch ${flag}`, LOG];
      const model = await fakeModel((results) => commands[results.length] ?? null);
      try {
        const { dir, agentDir, env } = project(`gate-${withOurs}`, model.url);
        const log = join(dir, 'gate.log');
        // Pi loads project extensions before the user's: ours (project) runs first, the gate (user) after it.
        mkdirSync(join(agentDir, 'extensions'), { recursive: true });
        writeFileSync(join(agentDir, 'extensions', 'gate.js'), GATE(log));
        if (withOurs) expect(runCli(['init', '--harness', 'pi'], { cwd: dir, env }).status).toBe(0);
        expect((await piPrint(dir, env)).exit).toBe(0);
        observed[String(withOurs)] = { gateSaw: readFileSync(log, 'utf8').trimEnd().split('\n'), flag: existsSync(flag), results: model.toolResults.at(-1) ?? [] };
      } finally {
        await model.close();
      }
    }
    const without = observed['false'];
    const withOurs = observed['true'];
    expect(without?.flag).toBe(false);
    expect(withOurs?.flag).toBe(false);
    expect(withOurs?.gateSaw.map((line) => line.replace('flag-true', 'flag-false'))).toEqual(without?.gateSaw);
    expect(withOurs?.results[0]).toBe(without?.results[0]);
    expect(withOurs?.results[0]).toContain('touch is blocked here');
    // The allowed command ran as typed and only its result changed.
    expect(withOurs?.results[1]).toContain('299 repeated lines folded');
    expect(without?.results[1]).not.toContain('tokenless');
  }, 240_000);
});
