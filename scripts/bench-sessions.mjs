// Session replay benchmark: every tool call of real Claude Code sessions through the real hooks (in process, offline),
// in default and bypass permission mode; o200k tokens the agent would have seen before and after, and the share of
// the sessions' billed cost saved. Usage: node scripts/bench-sessions.mjs [--write] [--json] [--corpus DIR] [--without A,B] [--only A,B] [--match REGEX]
// (--json prints one JSON document instead of the tables; --corpus names a dir holding claude-code/, claude-code-more/
// and claude-code-chatjson/; --without leaves out every session whose file name contains one of the words: the
// sessions held out while tuning, so the table can show the shared sessions with and without them; --only keeps just
// the sessions whose names contain one of the words; --match REGEX keeps only the files whose name matches, e.g. the
// held-out sessions: --match 'FSM1__cipher-box|PackmindHub__context-evaluator', and --write then writes its own block)
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

// Real sessions only: the uuid-named public ones, claude-code-more and claude-code-chatjson (SOURCES.tsv: JSONL and
// chat.json dumps, told apart by content); `transcript-2.1.*` are scripted.
const SHARED = '/work/shared/corpus/transcripts';
const corpus = option('--corpus') ?? process.env.TOKENLESS_SESSIONS_CORPUS ?? (existsSync(SHARED) ? SHARED : join(root, 'test/fixtures/transcripts'));
const words = (name) => (option(name) ?? '').split(',').filter((word) => word !== '');
const without = words('--without');
const only = words('--only');
const DIRS = ['claude-code', 'claude-code-more', 'claude-code-chatjson'];
const isSession = (name) => (name.endsWith('.jsonl') || name.endsWith('chat.json')) && !name.startsWith('transcript-');
const found = DIRS.map((dir) => join(corpus, dir))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => readdirSync(dir).filter(isSession).sort().map((name) => join(dir, name)));
const files = found.filter((file) => !without.some((word) => basename(file).includes(word)) && (only.length === 0 || only.some((word) => basename(file).includes(word))) && (option('--match') === undefined || new RegExp(option('--match')).test(basename(file))));
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
      replays.push(await replay.replaySession(session, sandbox.contextFor(session, mode, countTokens)));
    }
    summaries[mode] = { ...replay.summarize(mode, replays), reruns: sandbox.reruns() };
    calls[mode] = replays.flatMap((r) => r.calls.map((call) => ({ session: r.file, ...call })));
  } finally {
    sandbox.close();
  }
}

// Every shell call through the run view as if its line had been wrapped (src/replay/shell-views.ts): the views
// themselves, whichever lines the permissions let pre_tool rewrite. Claude Code Bash calls that ran (their output is a
// file: under DEFAULT_VIEW_MIN_BYTES launch.sh shows it raw), and the Codex rollouts' shell calls (codex/, named by the
// same --without/--only words; a pipe, viewed at any size).
const codexDir = join(corpus, 'codex');
const rollouts = existsSync(codexDir)
  ? readdirSync(codexDir).filter((name) => name.endsWith('.jsonl')).sort().filter((name) => !without.some((word) => name.includes(word)) && (only.length === 0 || only.some((word) => name.includes(word))))
  : [];
const NOT_RUN = /^(?:<tool_use_error>|The user doesn't want to proceed|\[Request interrupted)/;
const shellSets = [];
{
  const sandbox = replay.openReplaySandbox();
  try {
    const claude = sessions.flatMap((session) =>
      session.calls
        .filter((call) => call.tool === 'Bash' && typeof call.input.command === 'string' && !NOT_RUN.test(call.content))
        .map((call) => {
          const capture = replay.captureOf(call);
          const streams = typeof capture === 'string' ? { stdout: Buffer.from(call.content), stderr: Buffer.alloc(0), exitCode: call.isError ? 1 : 0, header: null } : capture;
          const record = { id: call.toolUseId, line: call.input.command, shown: call.content, stdout: streams.stdout, stderr: streams.stderr, exitCode: streams.exitCode, header: streams.header ?? '' };
          return replay.viewShellCall(sandbox.runtime, record, session.sessionId || session.file, countTokens, replay.DEFAULT_VIEW_MIN_BYTES);
        }),
    );
    shellSets.push({ label: `Claude Code Bash (${sessions.length} sessions)`, views: claude });
    const codex = rollouts.flatMap((name) =>
      replay.readRolloutShellCalls(readFileSync(join(codexDir, name), 'utf8')).map((call) => {
        const record = { id: call.callId, line: call.line, shown: call.output, stdout: Buffer.from(call.output), stderr: Buffer.alloc(0), exitCode: call.exitCode, header: '' };
        return replay.viewShellCall(sandbox.runtime, record, name, countTokens, null);
      }),
    );
    if (rollouts.length > 0) shellSets.push({ label: `Codex shell (${rollouts.length} rollouts)`, views: codex });
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
    `${sessions.length} real Claude Code sessions (${corpus.replace(root, '.')}: claude-code/ uuid-named, claude-code-more/, claude-code-chatjson/)` +
    `${without.length === 0 ? '' : `, without the ${found.length - files.length} whose names hold ${without.join(' or ')} (\`--without ${without.join(',')}\`)`}` +
    `${only.length === 0 ? '' : `, only those whose names hold ${only.join(' or ')} (\`--only ${only.join(',')}\`)`}, ${summaries[first].overall.calls} tool results. ` +
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
    return `| ${row.file.replace(/\.jsonl$|_+chat\.json$/, '').slice(0, 48)} | ${row.version ?? '?'} | ${row.calls} | ${row.before} | ${cells.join(' | ')} | $${row.billedCost.toFixed(2)} |`;
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
      `Compound lines: ${b.compound.lines} (${b.compound.wrapped} of ${b.compound.segments} segments wrapped), ${b.compound.viewed} viewed, ${b.compound.lines - b.compound.viewed} counted unchanged` +
      `${Object.keys(b.compound.unchanged).length === 0 ? '' : ` (${Object.entries(b.compound.unchanged).sort((x, y) => y[1] - x[1]).map(([reason, n]) => `${n}× ${reason}`).join('; ')})`}` +
      `${Object.keys(b.compound.keptSegments).length === 0 ? '' : `; printing segments kept as typed: ${Object.entries(b.compound.keptSegments).sort((x, y) => y[1] - x[1]).map(([reason, n]) => `${n}× ${reason}`).join('; ')}`}. ` +
      `Replacements the renderer could not place: ${summaries[mode].unrenderable}. Markers shown: ${summaries[mode].markers}; stashed originals that did not retrieve byte-exact: ${summaries[mode].retrievalFailures}.`
    );
  }),
  '',
];
const sum = (views, key) => views.reduce((n, v) => n + v[key], 0);
const CHOICES = ['name', 'content', 'content policy', 'raw'];
lines.push(
  'Every shell call through the run view, as if its line had been wrapped (the views alone, whatever the permissions let pre_tool rewrite; the program is the line\'s one printing command, else none and the content decides; failed calls included):',
  '',
  `| calls | count | failed | tokens before | tokens after | saved | failed: before | failed: saved | ${CHOICES.map((c) => `by ${c}: calls | by ${c}: saved`).join(' | ')} | not byte-exact |`,
  `| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ${CHOICES.map(() => '---: | ---:').join(' | ')} | ---: |`,
  ...shellSets.map(({ label, views }) => {
    const failed = views.filter((v) => v.failed);
    const byChoice = CHOICES.map((c) => {
      const chosen = views.filter((v) => v.choice === c);
      return `${chosen.length} | ${sum(chosen, 'before') - sum(chosen, 'after')}`;
    });
    return `| ${label} | ${views.length} | ${failed.length} | ${sum(views, 'before')} | ${sum(views, 'after')} | ${pct(sum(views, 'before'), sum(views, 'after'))} | ${sum(failed, 'before')} | ${pct(sum(failed, 'before'), sum(failed, 'after'))} | ${byChoice.join(' | ')} | ${views.filter((v) => !v.retrievedExactly).length} |`;
  }),
  '',
);
const table = lines.join('\n');
// --json: one JSON document (summaries per mode, with per-session rows, and every replayed call) instead of the tables.
if (args.includes('--json')) process.stdout.write(`${JSON.stringify({ corpus, files: files.map((file) => basename(file)), rollouts, seconds, summaries, calls, shellViews: shellSets })}\n`);
else console.log(table);
if (args.includes('--write')) {
  const held = option('--match') !== undefined;
  writeBenchmarkBlock(join(root, 'BENCHMARKS.md'), held ? 'sessions-held-out' : 'sessions', held ? 'Session replay, held-out sessions: gross and net' : 'Session replay: real Claude Code sessions through the hooks', table);
}
process.exitCode = modes.some((mode) => summaries[mode].retrievalFailures > 0) || shellSets.some(({ views }) => views.some((v) => !v.retrievedExactly)) ? 1 : 0;
