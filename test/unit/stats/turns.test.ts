/**
 * Issue 23, items 3 and 4: per view kind retrieval rates, the per-project switch to lossless after more than 1 in 5
 * views cost a turn, and net accounting with a retrieval.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { netFigure, netFromTotals, NET_ASSUMPTIONS } from '../../../src/cost/net.ts';
import { PROTOCOL_VERSION } from '../../../src/protocol/schemas.ts';
import { recordRetrievalTurn } from '../../../src/runtime/loop-breaker.ts';
import { postTool } from '../../../src/runtime/post-tool.ts';
import { viewRun } from '../../../src/runtime/run-view.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { describeSwitches, switchesToLossless, turnsReport } from '../../../src/store/retrievals.ts';
import { openStatsReader } from '../../../src/store/stats-client.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const gitLog = loadCorpusCase('git-log-stat-express');
const ARGV = ['git', 'log', '--stat', '-n', '10'];

function show(runtime: Runtime, sessionId: string, project: string, salt: number) {
  // A different commit count in the header makes each original (and so each key) distinct.
  const stdout = `${gitLog.stdout}\n${'x'.repeat(salt)}\n`;
  return viewRun(runtime, { argv: ARGV, stdout: Buffer.from(stdout), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 't', sessionId, toolUseId: `v${salt}`, project });
}

function report(dataDir: string) {
  const db = openStatsReader(dataDir);
  if (db === null) throw new Error('no stats');
  try {
    return turnsReport(db);
  } finally {
    db.close();
  }
}

describe('retrieval rates and the lossless switch', () => {
  it('counts views and turns per kind and switches a kind to lossless in its project only', () => {
    const dataDir = tempDir();
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }));
    const keys = [1, 2, 3, 4, 5].map((salt) => show(runtime, `s${salt}`, '/a', salt));
    for (const view of keys) expect(view.recoverability).toBe('retrievable');
    recordRetrievalTurn(runtime, 's1', keys[0]?.stashKeys[0] ?? '', 'whole', Buffer.from('x'.repeat(400)));
    let rates = report(dataDir);
    expect(rates.byViewKind).toMatchObject([{ viewKind: 'git-log', views: 5, lossyViews: 5, retrievals: 1, whole: 1, rate: 0.2 }]);
    expect(rates.switches).toEqual([]);
    recordRetrievalTurn(runtime, 's2', keys[1]?.stashKeys[0] ?? '', 'targeted', Buffer.from('one line\n'));
    rates = report(dataDir);
    expect(rates.byViewKind[0]).toMatchObject({ retrievals: 2, targeted: 1, rate: 0.4 });
    expect(rates.switches).toMatchObject([{ project: '/a', view_kind: 'git-log', views: 5, retrievals: 2 }]);
    expect(describeSwitches(rates.switches, '/a')).toMatch(/^lossless views only in \/a for git-log \(2 of 5 views retrieved or re-run\)/);
    expect(describeSwitches(rates.switches, '/b')).toBeNull();
    expect(rates.totals).toEqual({ retrievals: 2, reruns: 0, printedTokens: expect.any(Number) as unknown });
    // In /a the kind now gets only lossless views (here: none pays, so the output is raw); in /b it is viewed as before.
    const inA = show(runtime, 's9', '/a', 9);
    expect(inA.recoverability).toBe('lossless');
    expect(show(runtime, 's9', '/b', 10).recoverability).toBe('retrievable');
    runtime.close();
  });

  it('switches post_tool views too, by their content type, in their project', () => {
    const dataDir = tempDir();
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir }));
    const versions = loadCorpusCase('data-npm-view-versions-json').stdout;
    const post = (salt: number, project: string) =>
      postTool(
        runtime,
        {
          protocol_version: PROTOCOL_VERSION,
          operation: 'post_tool',
          attribution: { agent_id: 't', session_id: `p${salt}`, tool_use_id: `u${salt}` },
          input: { tool_name: 'Bash', status: 'success', origin: 'command_output', content: versions.replace('[', `[\n  "0.0.${salt}",`) },
        },
        { project },
      );
    const views = [1, 2, 3, 4, 5].map((salt) => post(salt, '/a'));
    for (const view of views) expect(view.recoverability).toBe('retrievable');
    for (const [i, view] of views.slice(0, 2).entries()) recordRetrievalTurn(runtime, `p${i + 1}`, view.stash_keys[0] ?? '', 'whole', Buffer.from('x'));
    expect(report(dataDir).switches).toMatchObject([{ project: '/a', view_kind: views[0]?.content_type }]);
    expect(post(6, '/a').recoverability).toBe('lossless');
    expect(post(7, '/b').recoverability).toBe('retrievable');
    runtime.close();
  });

  it('switches only past 1 in 5 and after two turns', () => {
    expect(switchesToLossless(1, 1)).toBe(false);
    expect(switchesToLossless(10, 2)).toBe(false);
    expect(switchesToLossless(9, 2)).toBe(true);
  });
});

describe('net accounting', () => {
  it('subtracts what a retrieval printed and its turn (prefix from cache, reply), and shows a negative net', () => {
    const figure = netFigure(1000, [{ printedTokens: 300, prefixTokens: 40_000, outputTokens: 100 }]);
    expect(figure).toMatchObject({ gross: 1000, retrieved: 300, turns: 1, turnCost: 4500, net: 1000 - 300 - 4500 });
    expect(figure.formula).toMatch(/0\.1 × prefix \+ 5 × output/);
    const live = netFromTotals(50_000, 2, 700);
    expect(live.turnCost).toBe(2 * (0.1 * NET_ASSUMPTIONS.prefixTokens + 5 * NET_ASSUMPTIONS.outputTokens));
    expect(live.net).toBe(50_000 - 700 - live.turnCost);
  });
});
