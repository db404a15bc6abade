import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { PROTOCOL_VERSION, type PostToolInput } from '../../../src/protocol/schemas.ts';
import { postTool } from '../../../src/runtime/post-tool.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const listing = loadCorpusCase('search-grep-rn-flagset-pflag').stdout;
const bigJson = loadCorpusCase('data-npm-view-versions-json').stdout;

function call(runtime: Runtime, input: Partial<PostToolInput>, toolUseId = 't1') {
  return postTool(runtime, {
    protocol_version: PROTOCOL_VERSION,
    operation: 'post_tool',
    attribution: { agent_id: 'test', session_id: 's1', tool_use_id: toolUseId },
    input: { tool_name: 'Search', status: 'success', origin: 'api_response', content: listing, ...input },
  });
}

function rows(dataDir: string): { operation: string; mode: string; tool_use_id: string }[] {
  if (!existsSync(join(dataDir, 'stats.db'))) return [];
  const db = new Database(join(dataDir, 'stats.db'), { readonly: true });
  try {
    return db.prepare('SELECT operation, mode, tool_use_id FROM operations ORDER BY id').all() as { operation: string; mode: string; tool_use_id: string }[];
  } finally {
    db.close();
  }
}

describe('postTool', () => {
  it('writes one stats row per applied operation and none for passthrough or no-savings outcomes', () => {
    const dataDir = tempDir();
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }));
    expect(call(runtime, {}, 'applied-search').disposition).toBe('applied');
    expect(call(runtime, { content: bigJson, origin: 'command_output', tool_name: 'Bash' }, 'applied-json').disposition).toBe('applied');
    expect(call(runtime, { content: 'ok\n' }, 'tiny').disposition).toBe('no_savings');
    expect(call(runtime, { result_kind: 'retrieve' }, 'retrieve').disposition).toBe('passthrough');
    expect(call(runtime, { status: 'error', content: 'bash: foo: command not found' }, 'failed').disposition).toBe('tool_error');
    expect(call(runtime, { origin: 'file_content', content: bigJson }, 'file').disposition).toBe('no_savings');
    runtime.close();
    expect(rows(dataDir).map((row) => row.tool_use_id)).toEqual(['applied-search', 'applied-json']);
  });

  it('records a dry run without changing the output or stashing', () => {
    const dataDir = tempDir();
    const runtime = new Runtime({ ...loadConfig({ TOKENLESS_DATA_DIR: dataDir }), dryRun: true });
    const result = call(runtime, { content: bigJson, origin: 'command_output', tool_name: 'Bash' });
    runtime.close();
    expect(result).toMatchObject({ disposition: 'dry_run', output: bigJson, stash_keys: [] });
    expect(rows(dataDir)).toMatchObject([{ mode: 'dry_run' }]);
    expect(existsSync(join(dataDir, 'stash.db'))).toBe(false);
  });

  it('adds an environment hint to a failed tool without replacing its output', () => {
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
    const error = 'bash: line 1: rg: command not found\n';
    const result = call(runtime, { status: 'error', content: error, origin: 'command_output', tool_name: 'Bash' });
    runtime.close();
    expect(result.output).toBe(error);
    expect(result.hint).toMatch(/rg/);
  });

  it('anchors every marker of a lossy candidate to the whole original', () => {
    const dataDir = tempDir();
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }));
    const result = call(runtime, { content: bigJson, origin: 'command_output', tool_name: 'Bash' });
    expect(result.stash_keys).toHaveLength(1);
    const got = runtime.stash.get(result.stash_keys[0] ?? '');
    runtime.close();
    expect(got.ok && got.bytes.toString('utf8')).toBe(bigJson);
  });
});
