// Session replay benchmark: every tool call of real Claude Code sessions through the real hooks (in process, offline),
// in default and bypass permission mode; o200k tokens the agent would have seen before and after, and the share of
// the sessions' billed cost saved. Usage: node scripts/bench-sessions.mjs [--write] [--json] [--corpus DIR]
// (--json prints one JSON document instead of the tables; --corpus names a dir holding claude-code/ and claude-code-more/;
// --match REGEX keeps only the files whose name matches, e.g. the held-out sessions: --match 'FSM1__cipher-box|PackmindHub__context-evaluator')
// (npm run bench:sessions). The replay code is bundled from src/ on each run, so no `npm run build` is needed.
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { writeBenchmarkBlock } from './lib/benchmarks-md.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const started = performance.now();

// Real sessions only: the uuid-named public ones and claude-code-more (SOURCES.tsv); `transcript-2.1.*` are scripted.
const SHARED = '/work/shared/corpus/transcripts';
const corpus = option('--corpus') ?? process.env.TOKENLESS_SESSIONS_CORPUS ?? (existsSync(SHARED) ? SHARED : join(root, 'test/fixtures/transcripts'));
const files = ['claude-code', 'claude-code-more']
  .map((dir) => join(corpus, dir))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.jsonl') && !name.startsWith('transcript-')).sort().map((name) => join(dir, name)))
  .filter((file) => option('--match') === undefined || new RegExp(option('--match')).test(basename(file)));
if (files.length === 0) throw new Error(`no real transcripts under ${corpus}`);

const outdir = join(root, '.tmp/bench-sessions');
mkdirSync(outdir, { recursive: true });
await build({
  entryPoints: [join(root, 'src/replay/index.ts')],
  outfile: join(outdir, 'replay.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  packages: 'external',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const replay = await import(pathToFileURL(join(outdir, 'replay.mjs')).href);

const count = await replay.tokenCounter();
const cache = new Map();
const countTokens = (text) => {
  let n = cache.get(text);
  if (n === undefined) cache.set(text, (n = count(text)));
  return n;
};
const sessions = files.map((file) => replay.readRecordedSession(readFileSync(file, 'utf8'), basename(file)));

const summaries = {};
const calls = {};
for (const mode of replay.REPLAY_MODES) {
  const sandbox = replay.openReplaySandbox();
  try {
    const replays = [];
    for (const session of sessions) {
      replays.push(await replay.replaySession(session, { runtime: sandbox.runtime, env: sandbox.envFor(session), wrapperCommand: replay.REPLAY_WRAPPER, mode, countTokens, setNow: sandbox.setNow }));
    }
    summaries[mode] = { ...replay.summarize(mode, replays), reruns: sandbox.reruns() };
    calls[mode] = replays.flatMap((r) => r.calls.map((call) => ({ session: r.file, ...call })));
  } finally {
    sandbox.close();
  }
}
const seconds = (performance.now() - started) / 1000;

const pct = (before, after) => (before === 0 ? '0.0%' : `${(((before - after) / before) * 100).toFixed(1)}%`);
const share = (part, whole) => (whole === 0 ? '0.00%' : `${((part / whole) * 100).toFixed(2)}%`);
const modes = replay.REPLAY_MODES;
const [first] = modes;
const matchers = replay.registeredMatchers();
const lines = [
  `Command: \`npm run bench:sessions${option('--match') === undefined ? '' : ` -- --match '${option('--match')}'`}\` (node scripts/bench-sessions.mjs), ${new Date().toISOString().slice(0, 10)}, ${seconds.toFixed(0)} s. ` +
    `${sessions.length} real Claude Code sessions (${corpus.replace(root, '.')}: claude-code/ uuid-named, claude-code-more/), ${summaries[first].overall.calls} tool results. ` +
    `Every call through \`answerClaudeCodeEvent\` with the hooks \`syt init\` registers (PreToolUse \`${matchers.pre}\`, PostToolUse \`${matchers.post}\`), empty settings; ` +
    '`default` = permission_mode default, `bypass` = bypassPermissions; an answer with `updatedInput` counts as rewritten whatever its decision. ' +
    'Tokens: o200k of the tool_result the agent saw (before) and would have seen (after: the rewritten line\'s view, or PostToolUse\'s `updatedToolOutput` rendered as the client renders it). ' +
    'Cost: each request at its model\'s dated price from its recorded usage; a saved token is priced as one cache write (1.25x input) by the first request carrying the result and a cache read (0.1x) by each later request whose parentUuid chain holds it.',
  '',
  `| mode | tool results | rewritten | replaced by PostToolUse | tokens before | tokens after | saved | billed cost saved |`,
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...modes.map((mode) => {
    const s = summaries[mode];
    const o = s.overall;
    return `| ${mode} | ${o.calls} | ${o.rewritten} | ${o.replaced} | ${o.before} | ${o.after} | ${pct(o.before, o.after)} | ${share(o.savedCost, s.billedCost)} of $${s.billedCost.toFixed(2)} |`;
  }),
  '',
  'Bash by command family (tokens before → after, saved):',
  '',
  `| family | calls | ${modes.map((mode) => `${mode}: rewritten | ${mode}: after | ${mode}: saved`).join(' | ')} | before |`,
  `| --- | ---: | ${modes.map(() => '---: | ---: | ---:').join(' | ')} | ---: |`,
  ...replay.FAMILIES.map((family) => {
    const cells = modes.map((mode) => {
      const t = summaries[mode].byFamily[family];
      return `${t.rewritten} | ${t.after} | ${pct(t.before, t.after)}`;
    });
    const t = summaries[first].byFamily[family];
    return `| ${replay.FAMILY_LABELS[family]} | ${t.calls} | ${cells.join(' | ')} | ${t.before} |`;
  }),
  '',
  'By tool:',
  '',
  `| tool | results | before | ${modes.map((mode) => `${mode}: after | ${mode}: saved | ${mode}: cost saved`).join(' | ')} |`,
  `| --- | ---: | ---: | ${modes.map(() => '---: | ---: | ---:').join(' | ')} |`,
  ...Object.keys(summaries[first].byTool)
    .sort((a, b) => summaries[first].byTool[b].before - summaries[first].byTool[a].before)
    .map((tool) => {
      const t = summaries[first].byTool[tool];
      const cells = modes.map((mode) => {
        const m = summaries[mode].byTool[tool];
        return `${m.after} | ${pct(m.before, m.after)} | ${share(m.savedCost, summaries[mode].billedCost)}`;
      });
      return `| ${tool} | ${t.calls} | ${t.before} | ${cells.join(' | ')} |`;
    }),
  '',
  'Per session:',
  '',
  `| session | client | results | before | ${modes.map((mode) => `${mode}: saved | ${mode}: cost saved`).join(' | ')} | billed |`,
  `| --- | --- | ---: | ---: | ${modes.map(() => '---: | ---:').join(' | ')} | ---: |`,
  ...summaries[first].perSession.map((row, i) => {
    const cells = modes.map((mode) => {
      const m = summaries[mode].perSession[i];
      return `${pct(m.before, m.after)} | ${share(m.savedCost, m.billedCost)}`;
    });
    return `| ${row.file.replace(/\.jsonl$/, '').slice(0, 48)} | ${row.version ?? '?'} | ${row.calls} | ${row.before} | ${cells.join(' | ')} | $${row.billedCost.toFixed(2)} |`;
  }),
  '',
  `Net of the turns views would have cost (issue 23): ${summaries[first].net.formula}. A shortened result has evidence of need when the agent's next 40 messages name a distinctive word (path, identifier, hash, number of 4+ digits) that is in the original, not in the decoded view, and nowhere earlier in the session or in a result between; blind to hidden thinking, so a floor.`,
  '',
  `| mode | shortened | with evidence | gross tokens | retrieval turns | net tokens | net / gross | gross cost saved | net cost saved |`,
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...modes.map((mode) => {
    const n = summaries[mode].net;
    return `| ${mode} | ${n.shortened} | ${n.withEvidence} (${share(n.withEvidence, n.shortened)}) | ${n.grossTokens} | ${n.turnTokens} | ${n.netTokens} | ${n.grossTokens === 0 ? '-' : `${((n.netTokens / n.grossTokens) * 100).toFixed(1)}%`} | $${n.grossCost.toFixed(4)} | $${n.netCost.toFixed(4)} |`;
  }),
  '',
  `Loop breaker: ${modes.map((mode) => `${mode} ${summaries[mode].reruns}`).join(', ')} re-run(s) of a command within 5 minutes of its lossy view (same line or a limiter of it, or a file reader over a file it named) ran raw, and so did every later run of that command in its session; the saved and net figures above already show them raw.`,
  '',
  `Evidence share by view kind (${first}): ${Object.entries(summaries[first].net.byViewKind).sort((a, b) => b[1].views - a[1].views).map(([kind, k]) => `${kind} ${k.withEvidence}/${k.views}${k.words.length > 0 ? ` (${k.words.slice(0, 3).map((w) => `\`${w}\``).join(', ')})` : ''}`).join('; ')}.`,
  '',
  ...modes.map((mode) => {
    const b = summaries[mode].bash;
    const reasons = Object.entries(b.declineReasons).sort((x, y) => y[1] - x[1]).map(([reason, n]) => `${n}× ${reason}`).join('; ');
    return (
      `${mode}: Bash ${b.calls} calls (${b.failed} failed, ${b.notRun} never ran), ${b.rewritten} rewritten (${Object.entries(b.decisions).map(([d, n]) => `${n} ${d}`).join(', ') || 'none'}); ` +
      `line views ${b.lineViews.applied} applied, ${b.lineViews.unchanged} unchanged by the filter, ${b.lineViews.declined} declined${reasons === '' ? '' : ` (${reasons})`}. ` +
      `Replacements the renderer could not place: ${summaries[mode].unrenderable}. Markers shown: ${summaries[mode].markers}; stashed originals that did not retrieve byte-exact: ${summaries[mode].retrievalFailures}.`
    );
  }),
  '',
];
const table = lines.join('\n');
// --json: one JSON document (summaries per mode, with per-session rows, and every replayed call) instead of the tables.
if (args.includes('--json')) process.stdout.write(`${JSON.stringify({ corpus, files: files.map((file) => basename(file)), seconds, summaries, calls })}\n`);
else console.log(table);
if (args.includes('--write')) {
  const held = option('--match') !== undefined;
  writeBenchmarkBlock(join(root, 'BENCHMARKS.md'), held ? 'sessions-held-out' : 'sessions', held ? 'Session replay, held-out sessions: gross and net' : 'Session replay: real Claude Code sessions through the hooks', table);
}
process.exitCode = modes.some((mode) => summaries[mode].retrievalFailures > 0) ? 1 : 0;
