/**
 * The real Codex CLI client (0.169.0, installed by scripts/install-codex.sh) against our fake Responses API on
 * loopback: one scripted `codex exec` session without our hooks (the baseline), one with the hook `syt init
 * --harness codex` writes, one where an exec-policy rules file exists (we must leave the command alone) and one
 * without `--dangerously-bypass-hook-trust` (Codex skips a hook nobody trusted). Assertions are on the request bodies
 * the fake server received, i.e. on what the model was sent. docs/agents/codex-findings.md has the measurements.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { RETRIEVAL_MARKER, buildWorkTree, installedClient, runAgent } from '../helpers/agent-work-tree.ts';
import { lastBody as lastBodyOf } from '../helpers/scripted-server.ts';
import { outputsFor, startFakeResponses, type FakeResponses, type ResponsesBody, type Script } from './codex/fake-responses.ts';

const VERSION = '0.169.0';
const CODEX = installedClient('TOKENLESS_CODEX_BIN', `codex-${VERSION}`, 'codex');
if (CODEX === null) console.warn('codex-real: Codex CLI is not installed; run `bash scripts/install-codex.sh` (skipping)');

const made: string[] = [];

interface Session {
  readonly work: string;
  readonly env: Record<string, string>;
  readonly fake: FakeResponses;
  readonly exit: number | null;
  readonly stderr: string;
}

interface Options {
  readonly hooks: boolean;
  /** Pass --dangerously-bypass-hook-trust (a new hook runs only once trusted; `codex exec` cannot ask). */
  readonly bypassTrust?: boolean;
  /** An exec-policy rules file in CODEX_HOME/rules. */
  readonly rules?: string;
}

/** The last conversation request: it carries every tool result the model was sent. */
const lastBody = (fake: FakeResponses): ResponsesBody => lastBodyOf(fake.requests, (url) => url.endsWith('/responses'));

const script: Script = [
  { command: 'ls -la' },
  { command: 'npm test' },
  (body) => {
    const marker = RETRIEVAL_MARKER.exec(outputsFor(body, 'ls -la').join('\n'))?.[1];
    return { command: marker === undefined ? 'echo no marker' : `tokenless retrieve '${marker}'` };
  },
  { text: 'done' },
];

async function runSession(options: Options): Promise<Session> {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-codex-'));
  made.push(root);
  const [home, work, data, bin, codexHome] = ['home', 'work', 'data', 'bin', 'codex-home'].map((name) => join(root, name)) as [string, string, string, string, string];
  for (const dir of [home, work, data, bin, codexHome]) mkdirSync(dir, { recursive: true });
  buildWorkTree(work);
  // The model calls `tokenless retrieve`: our CLI under that name on PATH, as an installed package would be.
  writeFileSync(join(bin, 'tokenless'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, { mode: 0o755 });
  // Codex runs commands in a login shell (`bash -lc`), whose /etc/profile sets PATH afresh; a user's profile adds to it.
  writeFileSync(join(home, '.profile'), `PATH='${bin}':"$PATH"\n`);
  const fake = await startFakeResponses(script);
  // A custom provider on loopback; the project trusted, so Codex loads its .codex/hooks.json.
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5"',
      'model_provider = "fake"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      `[projects.${JSON.stringify(work)}]`,
      'trust_level = "trusted"',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = ${JSON.stringify(fake.url)}`,
      'wire_api = "responses"',
      'env_key = "FAKE_OPENAI_KEY"',
      '',
    ].join('\n'),
  );
  if (options.rules !== undefined) {
    mkdirSync(join(codexHome, 'rules'));
    writeFileSync(join(codexHome, 'rules', 'default.rules'), options.rules);
  }
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: home,
    CODEX_HOME: codexHome,
    TZ: 'UTC',
    NO_COLOR: '1',
    TMPDIR: tmpdir(),
    TOKENLESS_DATA_DIR: data,
    FAKE_OPENAI_KEY: 'fake-key',
    // npm test inside the session must not look for an npm update.
    npm_config_update_notifier: 'false',
  };
  if (options.hooks) {
    const init = runCli(['init', '--harness', 'codex'], { cwd: work, env });
    if (init.status !== 0) throw new Error(`syt init failed: ${init.stderr}`);
  }
  const args = ['exec', '--skip-git-repo-check', ...(options.bypassTrust === true ? ['--dangerously-bypass-hook-trust'] : []), 'list the files, run the tests'];
  const { exit, stderr } = await runAgent(CODEX ?? 'codex', args, work, env);
  await fake.close();
  return { work, env, fake, exit, stderr };
}

/** Codex wraps a command's output in a header (chunk id, wall time, exit code, token count) before `Output:`. */
function outputOf(text: string | undefined): string {
  const at = (text ?? '').indexOf('\nOutput:\n');
  return at < 0 ? (text ?? '') : (text ?? '').slice(at + '\nOutput:\n'.length);
}

describe.skipIf(CODEX === null)(`Codex CLI ${VERSION}, real client, offline`, () => {
  let baseline: Session;
  let hooked: Session;
  let ruled: Session;
  let untrusted: Session;
  beforeAll(async () => {
    baseline = await runSession({ hooks: false });
    hooked = await runSession({ hooks: true, bypassTrust: true });
    ruled = await runSession({ hooks: true, bypassTrust: true, rules: 'prefix_rule(pattern=["ls"], decision="allow")\n' });
    untrusted = await runSession({ hooks: true });
  }, 300_000);
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('every session finishes', () => {
    for (const session of [baseline, hooked, ruled, untrusted]) expect(session.exit, session.stderr).toBe(0);
  });

  it('sends the model a shorter `ls -la` with a retrieval marker', () => {
    const raw = outputOf(outputsFor(lastBody(baseline.fake), 'ls -la')[0]);
    const seen = outputOf(outputsFor(lastBody(hooked.fake), 'ls -la')[0]);
    expect(raw).toContain('note-59.txt');
    expect(raw).not.toMatch(RETRIEVAL_MARKER);
    expect(seen).toMatch(RETRIEVAL_MARKER);
    expect(seen).toContain('note-59.txt');
    expect(seen.length).toBeLessThan(raw.length);
  });

  it('keeps the failing test and its exit code', () => {
    const raw = outputsFor(lastBody(baseline.fake), 'npm test')[0] ?? '';
    const seen = outputsFor(lastBody(hooked.fake), 'npm test')[0] ?? '';
    for (const text of [raw, seen]) {
      expect(outputOf(text)).toContain('status code out of range');
      expect(text).toContain('Process exited with code 1');
    }
    // On a pipe, `run` holds output for a view only 0.5 s (exec_command hands the model what arrived within its yield
    // time, which the hook cannot see), and vitest takes longer: the run streams raw, as the model would have had it
    // (give or take vitest's timings). Were it quicker, the view would be shorter and carry a marker.
    if (RETRIEVAL_MARKER.test(outputOf(seen))) expect(outputOf(seen).length).toBeLessThan(outputOf(raw).length);
    else expect(Math.abs(outputOf(seen).length - outputOf(raw).length)).toBeLessThan(64);
  });

  it("retrieves the original listing byte-exact, from the model's own shell call and from the CLI", () => {
    const body = lastBody(hooked.fake);
    const marker = RETRIEVAL_MARKER.exec(outputOf(outputsFor(body, 'ls -la')[0]))?.[1];
    expect(marker).toBeDefined();
    const original = spawnSync('ls', ['-la'], { cwd: hooked.work, env: hooked.env }).stdout.toString('utf8');
    // From the CLI: a person at a terminal (a pseudo-terminal from util-linux script(1)) may retrieve from any session.
    const command = [process.execPath, CLI, 'retrieve', marker ?? '', '--any-session'].map((word) => `'${word}'`).join(' ');
    const retrieved = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: hooked.work, env: hooked.env, input: '' });
    expect(retrieved.status, retrieved.stderr.toString('utf8')).toBe(0);
    expect(retrieved.stdout.toString('utf8').replace(/\r\n/g, '\n')).toBe(original);
    // From the model: Codex gives its shell commands CODEX_SESSION_ID, the session the marker was shown in.
    expect(outputOf(outputsFor(body, 'tokenless retrieve')[0])).toBe(original);
  });

  // A rule judges the command's words; behind our wrapper they differ, so the hook leaves the command alone.
  it('rewrites nothing where an exec-policy rules file exists', () => {
    const seen = outputOf(outputsFor(lastBody(ruled.fake), 'ls -la')[0]);
    expect(seen).toContain('note-59.txt');
    expect(seen).not.toMatch(RETRIEVAL_MARKER);
  });

  it('runs no hook of ours until the user trusts it', () => {
    const seen = outputOf(outputsFor(lastBody(untrusted.fake), 'ls -la')[0]);
    expect(seen).toContain('note-59.txt');
    expect(seen).not.toMatch(RETRIEVAL_MARKER);
  });

  it('wrote only .codex/hooks.json in the project, and uninstall leaves nothing', () => {
    expect(JSON.parse(readFileSync(join(hooked.work, '.codex', 'hooks.json'), 'utf8'))).toMatchObject({ hooks: { PreToolUse: [{ matcher: 'Bash' }] } });
    const removed = runCli(['init', '--harness', 'codex', '--uninstall'], { cwd: hooked.work, env: hooked.env });
    expect(removed.status, removed.stderr).toBe(0);
    expect(existsSync(join(hooked.work, '.codex', 'hooks.json'))).toBe(false);
  });
});
