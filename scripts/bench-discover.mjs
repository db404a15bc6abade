// What `syt discover`'s drafted filter files add to the session replay, on outputs they were not written from.
// For the five commands of the shared sessions ranked as `syt discover` ranks them (no built-in filter, no view,
// what a draft saves on its own outputs; scored on the first halves only), a filter file is drafted from the first
// half of each command's recorded outputs (in session order), then every session is replayed with those five files
// active and without, and the Bash tokens of the second halves (the outputs no draft saw) are
// compared, beside the whole sessions' Bash saving. Sessions held out while tuning (FSM1__cipher-box,
// PackmindHub__context-evaluator) are left out. Usage: node scripts/bench-discover.mjs [--json]
import { existsSync, readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TOKENLESS_SESSIONS_CORPUS ?? '/work/shared/corpus/transcripts';
const HELD_OUT = /^(FSM1__cipher-box|PackmindHub__context-evaluator)__/;
const files = ['claude-code', 'claude-code-more']
  .map((dir) => join(corpus, dir))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) => readdirSync(dir).filter((name) => name.endsWith('.jsonl') && !name.startsWith('transcript-') && !HELD_OUT.test(name)).sort().map((name) => join(dir, name)));

const outdir = join(root, '.tmp/bench-discover');
mkdirSync(outdir, { recursive: true });
await build({
  stdin: {
    contents: [
      "export * from './src/replay/index.ts';",
      "export { rankCommands, outputsOf, draftSaving } from './src/analyze/discover.ts';",
      "export { draftFilterFile } from './src/filters/file/draft.ts';",
      "export { parseFilterFile } from './src/filters/file/parse.ts';",
    ].join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  outfile: join(outdir, 'bench.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  packages: 'external',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const lib = await import(pathToFileURL(join(outdir, 'bench.mjs')).href);
const countTokens = await lib.tokenCounter();
const sessions = files.map((file) => lib.readRecordedSession(readFileSync(file, 'utf8'), basename(file)));

async function replayAll(fileFilters) {
  const sandbox = lib.openReplaySandbox({ fileFilters });
  try {
    const replays = [];
    for (const session of sessions) replays.push(await lib.replaySession(session, sandbox.contextFor(session, 'default', countTokens)));
    return replays;
  } finally {
    sandbox.close();
  }
}

const plain = await replayAll([]);
// The five are chosen as `syt discover` ranks (what a draft saves on the outputs it is written from, over the calls
// no view and no built-in filter took), but on the first halves only, so nothing of the outputs measured below
// decides which commands are drafted.
const candidates = lib.rankCommands(sessions, plain, countTokens)
  .filter((command) => command.draftable > 0)
  .map((command) => {
    const outputs = lib.outputsOf(command.key, sessions, plain);
    const half = Math.ceil(outputs.length / 2);
    const written = outputs.slice(0, half);
    const score = lib.draftSaving(command.key, written.filter((output) => output.draftable).map(draftInput), countTokens);
    return { command, outputs, half, written, score };
  })
  // At least one output left to measure on; a draft that saves nothing even where it was written still counts as
  // one of the five (the ranking's tie-break is then the tokens left whole), so the table says what it adds.
  .filter((candidate) => candidate.outputs.length > candidate.half)
  .sort((a, b) => b.score - a.score || b.command.unviewedTokens - a.command.unviewedTokens || a.command.key.localeCompare(b.command.key));
const top = candidates.slice(0, 5);
const drafts = [];
const testIds = new Set();
for (const { command, outputs, half, written } of top) {
  for (const output of outputs.slice(half)) testIds.add(output.toolUseId);
  const text = lib.draftFilterFile(command.key, written.map(draftInput));
  const parsed = lib.parseFilterFile(text, `/bench/${command.key.replace(/\W+/g, '-')}.toml`, 'user');
  if (parsed.problems.length > 0) throw new Error(`draft for ${command.key}: ${JSON.stringify(parsed.problems)}`);
  drafts.push({ key: command.key, written: written.length, tested: outputs.length - half, score: candidates.find((candidate) => candidate.command === command)?.score ?? 0, filters: parsed.filters });
}
const withDrafts = await replayAll(drafts.flatMap((draft) => draft.filters));
const changed = withDrafts.flatMap((replay, s) =>
  replay.calls.flatMap((call, c) => {
    const was = plain[s]?.calls[c]?.after;
    return was === undefined || was === call.after ? [] : [{ toolUseId: call.toolUseId, before: call.before, after_without: was, after_with: call.after, unseen: testIds.has(call.toolUseId), view: call.viewKind }];
  }),
);

function draftInput(output) {
  return { output: output.output, failed: output.failed };
}

const bashTotals = (replays, only) => {
  let before = 0;
  let after = 0;
  for (const replay of replays) for (const call of replay.calls) {
    if (call.tool !== 'Bash' || (only !== undefined && !only.has(call.toolUseId))) continue;
    before += call.before;
    after += call.after;
  }
  return { before, after, saved: before === 0 ? 0 : (before - after) / before };
};
const result = {
  sessions: sessions.length,
  draftable_commands: lib.rankCommands(sessions, plain, countTokens).filter((command) => command.draftable > 0).map((command) => ({ key: command.key, draftable: command.draftable, outputs: command.calls })),
  drafts: drafts.map(({ key, written, tested, score }) => ({ key, written_from: written, tested_on: tested, saves_where_written: score })),
  unseen_outputs: { without: bashTotals(plain, testIds), with: bashTotals(withDrafts, testIds) },
  all_bash: { without: bashTotals(plain), with: bashTotals(withDrafts) },
  changed,
};
if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
else {
  const pct = (value) => `${(100 * value).toFixed(1)}%`;
  console.log(`${result.sessions} shared sessions (held-out ones excluded), default permission mode, o200k tokens`);
  console.log(`${result.draftable_commands.length} commands with an output a draft could view (calls of them / all calls): ${result.draftable_commands.map((command) => `${command.key} (${command.draftable}/${command.outputs})`).join(', ')}`);
  console.log('| command | drafted from | tested on | draft saves where written (the ranking) |\n| --- | ---: | ---: | ---: |');
  for (const draft of result.drafts) console.log(`| \`${draft.key}\` | ${draft.written_from} | ${draft.tested_on} | ${draft.saves_where_written} |`);
  console.log('\n| Bash tokens | before | after, today\'s filters | after, with the 5 drafts | saving without → with |\n| --- | ---: | ---: | ---: | ---: |');
  for (const [label, totals] of [['outputs no draft saw', result.unseen_outputs], ['all Bash calls', result.all_bash]]) {
    console.log(`| ${label} | ${totals.without.before} | ${totals.without.after} | ${totals.with.after} | ${pct(totals.without.saved)} → ${pct(totals.with.saved)} |`);
  }
  for (const call of result.changed) console.log(`changed by a draft: ${call.toolUseId} (${call.unseen ? 'unseen' : 'written from'}) ${call.after_without} → ${call.after_with} tokens, ${call.view}`);
}
