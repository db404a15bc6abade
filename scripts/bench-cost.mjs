// Cache simulator benchmark: every real Claude Code session of the corpus through `syt cost simulate` (built CLI: run
// `npm run build` first), with the hooks priced from the session replay (scripts/bench-sessions.mjs --json).
// Per session: the validation error against the recorded usage, recorded and simulated cost, and what the hooks, the
// gateway's policies (stale-result folds; tool tiers priced with Claude Code 2.1.332's captured tool array, since the
// transcripts hold none) and each TTL policy save; sessions not reproduced within 5% are listed with the reason and
// left out of every claim. Then the same policies priced on each session with one more pause inserted at its middle
// (30 and 90 minutes): what they would save on sessions that pause.
// Usage: node scripts/bench-cost.mjs [--write] [--json] [--corpus DIR]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchmarkBlock } from './lib/benchmarks-md.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--corpus');
const SHARED = '/work/shared/corpus/transcripts';
const corpus = at >= 0 ? args[at + 1] : process.env.TOKENLESS_SESSIONS_CORPUS ?? (existsSync(SHARED) ? SHARED : join(root, 'test/fixtures/transcripts'));
// Real sessions only, as in bench-sessions: `transcript-2.1.*` are scripted.
const files = ['claude-code', 'claude-code-more']
  .map((dir) => join(corpus, dir))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.jsonl') && !name.startsWith('transcript-')).sort().map((name) => join(dir, name)));
if (files.length === 0) throw new Error(`no real transcripts under ${corpus}`);

const run = (command, argv) => {
  const result = spawnSync(process.execPath, [command, ...argv], { cwd: root, maxBuffer: 256 << 20, env: { ...process.env, NO_COLOR: '1', TZ: 'UTC' } });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed: ${result.stderr}`);
  return result.stdout.toString('utf8');
};
const outdir = join(root, '.tmp/bench-cost');
mkdirSync(outdir, { recursive: true });
const hooks = join(outdir, 'sessions.json');
writeFileSync(hooks, run(join(root, 'scripts/bench-sessions.mjs'), ['--json', '--corpus', corpus]));
const TOOLS = 'test/fixtures/claude-code-requests/first-request-2.1.332-sonnet-4-5.json';
const simulate = (extra) => JSON.parse(run(join(root, 'dist/cli.cjs'), ['cost', 'simulate', ...files, '--hooks', hooks, '--tools', join(root, TOOLS), '--json', ...extra]));
const report = simulate([]);
const PAUSES = [30, 90];
const paused = PAUSES.map((minutes) => ({ minutes, report: simulate(['--insert-pause', String(minutes)]) }));

if (args.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ ...report, paused }, null, 2)}\n`);
  process.exit(0);
}
const usd = (n) => `${n < 0 ? '-' : ''}$${Math.abs(n).toFixed(Math.abs(n) < 1 ? 4 : 2)}`;
const pct = (n) => `${(n * 100).toFixed(1)}%`;
const saving = (s, session) => (session.excluded !== null ? 'not claimed' : s === null ? '-' : `${usd(s.dollars)} (${pct(s.fraction)})`);
const POLICIES = Object.keys(report.sessions[0]?.savings ?? {});
const kept = report.sessions.filter((s) => s.excluded === null);
const GATEWAY = new Set(['hooks', 'fold_stale', 'tool_tiers']);
const perPolicy = (r) => {
  const reproduced = r.sessions.filter((s) => s.excluded === null);
  const base = reproduced.reduce((sum, s) => sum + s.reproduced_cost, 0);
  return Object.fromEntries(
    POLICIES.map((name) => {
      const dollars = reproduced.reduce((sum, s) => sum + (s.savings[name]?.dollars ?? 0), 0);
      return [name, { dollars, fraction: dollars / base, pays: reproduced.filter((s) => (s.savings[name]?.dollars ?? 0) > 0).length }];
    }),
  );
};
const alone = perPolicy(report);
const lines = [
  `${report.sessions.length} real sessions (${corpus.replace(root, '.')}/claude-code uuid-named and claude-code-more), ${kept.length} reproduced within 5%; largest validation error of those ${pct(report.validation_error)}. Recorded ${usd(report.recorded_cost)}, simulated ${usd(report.reproduced_cost)}, with the hooks, the gateway's folds (its default) and the online TTL rule ${usd(report.simulated_cost)} (${pct(1 - report.simulated_cost / report.reproduced_cost)} lower). Best possible, hindsight (an upper bound, not a saving: per session the TTL policy that saved most there): ${usd(report.hindsight_cost)} (${pct(1 - report.hindsight_cost / report.reproduced_cost)} lower).`,
  '',
  '| session | client | requests | pauses >5m | validation error (read / write) | recorded | simulated | hooks save | fold_stale (folds) | tool_tiers | hindsight TTL pick (bound) |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ...report.sessions.map((s) => {
    const ttl = s.hindsight_switched_on.find((name) => !GATEWAY.has(name));
    return `| ${s.file.replace(/\.jsonl$/, '').slice(0, 48)} | ${s.write_1h_share > 0.5 ? '1h writes' : '5m writes'} | ${s.requests} | ${s.pauses_over_5m} | ${pct(s.validation_error)} (${pct(s.read_error)} / ${pct(s.write_error)}) | ${usd(s.recorded_cost)} | ${usd(s.reproduced_cost)} | ${saving(s.savings.hooks, s)} | ${saving(s.savings.fold_stale, s)} (${s.fold.folds}) | ${saving(s.savings.tool_tiers, s)} | ${s.excluded !== null ? 'not claimed' : ttl === undefined ? 'none' : `${ttl} ${saving(s.savings[ttl], s)}`} |`;
  }),
  '',
  `Each policy alone over the ${kept.length} reproduced sessions (simulated cost without it minus with it; validation error at most ${pct(report.validation_error)}), as recorded and with one more pause inserted before each session's middle request (\`--insert-pause\`):`,
  '',
  `| policy | saves | sessions where it pays | ${paused.map((p) => `with a ${p.minutes}-minute pause: saves | pays in`).join(' | ')} |`,
  `|---|---:|---:|${paused.map(() => '---:|---:|').join('')}`,
  ...POLICIES.map((name) => {
    const cells = paused.map((p) => {
      const x = perPolicy(p.report)[name];
      return `${usd(x.dollars)} (${pct(x.fraction)}) | ${x.pays}`;
    });
    return `| ${name} | ${usd(alone[name].dollars)} (${pct(alone[name].fraction)}) | ${alone[name].pays} | ${cells.join(' | ')} |`;
  }),
  '',
  ...paused.map((p) => `- With a ${p.minutes}-minute pause: simulated ${usd(p.report.reproduced_cost)}, with the hooks, the folds and the online TTL rule ${usd(p.report.simulated_cost)} (${pct(1 - p.report.simulated_cost / p.report.reproduced_cost)} lower; hindsight bound ${usd(p.report.hindsight_cost)}); ${p.report.sessions.reduce((n, s) => n + (s.excluded === null ? s.fold.folds : 0), 0)} results folded, ${p.report.sessions.reduce((n, s) => n + (s.excluded === null ? s.fold.retrieved : 0), 0)} of them quoted later (priced as retrieved).`),
  `- tool_tiers stubbed, per session: ${[...new Set(kept.flatMap((s) => s.tool_tiers?.stubbed ?? []))].join(', ')}; called while stubbed: ${kept.flatMap((s) => (s.tool_tiers?.called_while_stubbed ?? []).map((t) => `${t} (${s.file.slice(0, 24)})`)).join(', ') || 'none'}.`,
  '',
  ...report.excluded.map((e) => `- not reproduced, left out: ${e.file}: ${e.reason}`),
];
const table = lines.join('\n');
console.log(table);
if (args.includes('--write')) writeBenchmarkBlock(join(root, 'BENCHMARKS.md'), 'cost', 'Cache simulator: recorded usage reproduced, then priced (issue 16)', table);
