// One of several processes hammering the same stores at once (see test/unit/store/concurrency.test.ts).
import { elide } from '../../src/reduce/candidate.ts';
import { StashStore } from '../../src/store/stash.ts';
import { StatsRecorder } from '../../src/store/stats.ts';

const [dataDir, workerId, countText] = process.argv.slice(2);
if (dataDir === undefined || workerId === undefined || countText === undefined) throw new Error('usage: worker DIR ID COUNT');
const stash = StashStore.open(dataDir);
const stats = new StatsRecorder(dataDir);
let failures = 0;
for (let i = 0; i < Number(countText); i += 1) {
  const { entry } = elide(`worker ${workerId} entry ${i} `.repeat(20));
  const put = stash.put([entry]);
  if (!put.ok) failures += 1;
  stash.recordShown(`session-${workerId}`, [entry.key]);
  const recorded = stats.tryRecord([
    {
      lifecycle: 'post_tool',
      operations: ['concurrency'],
      agentId: 'test',
      sessionId: `session-${workerId}`,
      toolUseId: `tool-${i}`,
      mode: 'active',
      recoverability: 'retrievable',
      before: 'before text',
      after: 'after',
      beforeTokens: 2,
      afterTokens: 1,
      tokenMethod: 'estimated',
      stashKeys: [entry.key],
      stashWrites: 1,
    },
  ]);
  if (!recorded) failures += 1;
}
stash.close();
stats.close();
process.stdout.write(JSON.stringify({ failures, statsFailure: stats.failure }));
