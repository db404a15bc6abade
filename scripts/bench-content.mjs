// Savings of the content policy on file reads and data commands: the corpus's data/logs/read cases beside fresh
// real files from other projects (test/fixtures/content/cases), each through `tokenless filter` (what `tokenless
// run` prints), tokens counted with o200k, every marker retrieved and compared byte for byte.
// Usage: node scripts/bench-content.mjs [--write]   (after npm run build; --write updates BENCHMARKS.md)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { writeBenchmarkBlock } from './lib/benchmarks-md.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/cli.cjs');
const encoder = new Tiktoken(o200k);
const tokens = (text) => encoder.encode(text, [], []).length;
const dataDir = mkdtempSync(join(tmpdir(), 'tokenless-content-'));
const env = { ...process.env, TOKENLESS_DATA_DIR: dataDir, TOKENLESS_SESSION_ID: 'bench-content' };

function run(dir) {
  const read = (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : Buffer.alloc(0));
  const command = read('cmd.txt').toString('utf8').trim();
  const meta = JSON.parse(read('meta.json').toString('utf8'));
  const stdout = read('stdout.txt');
  const before = tokens(stdout.toString('utf8') + read('stderr.txt').toString('utf8'));
  const args = [cli, 'filter', '--command', command, '--exit-code', read('exit_code').toString('utf8').trim() || '0', '--json'];
  if (existsSync(join(dir, 'stderr.txt'))) args.push('--stderr', join(dir, 'stderr.txt'));
  const filtered = spawnSync(process.execPath, args, { input: stdout, env, maxBuffer: 64 * 1024 * 1024 });
  if (filtered.status !== 0) return { meta, command, before, after: before, filter: 'refused', retrieved: true };
  const view = JSON.parse(filtered.stdout.toString('utf8'));
  const retrieved = view.stash_keys.every((key) => spawnSync(process.execPath, [cli, 'retrieve', key], { env }).stdout.equals(stdout));
  return { meta, command, before, after: tokens(view.output + view.stderr), filter: view.filter ?? 'passthrough', retrieved };
}

const corpusDir = join(root, 'test/fixtures/corpus-commands/cases');
const freshDir = join(root, 'test/fixtures/content/cases');
const corpus = readdirSync(corpusDir).filter((id) => /^(data|logs|read)-/.test(id)).sort().map((id) => ({ id, set: 'corpus', ...run(join(corpusDir, id)) }));
const fresh = readdirSync(freshDir).sort().map((id) => ({ id, set: 'fresh', ...run(join(freshDir, id)) }));
rmSync(dataDir, { recursive: true, force: true });

const kindOf = (r) => r.meta.kind ?? r.meta.category;
const pct = (b, a) => (b === 0 ? '0.0%' : `${(((b - a) / b) * 100).toFixed(1)}%`);
const sum = (rows, key) => rows.reduce((total, row) => total + row[key], 0);
const all = [...corpus, ...fresh];
const lines = [
  `Command: \`node scripts/bench-content.mjs\` after \`npm run build\`, ${new Date().toISOString().slice(0, 10)}. Each case through \`tokenless filter\` (what \`tokenless run\` prints, the same content policy as post_tool); tokens counted with o200k; after includes the retrieval lines. Corpus: the \`data-*\`, \`logs-*\`, \`read-*\` cases; fresh: real files from projects the code was not tuned on (test/fixtures/content/SOURCES.md).`,
  '',
  '| set | kind | cases | changed | tokens before | tokens after | saved |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
];
for (const set of ['corpus', 'fresh']) {
  const rows = all.filter((r) => r.set === set);
  for (const kind of [...new Set(rows.map(kindOf))].sort()) {
    const k = rows.filter((r) => kindOf(r) === kind);
    lines.push(`| ${set} | ${kind} | ${k.length} | ${k.filter((r) => r.after < r.before).length} | ${sum(k, 'before')} | ${sum(k, 'after')} | ${pct(sum(k, 'before'), sum(k, 'after'))} |`);
  }
  lines.push(`| ${set} | **all** | ${rows.length} | ${rows.filter((r) => r.after < r.before).length} | ${sum(rows, 'before')} | ${sum(rows, 'after')} | ${pct(sum(rows, 'before'), sum(rows, 'after'))} |`);
}
const grown = all.filter((r) => r.after > r.before);
const unretrieved = all.filter((r) => !r.retrieved);
lines.push('', `Cases that grew: ${grown.length === 0 ? 'none' : grown.map((r) => r.id).join(', ')}. Markers that did not retrieve the raw output byte-exact: ${unretrieved.length === 0 ? 'none' : unretrieved.map((r) => r.id).join(', ')}.`, '');
if (process.argv.includes('--cases')) {
  lines.push('| case | kind | view | before | after | saved |', '| --- | --- | --- | ---: | ---: | ---: |');
  for (const r of all) lines.push(`| ${r.set}/${r.id} | ${kindOf(r)} | ${r.filter} | ${r.before} | ${r.after} | ${pct(r.before, r.after)} |`);
}
const table = lines.join('\n');
console.log(table);
if (process.argv.includes('--write')) writeBenchmarkBlock(join(root, 'BENCHMARKS.md'), 'content', 'Content policy: file reads and data, corpus vs fresh files', table);
process.exitCode = grown.length > 0 || unretrieved.length > 0 ? 1 : 0;
