import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW_MIN_BYTES } from '../../../src/config/view-threshold.ts';
import { priceFor } from '../../../src/cost/pricing.ts';
import { usageReport } from '../../../src/cost/usage-report.ts';
import { FAMILIES } from '../../../src/replay/families.ts';
import { renderRecorded } from '../../../src/replay/render.ts';
import { openReplaySandbox } from '../../../src/replay/sandbox.ts';
import { matcherMatches, registeredMatchers, replaySession, type ReplayMode } from '../../../src/replay/session-replay.ts';
import { summarize } from '../../../src/replay/summary.ts';
import { readRecordedSession, type RecordedSession } from '../../../src/replay/transcript.ts';
import { distinctiveWords } from '../../../src/replay/evidence.ts';
import { viewRun } from '../../../src/runtime/run-view.ts';
import { tokenCounter } from '../../../src/tokens/count.ts';
import { FIXTURES_DIR, loadCorpusCase } from '../../helpers/fixtures.ts';

// A real public session (test/fixtures/transcripts/claude-code/SOURCE.txt): Claude Code 1.0.98, 167 tool results.
const REAL = 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
const realText = readFileSync(join(FIXTURES_DIR, 'transcripts', 'claude-code', REAL), 'utf8');
const countTokens = await tokenCounter();

async function replay(session: RecordedSession, mode: ReplayMode) {
  const sandbox = openReplaySandbox();
  try {
    return await replaySession(session, sandbox.contextFor(session, mode, countTokens));
  } finally {
    sandbox.close();
  }
}

/** A three-request session around one `cd … && git status -u` call whose output is a real corpus capture. */
function cdGitStatusSession(caseId = 'git-status-untracked-all-express', command = 'cd /home/dev/express && git status -u'): string {
  const status = loadCorpusCase(caseId).stdout.replace(/\n+$/, '');
  const usage = { input_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 5000, output_tokens: 50 };
  const common = { sessionId: 'sess-1', cwd: '/home/dev/express', version: '2.1.49' };
  const model = 'claude-sonnet-4-5-20250929';
  const lines = [
    { ...common, type: 'user', uuid: 'u0', parentUuid: null, message: { role: 'user', content: 'what changed?' } },
    { ...common, type: 'assistant', uuid: 'a1', parentUuid: 'u0', requestId: 'req_1', message: { id: 'msg_1', model, role: 'assistant', usage, content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command, description: 'status' } }] } },
    { ...common, type: 'user', uuid: 'u1', parentUuid: 'a1', toolUseResult: { stdout: status, stderr: '', interrupted: false, isImage: false }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: status, is_error: false }] } },
    { ...common, type: 'assistant', uuid: 'a2', parentUuid: 'u1', requestId: 'req_2', message: { id: 'msg_2', model, role: 'assistant', usage, content: [{ type: 'text', text: 'Untracked files.' }] } },
    { ...common, type: 'user', uuid: 'u2', parentUuid: 'a2', message: { role: 'user', content: 'thanks' } },
    { ...common, type: 'assistant', uuid: 'a3', parentUuid: 'u2', requestId: 'req_3', message: { id: 'msg_3', model, role: 'assistant', usage, content: [{ type: 'text', text: 'Done.' }] } },
  ];
  return lines.map((line) => JSON.stringify(line)).join('\n');
}

describe('session replay', () => {
  it('follows the hooks syt init registers', () => {
    const matchers = registeredMatchers();
    expect(matcherMatches(matchers.pre, 'Bash')).toBe(true);
    expect(matcherMatches(matchers.post, 'Bash')).toBe(true);
    expect(matcherMatches('Bash|Grep', 'Glob')).toBe(false);
    expect(matcherMatches('mcp__.*', 'mcp__github__search')).toBe(true);
    expect(matcherMatches(undefined, 'Bash')).toBe(false);
  });

  it('renders recorded results as the client did (the slot a replacement substitutes is found in the recorded text)', () => {
    const calls = readRecordedSession(realText, REAL).calls.filter((call) => !call.isError && ['Bash', 'Read', 'Grep', 'Task'].includes(call.tool));
    expect(calls.length).toBeGreaterThan(80);
    const missing = calls.filter((call) => {
      const slot = renderRecorded(call.tool, call.toolUseResult, call.content);
      return slot === null || !call.content.includes(slot);
    });
    // Background Bash calls show a notice instead of their (empty) output.
    expect(missing.map((call) => call.content).filter((text) => !text.startsWith('Command running in background'))).toEqual([]);
  });

  it('counts a rewritten `cd X && git log --stat` through the line view, and prices it on the requests that carry it', async () => {
    const session = readRecordedSession(cdGitStatusSession('git-log-stat-express', 'cd /home/dev/express && git log --stat -n 10'), 'synthetic.jsonl');
    const bypass = await replay(session, 'bypass');
    const [call] = bypass.calls;
    expect(call?.rewritten).toBe(true);
    expect(call?.line).toMatchObject({ outcome: 'view', filter: 'git-log' });
    expect(call?.family).toBe('git');
    expect(call?.after).toBeLessThan(call?.before ?? 0);
    expect(call?.retrievalFailures).toBe(0);
    // The view is lossy: its marker must bring back the captured stdout byte for byte.
    expect(call?.markers).toBe(1);
    // The result is in the chains of requests 2 and 3: one cache write, one cache read.
    const price = priceFor('claude-sonnet-4-5-20250929');
    expect(call?.carriers).toBe(2);
    expect(call?.savedCost).toBeCloseTo((((call?.before ?? 0) - (call?.after ?? 0)) * ((price?.cacheWrite5m ?? 0) + (price?.cacheRead ?? 0))) / 1e6, 12);
    expect(bypass.billedCost).toBeGreaterThan(0);
    // The same sum as `stats usage` prints for the transcript (one pricing of requests, src/cost/usage-report.ts).
    expect(bypass.billedCost).toBe(usageReport(session.requests.map((request) => request.usage)).totals.cost);
  });

  it('shows a rewritten output under 1 KiB raw, as launch.sh does with Claude Code\'s output file', async () => {
    // 640 bytes of `git status -u`: the git-status filter shortens them (viewRun, as on a pipe), but in Claude Code
    // launch.sh never starts Node for them, so nothing is stashed and the agent sees the output as printed.
    const capture = loadCorpusCase('git-status-untracked-all-express').stdout;
    expect(Buffer.byteLength(capture)).toBeLessThan(DEFAULT_VIEW_MIN_BYTES);
    const sandbox = openReplaySandbox();
    try {
      const piped = viewRun(sandbox.runtime, { argv: ['git', 'status', '-u'], stdout: Buffer.from(capture), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 'test', sessionId: 's' });
      expect(piped.filter).toBe('git-status');
    } finally {
      sandbox.close();
    }
    const [call] = (await replay(readRecordedSession(cdGitStatusSession(), 'synthetic.jsonl'), 'bypass')).calls;
    expect(call?.rewritten).toBe(true);
    expect(call?.line).toMatchObject({ outcome: 'declined', reason: 'too little output for a view' });
    expect(call).toMatchObject({ after: call?.before, markers: 0, viewKind: null });
  });

  it('says how many segments of a compound line it wraps, and why it counts the line unchanged', async () => {
    const session = readRecordedSession(cdGitStatusSession(undefined, 'cd /home/dev/express && ./scripts/check.sh; echo ---; git status -u'), 'synthetic.jsonl');
    const bypass = await replay(session, 'bypass');
    const [call] = bypass.calls;
    expect(call?.rewritten).toBe(true);
    expect(call?.line).toMatchObject({ outcome: 'declined', segments: 4, wrapped: 2, kept: ['echo is a shell builtin'] });
    expect(call?.after).toBe(call?.before);
    const { compound } = summarize('bypass', [bypass]).bash;
    expect(compound).toEqual({
      lines: 1,
      segments: 4,
      wrapped: 2,
      viewed: 0,
      unchanged: { 'an unwrapped command may print too, its output cannot be told apart': 1 },
      keptSegments: { 'echo is a shell builtin': 1 },
    });
  });

  it('replays a real session deterministically, with every stashed original retrievable byte-exact', async () => {
    const session = readRecordedSession(realText, REAL);
    expect(session.calls).toHaveLength(167);
    const rewritten: Record<string, number> = {};
    for (const mode of ['bypass', 'default'] as const) {
      const first = await replay(session, mode);
      const second = await replay(readRecordedSession(realText, REAL), mode);
      expect(second).toEqual(first);
      expect(first.calls).toHaveLength(session.calls.length);
      const summary = summarize(mode, [first]);
      expect(Object.keys(summary.byFamily)).toEqual([...FAMILIES]);
      expect(summary.overall.before).toBe(session.calls.reduce((sum, call) => sum + countTokens(call.content), 0));
      expect(summary.overall.after).toBeLessThan(summary.overall.before);
      expect(summary.retrievalFailures).toBe(0);
      expect(summary.unrenderable).toBe(0);
      // Rewritten (bypass) and replaced results are subsets of the Bash and registered tools.
      expect(summary.bash.rewritten).toBeLessThanOrEqual(summary.bash.calls);
      rewritten[mode] = summary.bash.rewritten;
    }
    // Default mode never rewrites more than bypass mode (its permission check only removes rewrites).
    expect(rewritten['default']).toBeLessThanOrEqual(rewritten['bypass'] ?? 0);
  });
});

describe('session replay: evidence of need and the net figure (issue 23)', () => {
  it('prices a view as a retrieval turn when the agent next names a word only the original held', async () => {
    const log = loadCorpusCase('git-log-stat-express').stdout;
    const sandbox = openReplaySandbox();
    let hidden: string | undefined;
    try {
      const view = viewRun(sandbox.runtime, { argv: ['git', 'log', '--stat', '-n', '10'], stdout: Buffer.from(log), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 't', sessionId: 'probe' });
      hidden = [...distinctiveWords(log)].find((word) => /^[0-9a-f]{7,}$/.test(word) && !view.stdout.toString('utf8').includes(word));
    } finally {
      sandbox.close();
    }
    expect(hidden).toBeDefined();
    const session = (said: string) =>
      readRecordedSession(cdGitStatusSession('git-log-stat-express', 'cd /home/dev/express && git log --stat -n 10').replace('"Untracked files."', JSON.stringify(said)), 's.jsonl');
    const result = await replay(session(`Reverting ${hidden ?? ''} first.`), 'bypass');
    const [call] = result.calls;
    expect(call?.viewKind).not.toBeNull();
    expect(call?.evidence).toContain(hidden);
    expect(call?.turnTokens).toBeGreaterThan(call?.before ?? 0);
    const net = summarize('bypass', [result]).net;
    expect(net).toMatchObject({ shortened: 1, withEvidence: 1 });
    expect(net.netTokens).toBe(net.grossTokens - net.turnTokens);
    expect(net.netTokens).toBeLessThan(0);
    // Without the mention, no evidence and no turn.
    const quiet = await replay(session('Looks fine.'), 'bypass');
    expect(quiet.calls[0]?.evidence).toEqual([]);
    expect(summarize('bypass', [quiet]).net.netTokens).toBe(summarize('bypass', [quiet]).net.grossTokens);
  });

  it('reports the evidence share on a shared real session', async () => {
    const net = summarize('default', [await replay(readRecordedSession(realText, REAL), 'default')]).net;
    expect(net.shortened).toBeGreaterThan(5);
    expect(net.withEvidence).toBeLessThanOrEqual(net.shortened);
    expect(Object.values(net.byViewKind).reduce((sum, k) => sum + k.views, 0)).toBe(net.shortened);
    expect(net.formula).toMatch(/0\.1 × prefix/);
  });
});
