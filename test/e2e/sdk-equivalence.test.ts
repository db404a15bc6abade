/**
 * The SDK and the CLI hook are two front ends of one engine: on the same corpus inputs, `TokenlessSdk` resolves to
 * exactly the `result` that `tokenless hook <lifecycle>` answers in its native envelope (each with its own data dir).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenlessSdk, type Attribution, type Lifecycle } from '../../src/index.ts';
import { LAUNCHER_FILE, launcherCommand } from '../../src/shell/launcher.ts';
import { shellQuote } from '../../src/shell/quote.ts';
import { CLI, runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR, loadCorpus, type CorpusCase } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const temp = useTempDirs();
const corpus = loadCorpus();
let cliDir = '';
let sdkDir = '';
let sdk: TokenlessSdk;

beforeAll(() => {
  cliDir = mkdtempSync(join(tmpdir(), 'tokenless-equiv-cli-'));
  sdkDir = mkdtempSync(join(tmpdir(), 'tokenless-equiv-sdk-'));
  // The hook rewrites commands to call itself back by absolute path; the SDK is given the same program prefix.
  // (through the launcher next to the bundle, as src/shell/wrapper-command.ts builds it)
  const bundle = realpathSync(CLI);
  sdk = new TokenlessSdk({ dataDir: sdkDir, wrapperCommand: launcherCommand(join(dirname(bundle), LAUNCHER_FILE), process.execPath, bundle) });
});
afterAll(() => {
  sdk.close();
  rmSync(cliDir, { recursive: true, force: true });
  rmSync(sdkDir, { recursive: true, force: true });
});

/** The hook's answer to one native envelope: its `result`, or the failure's exit code and reason. */
function hook(lifecycle: Lifecycle, attribution: Attribution, input: unknown, dataDir = cliDir): { ok: true; result: unknown } | { ok: false; status: number | null; stderr: string } {
  const run = runCli(['hook', lifecycle], { input: JSON.stringify({ protocol_version: 2, operation: lifecycle, attribution, input }), env: { TOKENLESS_DATA_DIR: dataDir } });
  if (run.status !== 0) return { ok: false, status: run.status, stderr: run.stderr };
  const answer = JSON.parse(run.stdout) as { operation: string; attribution: unknown; result: unknown };
  expect(answer.operation).toBe(lifecycle);
  expect(answer.attribution).toEqual(attribution);
  return { ok: true, result: answer.result };
}

/** Where a corpus case's output would come from in an agent: search hits as an API response, reads as a file. */
function originOf(entry: CorpusCase): 'command_output' | 'file_content' | 'api_response' {
  if (entry.category === 'search') return 'api_response';
  if (entry.category === 'read') return 'file_content';
  return 'command_output';
}

const who = (entry: CorpusCase): Attribution => ({ agent_id: 'equivalence', session_id: `equiv-${entry.id}`, tool_use_id: `tu-${entry.id}` });
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('TokenlessSdk equals `tokenless hook` on the corpus', () => {
  it.each(corpus.map((entry) => [entry.id, entry] as const))('post_tool, then retrieve of every stash key: %s', async (_id, entry) => {
    const input = { tool_name: 'Bash', status: entry.exitCode === 0 ? 'success' : 'error', origin: originOf(entry), content: entry.stdout } as const;
    const viaCli = hook('post_tool', who(entry), input);
    const viaSdk = await sdk.postTool({ attribution: who(entry), input });
    expect(viaCli).toEqual({ ok: true, result: json(viaSdk) });
    for (const key of viaSdk.stash_keys) {
      const retrieveInput = { marker: `<<tokenless:${key}>>`, visible_markers: viaSdk.visible_markers };
      const attribution = { agent_id: 'equivalence', session_id: `equiv-${entry.id}` };
      expect(hook('retrieve', attribution, retrieveInput)).toEqual({ ok: true, result: json(await sdk.retrieve({ attribution, input: retrieveInput })) });
    }
  });

  it.each(corpus.map((entry) => [entry.id, entry] as const))('pre_tool: %s', async (_id, entry) => {
    const input = { tool_name: 'Bash', arguments: { command: entry.command, description: 'corpus' }, command_field: 'command' };
    expect(hook('pre_tool', who(entry), input)).toEqual({ ok: true, result: json(await sdk.preTool({ attribution: who(entry), input })) });
  });

  it.each(['first-request-2.1.112.json', 'first-request-2.1.332-sonnet-4-5.json'])('before_model on Claude Code\'s captured tools: %s', async (file) => {
    const body = (JSON.parse(readFileSync(join(FIXTURES_DIR, 'claude-code-requests', file), 'utf8')) as { body: { tools: Record<string, unknown>[]; messages: unknown[] } }).body;
    const attribution = { agent_id: 'equivalence', session_id: `equiv-${file}` };
    const input = { tools: body.tools, messages: body.messages };
    expect(hook('before_model', attribution, input)).toEqual({ ok: true, result: json(await sdk.beforeModel({ attribution, input })) });
  });

  it('rewrites through the built CLI by absolute path when no wrapper command is configured', async () => {
    const own = new TokenlessSdk({ dataDir: temp() });
    try {
      const result = await own.preTool({ attribution: { agent_id: 'a', session_id: 's', tool_use_id: 't' }, input: { tool_name: 'Bash', arguments: { command: 'git status' }, command_field: 'command' } });
      expect(String(result.arguments?.['command'])).toContain(`${shellQuote(process.execPath)} ${shellQuote(CLI)} run -- git status`);
      expect(String(result.arguments?.['command'])).toContain(`/bin/sh ${shellQuote(join(dirname(CLI), LAUNCHER_FILE))} `);
    } finally {
      own.close();
    }
  });

  it('fails the same way: an unauthorised marker, duplicate tool names, a missing tool_use_id', async () => {
    const attribution = { agent_id: 'equivalence', session_id: 'nobody' };
    const marker = { marker: '<<tokenless:0123456789abcdef01234567>>', visible_markers: [] };
    expect(hook('retrieve', attribution, marker)).toMatchObject({ ok: false, status: 1 });
    await expect(sdk.retrieve({ attribution, input: marker })).rejects.toMatchObject({ code: 'operation_failed' });
    const duplicate = { tools: [{ name: 'x', input_schema: {} }, { name: 'x', input_schema: {} }] };
    expect(hook('before_model', attribution, duplicate)).toMatchObject({ ok: false, status: 1 });
    await expect(sdk.beforeModel({ attribution, input: duplicate })).rejects.toMatchObject({ code: 'operation_failed' });
    const post = { tool_name: 'Bash', status: 'success', origin: 'command_output', content: 'x' } as const;
    expect(hook('post_tool', attribution, post, temp())).toMatchObject({ ok: false, status: 2 });
    await expect(sdk.postTool({ attribution, input: post })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
