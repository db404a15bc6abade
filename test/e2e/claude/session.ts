/**
 * Runs the real Claude Code client (`claude -p`) against the fake Anthropic server, in a throw-away HOME, config dir,
 * TMPDIR and git work tree, with only the environment it needs (FINDINGS.md section 1: with these variables set its
 * only connection is to ANTHROPIC_BASE_URL). CI runs these tests inside `unshare -n`, where only loopback exists.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI } from '../../helpers/cli.ts';
import type { FakeRequest } from './fake-anthropic.ts';

export const CLAUDE_CODE_VERSION = '2.1.332';

/** The binary scripts/install-claude-code.sh installs (or $TOKENLESS_CLAUDE_BIN), or null when it is not there. */
export function claudeBinary(): string | null {
  const configured = process.env['TOKENLESS_CLAUDE_BIN'];
  const cache = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  const path = configured ?? join(cache, 'save-your-tokens', `claude-code-${CLAUDE_CODE_VERSION}`, 'node_modules', '.bin', 'claude');
  return existsSync(path) ? path : null;
}

export interface SessionDirs {
  readonly root: string;
  readonly home: string;
  readonly work: string;
  readonly data: string;
  readonly bin: string;
}

/** HOME, config dir, TMPDIR, data dir, and a bin dir where `tokenless` is our built CLI (as after a global install). */
export function sessionDirs(root: string): SessionDirs {
  const dirs = { root, home: join(root, 'home'), work: join(root, 'work'), data: join(root, 'data'), bin: join(root, 'bin') };
  for (const dir of [dirs.home, join(dirs.home, '.claude'), dirs.work, dirs.bin, join(root, 'tmp')]) mkdirSync(dir, { recursive: true });
  for (const name of ['tokenless', 'syt']) if (!existsSync(join(dirs.bin, name))) symlinkSync(CLI, join(dirs.bin, name));
  return dirs;
}

/** The environment a user's shell would give `claude` and `syt`: our bin dir first on PATH, a private data dir. */
export function sessionEnv(dirs: SessionDirs, baseUrl: string): Record<string, string> {
  return {
    PATH: `${dirs.bin}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: dirs.home,
    USER: 'root',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    SHELL: '/bin/bash',
    CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'),
    TMPDIR: join(dirs.root, 'tmp'),
    CLAUDE_CODE_TMPDIR: join(dirs.root, 'tmp'),
    XDG_RUNTIME_DIR: join(dirs.root, 'tmp'),
    TOKENLESS_DATA_DIR: dirs.data,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-000',
    // Root may use --dangerously-skip-permissions only in a declared sandbox.
    IS_SANDBOX: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
  };
}

export interface ClaudeRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `claude -p PROMPT --output-format json ARGS` in the work tree; resolves when it exits (or is killed at the deadline). */
export function runClaude(bin: string, dirs: SessionDirs, env: Record<string, string>, args: readonly string[], timeoutMs = 180_000): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-p', 'do the task', '--output-format', 'json', ...args], { cwd: dirs.work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

export interface SeenResult {
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly content: string;
  readonly isError: boolean;
}

/** Every tool call of the last main request, in call order, with the result text the model saw. */
export function seenResults(requests: readonly FakeRequest[]): SeenResult[] {
  const main = requests.filter((request) => request.body !== null && (request.body.tools ?? []).some((tool) => tool.name === 'Bash'));
  const last = main.at(-1)?.body;
  if (last === undefined || last === null) return [];
  const calls = new Map<string, { tool: string; input: Record<string, unknown> }>();
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const message of last.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block['type'] === 'tool_use') calls.set(String(block['id']), { tool: String(block['name']), input: block['input'] as Record<string, unknown> });
      if (block['type'] === 'tool_result') results.set(String(block['tool_use_id']), { content: resultText(block['content']), isError: block['is_error'] === true });
    }
  }
  return [...calls.entries()].map(([id, call]) => ({ ...call, ...(results.get(id) ?? { content: '', isError: false }) }));
}

export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}
