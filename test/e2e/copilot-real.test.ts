/**
 * The real GitHub Copilot CLI 1.0.102 (`bash scripts/install-copilot-cli.sh`), offline: `copilot -p` in BYOK mode
 * (COPILOT_PROVIDER_BASE_URL at a fake OpenAI-compatible server on loopback, COPILOT_OFFLINE, no GitHub login), our
 * postToolUse hook installed by `syt init --harness copilot` in a private COPILOT_HOME. A large bash output reaches
 * the model as our view with Copilot's exit line, a retrieve through the model's own shell is byte-exact, and the
 * person's `--deny-tool` rule refuses exactly what it refuses without us (we rewrite nothing: docs/agents/copilot.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { installedClient, runAgent } from '../helpers/agent-work-tree.ts';
import { fakeChatModel } from '../helpers/openai-chat-server.ts';

const VERSION = '1.0.102';
const COPILOT = installedClient('TOKENLESS_COPILOT_BIN', `copilot-cli-${VERSION}`, 'copilot');
if (COPILOT === null) console.warn('copilot-real: Copilot CLI is not installed; run `bash scripts/install-copilot-cli.sh` (skipping)');

const ROOT = mkdtempSync(join(tmpdir(), 'syt-copilot-real-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

const LOG = 'for i in $(seq 1 300); do echo "INFO request handled path=/api/item status=200"; done; echo "ERROR failed once"; exit 3';
const MARKER = /<<tokenless:(\d{29})>>/;
const EXIT_LINE = /<shellId: [^<>\n]+ completed with exit code 3>$/;

/** A git project with a private HOME and COPILOT_HOME; Copilot's model is the fake server, in BYOK mode. */
function project(name: string, url: string): { dir: string; env: Record<string, string> } {
  const dir = join(ROOT, name);
  mkdirSync(join(dir, '.home', 'bin'), { recursive: true });
  spawnSync('git', ['init', '-q', dir]);
  // The model calls `tokenless retrieve`: our CLI under that name on PATH, as an installed package would be (a path
  // outside the project in the command would make Copilot ask, and `-p` cannot ask).
  writeFileSync(join(dir, '.home', 'bin', 'tokenless'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, { mode: 0o755 });
  const env = {
    HOME: join(dir, '.home'),
    COPILOT_HOME: join(dir, '.home', '.copilot'),
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: url,
    COPILOT_PROVIDER_API_KEY: 'fake-key',
    COPILOT_MODEL: 'gpt-5.4',
    TOKENLESS_DATA_DIR: join(dir, '.syt'),
    PATH: `${join(dir, '.home', 'bin')}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    TZ: 'UTC',
    NO_COLOR: '1',
  };
  return { dir, env };
}

function copilotPrint(dir: string, env: Record<string, string>, extra: readonly string[] = []): Promise<{ exit: number | null; stderr: string }> {
  return runAgent(COPILOT ?? 'copilot', ['-p', 'go', '--allow-all-tools', ...extra], dir, env);
}

describe.skipIf(COPILOT === null)(`GitHub Copilot CLI ${VERSION}, real client, offline`, () => {
  it('shows a view of a large bash output with its exit line, and a retrieve through the shell is byte-exact', async () => {
    const retrieved = join(ROOT, 'view', 'retrieved.txt');
    const model = await fakeChatModel((results) => {
      if (results.length === 0) return LOG;
      const key = MARKER.exec(results[0] ?? '')?.[1];
      return results.length === 1 && key !== undefined ? `tokenless retrieve ${key} > retrieved.txt` : null;
    }, { description: 'run it' });
    try {
      const { dir, env } = project('view', model.url);
      expect(runCli(['init', '--harness', 'copilot', '--scope', 'user'], { cwd: dir, env }).status).toBe(0);
      const run = await copilotPrint(dir, env);
      expect(run.exit, run.stderr).toBe(0);
      const shown = model.toolResults[1]?.[0] ?? '';
      expect(shown).toContain('299 repeated lines folded');
      expect(shown).toContain('ERROR failed once');
      expect(shown).toMatch(EXIT_LINE);
      const full = spawnSync('bash', ['-c', LOG]);
      expect(full.status).toBe(3);
      expect(existsSync(retrieved), JSON.stringify(model.toolResults.at(-1))).toBe(true);
      expect(readFileSync(retrieved)).toEqual(full.stdout);
    } finally {
      await model.close();
    }
  }, 240_000);
  it("refuses what the person's --deny-tool rule refuses, with and without our hook, and changes only the allowed result", async () => {
    const observed: Record<string, { flag: boolean; results: string[] }> = {};
    for (const withOurs of [false, true]) {
      const name = `deny-${withOurs}`;
      const commands = ['touch made.txt', LOG];
      const model = await fakeChatModel((results) => commands[results.length] ?? null, { description: 'run it' });
      try {
        const { dir, env } = project(name, model.url);
        if (withOurs) expect(runCli(['init', '--harness', 'copilot', '--scope', 'user'], { cwd: dir, env }).status).toBe(0);
        const run = await copilotPrint(dir, env, ['--deny-tool', 'shell(touch)']);
        expect(run.exit, run.stderr).toBe(0);
        observed[String(withOurs)] = { flag: existsSync(join(dir, 'made.txt')), results: model.toolResults.at(-1) ?? [] };
      } finally {
        await model.close();
      }
    }
    const without = observed['false'];
    const withOurs = observed['true'];
    expect(without?.flag).toBe(false);
    expect(withOurs?.flag).toBe(false);
    expect(withOurs?.results[0]).toBe(without?.results[0]);
    expect(without?.results[0]).toContain('denied due to the following rules: `shell(touch)`');
    expect(without?.results[1]).toMatch(EXIT_LINE);
    expect(without?.results[1]).not.toContain('tokenless');
    expect(withOurs?.results[1]).toContain('299 repeated lines folded');
  }, 240_000);
});
