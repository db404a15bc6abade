/**
 * The real Gemini CLI client (0.61.0, installed by scripts/install-gemini-cli.sh) against our fake Gemini API on
 * loopback: one scripted headless YOLO session without our hooks (the baseline) and one with the hooks `syt init
 * --harness gemini-cli` writes. Assertions are on the request bodies the fake server received, i.e. on what the
 * model was sent. FINDINGS.md (gemini-cli-lab) names the traps this environment avoids: auth type pinned to the API
 * key, the model pinned (no router call), folder trust off.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { RETRIEVAL_MARKER, buildWorkTree, installedClient, runAgent } from '../helpers/agent-work-tree.ts';
import { lastBody as lastBodyOf } from '../helpers/scripted-server.ts';
import { responsesFor, startFakeGemini, type FakeGemini, type GenerateBody, type Script } from './gemini/fake-gemini.ts';

const VERSION = '0.61.0';
const GEMINI = installedClient('TOKENLESS_GEMINI_BIN', `gemini-cli-${VERSION}`, 'gemini');
if (GEMINI === null) console.warn('gemini-cli-real: Gemini CLI is not installed; run `bash scripts/install-gemini-cli.sh` (skipping)');

const made: string[] = [];

interface Session {
  readonly work: string;
  readonly data: string;
  readonly env: Record<string, string>;
  readonly fake: FakeGemini;
  readonly exit: number | null;
  readonly stderr: string;
}

/** The last conversation request: it carries every tool result the model was sent. */
const lastBody = (fake: FakeGemini): GenerateBody => lastBodyOf(fake.requests, (url) => url.includes(':streamGenerateContent'));

const script: Script = [
  { call: { name: 'run_shell_command', args: { command: 'ls -la', description: 'list the files' } } },
  { call: { name: 'run_shell_command', args: { command: 'npm test', description: 'run the tests' } } },
  (body) => {
    const marker = RETRIEVAL_MARKER.exec(responsesFor(body, 'ls -la').join('\n'))?.[1];
    return { call: { name: 'run_shell_command', args: { command: marker === undefined ? 'echo no marker' : `tokenless retrieve '${marker}'`, description: 'the full listing' } } };
  },
  { text: 'done' },
];

async function runSession(withHooks: boolean, mode: 'yolo' | 'default' = 'yolo', project: object | null = null): Promise<Session> {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-gemini-'));
  made.push(root);
  const [home, work, data, bin] = ['home', 'work', 'data', 'bin'].map((name) => join(root, name)) as [string, string, string, string];
  for (const dir of [home, work, data, bin, join(home, '.gemini')]) mkdirSync(dir, { recursive: true });
  buildWorkTree(work);
  if (project !== null) {
    mkdirSync(join(work, '.gemini'));
    writeFileSync(join(work, '.gemini', 'settings.json'), `${JSON.stringify(project, null, 2)}\n`);
  }
  // The model calls `tokenless retrieve`: our CLI under that name on PATH, as an installed package would be.
  writeFileSync(join(bin, 'tokenless'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, { mode: 0o755 });
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ide: { enabled: false },
    }),
  );
  const fake = await startFakeGemini(script);
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: home,
    TZ: 'UTC',
    NO_COLOR: '1',
    TMPDIR: tmpdir(),
    TOKENLESS_DATA_DIR: data,
    GEMINI_API_KEY: 'fake-key',
    GOOGLE_GEMINI_BASE_URL: fake.url,
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_SANDBOX: 'false',
    GEMINI_TELEMETRY_ENABLED: 'false',
    // npm test inside the session must not look for an npm update.
    npm_config_update_notifier: 'false',
  };
  if (withHooks) {
    const init = runCli(['init', '--harness', 'gemini-cli'], { cwd: work, env });
    if (init.status !== 0) throw new Error(`syt init failed: ${init.stderr}`);
  }
  const { exit, stderr } = await runAgent(GEMINI ?? 'gemini', ['-p', 'list the files, run the tests', '--approval-mode', mode, '-m', 'gemini-2.5-flash'], work, env);
  await fake.close();
  return { work, data, env, fake, exit, stderr };
}

/** The shell output inside one function response (Gemini CLI sends `{"output": "…"}`). */
function outputOf(response: string): string {
  const parsed = JSON.parse(response) as { output?: unknown };
  return typeof parsed.output === 'string' ? parsed.output : response;
}

describe.skipIf(GEMINI === null)(`Gemini CLI ${VERSION}, real client, offline`, () => {
  let baseline: Session;
  let hooked: Session;
  let asking: Session;
  beforeAll(async () => {
    baseline = await runSession(false);
    hooked = await runSession(true);
    asking = await runSession(true, 'default', { tools: { allowed: ['run_shell_command(ls)'] } });
  }, 240_000);
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('both sessions finish', () => {
    expect(baseline.exit, baseline.stderr).toBe(0);
    expect(hooked.exit, hooked.stderr).toBe(0);
  });

  it('sends the model a shorter `ls -la` with a retrieval marker', () => {
    const raw = outputOf(responsesFor(lastBody(baseline.fake), 'ls -la')[0] ?? '{}');
    const seen = outputOf(responsesFor(lastBody(hooked.fake), 'ls -la')[0] ?? '{}');
    expect(raw).toContain('note-59.txt');
    expect(raw).not.toMatch(RETRIEVAL_MARKER);
    expect(seen).toMatch(RETRIEVAL_MARKER);
    expect(seen).toContain('note-59.txt');
    expect(seen.length).toBeLessThan(raw.length);
  });

  it('keeps the failing test and its exit code', () => {
    const raw = outputOf(responsesFor(lastBody(baseline.fake), 'npm test')[0] ?? '{}');
    const seen = outputOf(responsesFor(lastBody(hooked.fake), 'npm test')[0] ?? '{}');
    for (const text of [raw, seen]) {
      expect(text).toContain('status code out of range');
      expect(text).toMatch(/Exit Code: 1/);
    }
    expect(seen.length).toBeLessThan(raw.length);
  });

  it('retrieves the original listing byte-exact, from the model\'s own shell call and from the CLI', () => {
    const body = lastBody(hooked.fake);
    const marker = RETRIEVAL_MARKER.exec(outputOf(responsesFor(body, 'ls -la')[0] ?? '{}'))?.[1];
    expect(marker).toBeDefined();
    const original = spawnSync('ls', ['-la'], { cwd: hooked.work, env: hooked.env }).stdout;
    // From the CLI: a person at a terminal (a pseudo-terminal from util-linux script(1)) may retrieve from any session.
    const command = [process.execPath, CLI, 'retrieve', marker ?? '', '--any-session'].map((word) => `'${word}'`).join(' ');
    const retrieved = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: hooked.work, env: hooked.env, input: '' });
    expect(retrieved.status, retrieved.stderr.toString('utf8')).toBe(0);
    expect(retrieved.stdout.toString('utf8').replace(/\r\n/g, '\n')).toBe(original.toString('utf8'));
    const viaModel = outputOf(responsesFor(body, 'tokenless retrieve')[0] ?? '{}');
    expect(viaModel).toContain(original.toString('utf8').trimEnd());
  });

  // The user's rule lets `ls` run without asking in the default mode; whether it would also allow the rewritten line
  // is not ours to guess, so the hook leaves the command alone and the model sees it as the client ran it.
  it('rewrites nothing in the default approval mode, even for a command a rule of the user allows', () => {
    const seen = outputOf(responsesFor(lastBody(asking.fake), 'ls -la')[0] ?? '{}');
    expect(seen).toContain('note-59.txt');
    expect(seen).not.toMatch(RETRIEVAL_MARKER);
    expect(seen).not.toContain('modified by a hook');
  });

  it('wrote only .gemini/settings.json in the project, and uninstall leaves nothing', () => {
    expect(JSON.parse(readFileSync(join(hooked.work, '.gemini', 'settings.json'), 'utf8'))).toMatchObject({ hooks: { BeforeTool: [{ matcher: 'run_shell_command' }] } });
    const removed = runCli(['init', '--harness', 'gemini-cli', '--uninstall'], { cwd: hooked.work, env: hooked.env });
    expect(removed.status, removed.stderr).toBe(0);
    expect(existsSync(join(hooked.work, '.gemini', 'settings.json'))).toBe(false);
  });
});
