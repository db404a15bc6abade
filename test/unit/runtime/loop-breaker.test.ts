/**
 * Issue 23: retrievals and re-runs are recorded (sizes only), and after either the command runs raw in that session
 * and in no other.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { PROTOCOL_VERSION } from '../../../src/protocol/schemas.ts';
import { recordRetrievalTurn } from '../../../src/runtime/loop-breaker.ts';
import { preTool } from '../../../src/runtime/pre-tool.ts';
import { viewRun } from '../../../src/runtime/run-view.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { openStatsReader } from '../../../src/store/stats-client.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const gitLog = loadCorpusCase('git-log-stat-express');
const ARGV = ['git', 'log', '--stat', '-n', '20'];
const WRAPPER = "'/usr/bin/node' '/opt/tokenless/cli.cjs'";

function pre(runtime: Runtime, sessionId: string, command: string) {
  return preTool(
    runtime,
    {
      protocol_version: PROTOCOL_VERSION,
      operation: 'pre_tool',
      attribution: { agent_id: 'test', session_id: sessionId, tool_use_id: `t-${command.length}` },
      input: { tool_name: 'Bash', arguments: { command }, command_field: 'command' },
    },
    { wrapperCommand: WRAPPER },
  );
}

function showLog(runtime: Runtime, sessionId: string) {
  const view = viewRun(
    runtime,
    { argv: ARGV, stdout: Buffer.from(gitLog.stdout), stderr: Buffer.alloc(0), exitCode: 0 },
    { agentId: 'test', sessionId, toolUseId: 'v1', project: '/proj' },
  );
  expect(view.disposition).toBe('applied');
  expect(view.recoverability).not.toBe('lossless');
  return view;
}

function turns(dataDir: string): Record<string, unknown>[] {
  const db = openStatsReader(dataDir);
  try {
    return (db?.prepare('SELECT * FROM retrievals ORDER BY id').all() ?? []) as Record<string, unknown>[];
  } finally {
    db?.close();
  }
}

describe('loop breaker', () => {
  const line = ARGV.join(' ');

  it('records a re-run after a view and runs it, and later runs of it, raw in that session only', () => {
    const dataDir = tempDir();
    let now = 1_000_000;
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }), () => now);
    expect(pre(runtime, 's1', line).action).toBe('replace_arguments');
    showLog(runtime, 's1');
    now += 30_000;
    const rerun = pre(runtime, 's1', `${line} | head -400`);
    expect(rerun.action).toBe('passthrough');
    expect(rerun.reason).toMatch(/loop breaker: re-run/);
    now += 3_600_000;
    expect(pre(runtime, 's1', line).reason).toMatch(/runs raw in this session/);
    expect(pre(runtime, 's2', line).action).toBe('replace_arguments');
    runtime.close();
    const rows = turns(dataDir);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'rerun', session_id: 's1', scope: 'rerun', how: 'same_line', view_kind: 'git-log', project: '/proj', program: 'git' });
    expect(Number(rows[0]?.['printed_tokens'])).toBeGreaterThan(0);
    // No output and no command line is stored: every text column is a name, a key or a kind.
    expect(JSON.stringify(rows)).not.toContain('commit');
  });

  it('records a retrieval (whole or targeted) with its size, and the command then runs raw in that session', () => {
    const dataDir = tempDir();
    let now = 1_000_000;
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }), () => now);
    const view = showLog(runtime, 's1');
    const key = view.stashKeys[0] ?? '';
    recordRetrievalTurn(runtime, 's1', key, 'targeted', Buffer.from('line one\nline two\n'));
    now += 10 * 60_000; // past the re-run window: only the retrieval makes it raw
    expect(pre(runtime, 's1', line).reason).toMatch(/runs raw in this session/);
    expect(pre(runtime, 's2', line).action).toBe('replace_arguments');
    runtime.close();
    expect(turns(dataDir)).toMatchObject([{ kind: 'retrieve', stash_key: key, scope: 'targeted', printed_bytes: 18, view_kind: 'git-log', project: '/proj' }]);
  });

  it('leaves a session without views alone and never treats a run long after its view as a re-run', () => {
    const dataDir = tempDir();
    let now = 1_000_000;
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }), () => now);
    expect(pre(runtime, 's1', line).action).toBe('replace_arguments');
    showLog(runtime, 's1');
    now += 6 * 60_000;
    expect(pre(runtime, 's1', line).action).toBe('replace_arguments');
    runtime.close();
    expect(turns(dataDir)).toEqual([]);
  });
});
