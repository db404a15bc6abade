/** Deterministic stats rows, written through the real recorder with a fixed clock (unit and golden tests share them). */
import { StatsRecorder, type OperationRecord } from '../../../src/store/stats.ts';

export const T0 = Date.parse('2026-03-01T09:00:00Z');
const DAY = 86_400_000;

const base: OperationRecord = {
  lifecycle: 'post_tool',
  operations: ['json_compact'],
  agentId: 'agent-1',
  sessionId: 'session-a',
  toolUseId: 'toolu_1',
  toolName: 'Bash',
  origin: 'command_output',
  contentType: 'json',
  mode: 'active',
  recoverability: 'lossless',
  before: '{ "a": 1,\n  "b": 2 }\n',
  after: '{"a":1,"b":2}\n',
  beforeTokens: 12,
  afterTokens: 8,
  tokenMethod: 'estimated',
  stashKeys: [],
  stashWrites: 0,
};

const lines = (n: number, prefix: string): string => Array.from({ length: n }, (_, i) => `${prefix} line ${i + 1}`).join('\n') + '\n';
const bigLog = lines(800, 'PASS test/unit/example.test.ts >'); // ~32 KB: more than the 30,000 characters Claude Code shows
const runView = 'PASS 800 tests\n';

/** The seeded records: [clock offset ms, record]. */
export const SEED: readonly (readonly [number, OperationRecord])[] = [
  [0, base],
  // A run-wrapper stage and the post_tool stage on its output: one linked chain.
  [60_000, { ...base, lifecycle: 'run', operations: ['test_summary'], toolUseId: 'toolu_2', before: bigLog, after: runView, beforeTokens: 7_200, afterTokens: 5, recoverability: 'retrievable', stashKeys: ['0123456789abcdef01234567'], stashWrites: 1 }],
  [61_000, { ...base, toolUseId: 'toolu_2', operations: ['whitespace'], before: runView, after: 'PASS 800 tests', beforeTokens: 5, afterTokens: 4 }],
  // An output that grew: a negative saving, shown as such.
  [120_000, { ...base, toolUseId: 'toolu_3', toolName: 'Grep', operations: ['search_paths'], contentType: 'search', before: 'a.ts:1:x\n', after: 'File="a.ts"\n1:x\n', beforeTokens: 6, afterTokens: 9 }],
  [DAY, { ...base, sessionId: 'session-b', toolUseId: 'toolu_4', toolName: 'Read', origin: 'file_content', operations: ['log_dedupe'], contentType: 'log', before: lines(30, 'WARN retrying'), after: 'WARN retrying line 1\n… 29 similar lines <<tokenless:aaaaaaaaaaaaaaaaaaaaaaaa>>\n', beforeTokens: 240, afterTokens: 20, recoverability: 'retrievable', stashKeys: ['aaaaaaaaaaaaaaaaaaaaaaaa'], stashWrites: 1 }],
  // Dry-run baseline session.
  [DAY + 1000, { ...base, sessionId: 'baseline', toolUseId: 'toolu_5', mode: 'dry_run' }],
  [DAY + 2000, { ...base, sessionId: 'baseline', toolUseId: 'toolu_6', mode: 'dry_run', operations: ['log_dedupe'], beforeTokens: 240, afterTokens: 20 }],
];

/** Writes the seed into `dataDir` through `StatsRecorder.tryRecord`. */
export function seedStats(dataDir: string): void {
  for (const [offset, record] of SEED) {
    const recorder = new StatsRecorder(dataDir, () => T0 + offset);
    if (!recorder.tryRecord([record])) throw new Error(`seed failed: ${recorder.failure ?? 'disabled'}`);
    recorder.close();
  }
}
