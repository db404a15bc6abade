// Budget benchmark: the save-your-tokens seed's synthetic session (its own figure, reproduced, and the correctly
// aligned figure), our engine on the same session, and our manager on the real transcripts of the fixtures.
// Usage: npm run build && node scripts/bench-budget.mjs   (writes nothing; prints Markdown tables)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'syt-bench-budget-'));
try {
  // Bundle the pure engine modules once so this plain .mjs script can run them.
  const entry = join(work, 'entry.ts');
  writeFileSync(entry, [
    `export { runSeedBenchmark, seedTokens } from ${JSON.stringify(join(root, 'src/budget/seed-benchmark.ts'))};`,
    `export { simulateSession } from ${JSON.stringify(join(root, 'src/budget/simulate.ts'))};`,
    `export { BUILTIN_PROFILES } from ${JSON.stringify(join(root, 'src/budget/profiles.ts'))};`,
    `export { tokenCounter } from ${JSON.stringify(join(root, 'src/tokens/count.ts'))};`,
  ].join('\n'));
  const out = join(work, 'bench.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'warning' });
  const m = await import(pathToFileURL(out).href);

  const session = join(root, 'test/fixtures/seed-benchmarks/syt-benchmark/agentic_session.jsonl');
  const messages = readFileSync(session, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const seed = m.runSeedBenchmark(messages);
  const count = await m.tokenCounter();
  const seedO200k = m.runSeedBenchmark(messages, count);
  const pct = (x) => `${(x * 100).toFixed(1)}%`;
  const fmt = (n) => n.toLocaleString('en-US');
  console.log('## Seed synthetic session (72 messages, 40 turns)\n');
  console.log('| run | tokens | baseline | managed | saved | compaction events |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  console.log(`| seed's figure (baseline indexed by turn number in the per-message list) | chars/4 | ${fmt(seed.seedBaselineTotal)} | ${fmt(seed.managedTotal)} | ${pct(seed.seedSavedShare)} | ${seed.compactionEvents} |`);
  console.log(`| same run, baseline aligned to the same message | chars/4 | ${fmt(seed.alignedBaselineTotal)} | ${fmt(seed.managedTotal)} | ${pct(seed.alignedSavedShare)} | ${seed.compactionEvents} |`);
  console.log(`| seed replica, aligned | o200k | ${fmt(seedO200k.alignedBaselineTotal)} | ${fmt(seedO200k.managedTotal)} | ${pct(seedO200k.alignedSavedShare)} | ${seedO200k.compactionEvents} |`);
  for (const [label, tokens] of [['chars/4', m.seedTokens], ['o200k', count]]) {
    const items = messages.map((msg) => ({ turn: msg.turn, layer: msg.layer, tokens: tokens(msg.content), source: msg.type }));
    const ours = m.simulateSession(items, { contextWindow: 200_000, profile: m.BUILTIN_PROFILES.agentic, staleAfterTurns: 8, compactEveryTurns: 10 });
    console.log(`| our engine (stale after 8 turns, interval 10, sampled at turn end) | ${label} | ${fmt(ours.baselineTotal)} | ${fmt(ours.managedTotal)} | ${pct(ours.savedShare)} | ${ours.compactionEvents} |`);
  }

  console.log('\n## Real transcripts: `syt analyze --log --json`\n');
  console.log('| transcripts | requests | cumulative context (reported) | manager baseline (o200k) | managed | saved (simulated) | tool-output tokens | replay saves |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  const data = mkdtempSync(join(work, 'data-'));
  for (const path of ['test/fixtures/transcripts/claude-code', 'test/fixtures/transcripts/swe-agent', 'test/fixtures/transcripts/aider/chat-history.md.gz']) {
    const doc = JSON.parse(execFileSync(process.execPath, [join(root, 'dist/cli.cjs'), 'analyze', '--log', join(root, path), '--json'], { env: { ...process.env, TOKENLESS_DATA_DIR: data }, maxBuffer: 256 * 1024 * 1024 }).toString());
    const sum = (f) => doc.transcripts.reduce((s, t) => s + f(t), 0);
    const base = sum((t) => t.manager?.baseline_tokens ?? 0);
    const managed = sum((t) => t.manager?.managed_tokens ?? 0);
    const label = path.split('/').slice(-1)[0];
    console.log(`| ${label} (${doc.totals.transcripts}) | ${fmt(doc.totals.requests)} | ${fmt(doc.totals.cumulative_context)} | ${fmt(base)} | ${fmt(managed)} | ${base === 0 ? '-' : pct(1 - managed / base)} | ${fmt(doc.replay.before_tokens)} | ${fmt(doc.replay.saved_tokens)} (${pct(doc.replay.before_tokens === 0 ? 0 : doc.replay.saved_tokens / doc.replay.before_tokens)}) |`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
