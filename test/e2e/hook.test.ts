import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR, loadCorpusCase } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
/** util-linux script(1) gives a command a pseudo-terminal, standing in for a person at a terminal. */
const hasScript = spawnSync('script', ['--version']).status === 0;
const attribution = (session = 's1') => ({ agent_id: 'test-agent', session_id: session, tool_use_id: 'tu1' });
const postTool = (content: string, session = 's1', extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    protocol_version: 2,
    operation: 'post_tool',
    attribution: attribution(session),
    input: { tool_name: 'Bash', status: 'success', origin: 'api_response', content, ...extra },
  });
const retrieve = (marker: string, session: string, visible: string[] = []) =>
  JSON.stringify({ protocol_version: 2, operation: 'retrieve', attribution: { agent_id: 'test-agent', session_id: session }, input: { marker, visible_markers: visible } });

/** A real search listing from the corpus, which post_tool shortens losslessly. */
const grepListing = loadCorpusCase('search-grep-rn-flagset-pflag').stdout;
/** A real large JSON document, which post_tool shortens with stashed elisions. */
const bigJson = loadCorpusCase('data-npm-view-versions-json').stdout;

describe('tokenless hook (native envelope)', () => {
  it('answers post_tool with exactly one JSON document and exit 0', () => {
    const env = { TOKENLESS_DATA_DIR: tempDir() };
    const result = runCli(['hook', 'post_tool'], { input: postTool(grepListing), env });
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const answer = JSON.parse(result.stdout) as { protocol_version: number; operation: string; attribution: unknown; result: { disposition: string; output: string; applied_operations: string[] } };
    expect(answer).toMatchObject({ protocol_version: 2, operation: 'post_tool', attribution: attribution() });
    expect(answer.result.disposition).toBe('applied');
    expect(answer.result.applied_operations).toContain('search_path_sharing');
    expect(Buffer.byteLength(answer.result.output)).toBeLessThan(Buffer.byteLength(grepListing));
  });

  it('passes a retrieve result through untouched', () => {
    const result = runCli(['hook', 'post_tool'], { input: postTool(grepListing, 's1', { result_kind: 'retrieve' }), env: { TOKENLESS_DATA_DIR: tempDir() } });
    const answer = JSON.parse(result.stdout) as { result: { disposition: string; output: string } };
    expect(answer.result).toMatchObject({ disposition: 'passthrough', output: grepListing });
  });

  it('retrieves a shown marker byte-exact in its own session and refuses it in another', () => {
    const env = { TOKENLESS_DATA_DIR: tempDir() };
    const shortened = JSON.parse(runCli(['hook', 'post_tool'], { input: postTool(bigJson, 'session-a'), env }).stdout) as { result: { stash_keys: string[]; visible_markers: string[] } };
    const key = shortened.result.visible_markers[0];
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    const marker = `<<tokenless:${key}>>`;
    const own = runCli(['hook', 'retrieve'], { input: retrieve(marker, 'session-a'), env });
    expect(own.status).toBe(0);
    const content = (JSON.parse(own.stdout) as { result: { content: string } }).result.content;
    expect(bigJson.includes(content) || content === bigJson).toBe(true);

    const other = runCli(['hook', 'retrieve'], { input: retrieve(marker, 'session-b'), env });
    expect(other).toMatchObject({ status: 1, stdout: '' });
    expect(other.stderr).toMatch(/not shown in session session-b/);

    // The CLI form: authorised by the session in the environment, or by --any-session at a terminal.
    const cliOwn = runCli(['retrieve', marker], { env: { ...env, TOKENLESS_SESSION_ID: 'session-a' } });
    expect(cliOwn.status).toBe(0);
    expect(cliOwn.stdout).toBe(content);
    expect(runCli(['retrieve', marker], { env: { ...env, TOKENLESS_SESSION_ID: 'session-b' } }).status).toBe(1);
    // Issue 15, item 9: an agent's Bash tool gives pipes, not a terminal, so the model cannot type --any-session.
    const typed = runCli(['retrieve', key ?? '', '--any-session'], { env: { ...env, TOKENLESS_SESSION_ID: 'session-b' } });
    expect(typed).toMatchObject({ status: 1, stdout: '' });
    expect(typed.stderr).toMatch(/--any-session needs a person at a terminal/);
    // A person at a terminal (a pseudo-terminal from script(1)) gets the original from any session.
    if (hasScript) {
      const command = [process.execPath, CLI, 'retrieve', key ?? '', '--any-session'].map((word) => `'${word}'`).join(' ');
      const atTerminal = spawnSync('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', ...env }, input: '' });
      expect(atTerminal.status).toBe(0);
      expect(atTerminal.stdout.toString('utf8').replace(/\r\n/g, '\n')).toBe(content);
    }
  });

  it('fails retrieve of an unknown marker with exit 1 and nothing on stdout', () => {
    const result = runCli(['hook', 'retrieve'], { input: retrieve('<<tokenless:0123456789abcdef01234567>>', 's1', ['0123456789abcdef01234567']), env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    ['not JSON', '{"protocol_version": 2,'],
    ['a JSON array', '[1, 2]'],
    ['a wrong lifecycle', postTool('x').replace('"post_tool"', '"pre_tool"')],
    ['missing attribution', JSON.stringify({ protocol_version: 2, operation: 'post_tool', input: {} })],
    ['missing tool_use_id', postTool('x').replace(',"tool_use_id":"tu1"', '')],
  ])('rejects %s with exit 2, one line on stderr and nothing on stdout', (_name, input) => {
    const result = runCli(['hook', 'post_tool'], { input, env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each(['pre_tool', 'post_tool', 'before_model', 'retrieve'])('rejects a 100k-deep %s envelope with exit 2 and nothing on stdout', (lifecycle) => {
    const input = JSON.stringify({ protocol_version: 2, operation: lifecycle, attribution: attribution(), input: { tools: [], messages: ['@DEEP@'] } })
      .replace('"@DEEP@"', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    const result = runCli(['hook', lifecycle], { input, env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result).toMatchObject({ status: 2, stdout: '', stderr: 'tokenless: input nests deeper than 256 levels\n' });
  });

  it('rejects an unknown lifecycle as a usage error', () => {
    expect(runCli(['hook', 'after_party'], { input: '{}' })).toMatchObject({ status: 2, stdout: '' });
  });

  it('passes oversized input through with a reason instead of crashing', () => {
    const huge = postTool('x'.repeat(17 * 1024 * 1024));
    const result = runCli(['hook', 'post_tool'], { input: huge, env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result).toMatchObject({ status: 0, stdout: '' });
    expect(result.stderr).toMatch(/passthrough: input exceeds/);
  });

  it('keeps working when stats.db is damaged', () => {
    const dataDir = tempDir();
    runCli(['hook', 'post_tool'], { input: postTool(grepListing), env: { TOKENLESS_DATA_DIR: dataDir } });
    writeFileSync(join(dataDir, 'stats.db'), 'garbage '.repeat(1000));
    const result = runCli(['hook', 'post_tool'], { input: postTool(grepListing), env: { TOKENLESS_DATA_DIR: dataDir } });
    expect(result.status).toBe(0);
    expect((JSON.parse(result.stdout) as { result: { disposition: string } }).result.disposition).toBe('applied');
    const status = runCli(['stats', 'status', '--json'], { env: { TOKENLESS_DATA_DIR: dataDir } });
    expect(status.status).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ health: 'damaged' });
  });
});

describe('tokenless hook (Claude Code dialect)', () => {
  const sample = (name: string): string => readFileSync(join(FIXTURES_DIR, 'claude-code-hook-samples', name), 'utf8');

  it('rewrites a PreToolUse Bash git status, keeping every other input field', () => {
    const result = runCli(['hook', 'pre_tool'], { input: sample('PreToolUse__Bash.json'), env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(0);
    const answer = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; updatedInput: { command: string; description: string } } };
    expect(answer.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(answer.hookSpecificOutput.updatedInput.description).toBe('Show working tree status');
    expect(answer.hookSpecificOutput.updatedInput.command).toMatch(/^case \$\(command -v git\) in \/\*\) .* run -- git status;; \*\) git status;; esac$/);
  });

  it('asks with the rewrite in the terminal UI for a command Claude Code asks about, and leaves it alone headless', () => {
    const event = { ...(JSON.parse(sample('PreToolUse__Bash.json')) as object), permission_mode: 'default', tool_input: { command: 'cd sub && npm test', description: 'Run tests' } };
    const project = tempDir();
    const env = (entrypoint: string) => ({ TOKENLESS_DATA_DIR: tempDir(), HOME: project, CLAUDE_CONFIG_DIR: project, CLAUDE_PROJECT_DIR: project, CLAUDE_CODE_ENTRYPOINT: entrypoint });
    const ui = runCli(['hook', 'pre_tool'], { input: JSON.stringify(event), env: env('cli') });
    expect(ui.status).toBe(0);
    const answer = JSON.parse(ui.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput: { command: string; description: string } } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('"Bash(npm test:*)"');
    expect(answer.hookSpecificOutput.updatedInput.command).toMatch(/^cd sub && case \$\(command -v npm\) in \/\*\) .* run -- npm test;; \*\) npm test;; esac$/);
    expect(answer.hookSpecificOutput.updatedInput.description).toBe('Run tests');
    const headless = runCli(['hook', 'pre_tool'], { input: JSON.stringify(event), env: env('sdk-cli') });
    expect(headless).toMatchObject({ status: 0, stdout: '' });
    // auto mode: a server-side classifier decides, which an "ask" of ours could override with a dialog.
    const auto = runCli(['hook', 'pre_tool'], { input: JSON.stringify({ ...event, permission_mode: 'auto' }), env: env('cli') });
    expect(auto).toMatchObject({ status: 0, stdout: '' });
  });

  it('exits 1 (non-blocking in Claude Code) on a malformed Claude Code event', () => {
    const result = runCli(['hook', 'pre_tool'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }), env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result).toMatchObject({ status: 1, stdout: '' });
  });

  // Issue 15, item 10: every input bounded. 100k-deep nesting used to end in a stack overflow with a trace.
  const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  it.each([
    ['pre_tool', 'PreToolUse__Bash.json', (event: Record<string, unknown>) => ({ ...event, tool_input: { command: 'git status', extra: '@DEEP@' } })],
    ['post_tool', 'PostToolUse__Bash.json', (event: Record<string, unknown>) => ({ ...event, tool_response: '@DEEP@' })],
  ])('refuses a 100k-deep %s event with exit 1, one line on stderr, nothing on stdout', (lifecycle, name, deepen) => {
    const input = JSON.stringify(deepen(JSON.parse(sample(name)) as Record<string, unknown>)).replace('"@DEEP@"', DEEP);
    const result = runCli(['hook', lifecycle], { input, env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr).toBe('tokenless: input nests deeper than 256 levels\n');
  });

  it('leaves a 10 MB command as typed, fast', () => {
    const event = JSON.parse(sample('PreToolUse__Bash.json')) as { tool_input: Record<string, unknown> };
    event.tool_input['command'] = Array.from({ length: 800_000 }, (_, i) => `git log -${i % 10}`).join(' && ').slice(0, 10_000_000);
    const started = Date.now();
    const result = runCli(['hook', 'pre_tool'], { input: JSON.stringify(event), env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result).toMatchObject({ status: 0, stdout: '' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('prints nothing for a tool it has no contract for', () => {
    const result = runCli(['hook', 'post_tool'], { input: sample('PostToolUse__Agent.json'), env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result).toMatchObject({ status: 0, stdout: '' });
  });
});
