// Savings on the real command corpus: every case through `tokenless filter` (exactly what `tokenless run` would
// print), tokens counted with the real o200k tokenizer, every marker retrieved and compared byte for byte.
// Usage: node scripts/bench-corpus.mjs [--write] [--unnamed]   (npm run bench:corpus builds first and writes BENCHMARKS.md)
// --unnamed: every output viewed as printed by a program no filter knows (`./scripts/task.sh`), so only its content
// can choose the view: what a task runner, a script or a remote shell printing the same bytes gets (never written).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { writeBenchmarkBlock } from './lib/benchmarks-md.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = join(root, 'test/fixtures/corpus-commands/cases');
const cli = join(root, 'dist/cli.cjs');
const encoder = new Tiktoken(o200k);
const tokens = (text) => encoder.encode(text, [], []).length;
const dataDir = mkdtempSync(join(tmpdir(), 'tokenless-corpus-'));
const env = { ...process.env, TOKENLESS_DATA_DIR: dataDir, TOKENLESS_SESSION_ID: 'bench-corpus' };

const unnamed = process.argv.includes('--unnamed');
const results = [];
for (const id of readdirSync(casesDir).sort()) {
  const dir = join(casesDir, id);
  const read = (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : Buffer.alloc(0));
  const command = read('cmd.txt').toString('utf8').trim();
  const category = JSON.parse(read('meta.json').toString('utf8')).category;
  const stdout = read('stdout.txt');
  const stderr = read('stderr.txt');
  const exitCode = read('exit_code').toString('utf8').trim() || '0';
  const before = tokens(stdout.toString('utf8') + stderr.toString('utf8'));
  if (unnamed) {
    // `tokenless run` itself, told the output is `./scripts/task.sh`'s: the program replays the captured streams.
    const replay = `cat '${join(dir, 'stdout.txt')}' 2>/dev/null; cat '${join(dir, 'stderr.txt')}' >&2 2>/dev/null; exit ${Number(exitCode) || 0}`;
    const run = spawnSync(process.execPath, [cli, 'run', '--view-as', './scripts/task.sh', '--', 'sh', '-c', replay], { env, maxBuffer: 64 * 1024 * 1024 });
    const shown = run.stdout.toString('utf8') + run.stderr.toString('utf8');
    const keys = [...shown.matchAll(/\[tokenless retrieve (\d+)\]/g)].map((m) => m[1]);
    const retrieved = keys.every((key) => {
      const got = spawnSync(process.execPath, [cli, 'retrieve', key], { env }).stdout;
      return got.equals(stdout) || got.equals(stderr);
    });
    results.push({ id, category, command, before, after: tokens(shown), filter: keys.length > 0 || shown !== stdout.toString('utf8') + stderr.toString('utf8') ? 'viewed' : null, recoverability: keys.length > 0 ? 'retrievable' : 'lossless', retrieved });
    continue;
  }
  const run = spawnSync(process.execPath, [cli, 'filter', '--command', command, '--exit-code', exitCode, '--stderr', join(dir, 'stderr.txt'), '--json'], {
    input: stdout,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    // filter failed (it accepts every line; lines pre_tool leaves alone come back unchanged).
    results.push({ id, category, command, before, after: before, filter: null, recoverability: 'unwrapped', retrieved: true });
    continue;
  }
  const view = JSON.parse(run.stdout.toString('utf8'));
  const after = tokens(view.output + view.stderr);
  const retrieved = view.stash_keys.every((key) => {
    const got = spawnSync(process.execPath, [cli, 'retrieve', key], { env }).stdout;
    return got.equals(stdout) || got.equals(stderr);
  });
  results.push({ id, category, command, before, after, filter: view.filter, recoverability: view.recoverability, retrieved });
}
rmSync(dataDir, { recursive: true, force: true });

const pct = (b, a) => (b === 0 ? '0.0%' : `${(((b - a) / b) * 100).toFixed(1)}%`);
const sum = (rows, key) => rows.reduce((total, row) => total + row[key], 0);
const categories = [...new Set(results.map((r) => r.category))].sort();
const lines = [
  `Command: \`${unnamed ? 'npm run build && node scripts/bench-corpus.mjs --unnamed' : 'npm run bench:corpus'}\` (node scripts/bench-corpus.mjs${unnamed ? ' --unnamed: every output as printed by `./scripts/task.sh`, a program no filter knows' : ''}), ${new Date().toISOString().slice(0, 10)}. ${results.length} real cases from test/fixtures/corpus-commands; tokens counted with o200k (js-tiktoken); before = stdout + stderr as captured, after = what \`tokenless run\` prints (retrieval marker lines included).`,
  '',
  '| category | cases | filtered | tokens before | tokens after | saved |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...categories.map((category) => {
    const rows = results.filter((r) => r.category === category);
    const filtered = rows.filter((r) => r.after < r.before).length;
    return `| ${category} | ${rows.length} | ${filtered} | ${sum(rows, 'before')} | ${sum(rows, 'after')} | ${pct(sum(rows, 'before'), sum(rows, 'after'))} |`;
  }),
  `| **all** | ${results.length} | ${results.filter((r) => r.after < r.before).length} | ${sum(results, 'before')} | ${sum(results, 'after')} | ${pct(sum(results, 'before'), sum(results, 'after'))} |`,
  '',
];
const groups = [
  ['git status', (r) => /^git status/.test(r.command)],
  ['passing test runs', (r) => r.category === 'test' && /-pass/.test(r.id)],
  ['failing test runs', (r) => r.category === 'test' && /-fail|timeout/.test(r.id)],
  ['ls / find', (r) => /^(ls|find)\b/.test(r.command)],
  ['grep / rg / git grep (n-listings)', (r) => r.category === 'search' && /(^| )(-rn|-n)( |$)|^git grep/.test(r.command)],
];
lines.push('| target group | cases | tokens before | tokens after | saved |', '| --- | ---: | ---: | ---: | ---: |');
for (const [name, test] of groups) {
  const rows = results.filter(test);
  lines.push(`| ${name} | ${rows.length} | ${sum(rows, 'before')} | ${sum(rows, 'after')} | ${pct(sum(rows, 'before'), sum(rows, 'after'))} |`);
}
const grown = results.filter((r) => r.after > r.before);
const unretrieved = results.filter((r) => !r.retrieved);
lines.push('', `Cases that grew: ${grown.length === 0 ? 'none' : grown.map((r) => r.id).join(', ')}. Lossy cases whose marker did not retrieve the raw output byte-exact: ${unretrieved.length === 0 ? 'none' : unretrieved.map((r) => r.id).join(', ')}.`, '');
lines.push('Worst 10 (lowest saving):', '', '| case | filter | before | after | saved |', '| --- | --- | ---: | ---: | ---: |');
for (const r of [...results].sort((a, b) => (a.before - a.after) / Math.max(a.before, 1) - (b.before - b.after) / Math.max(b.before, 1)).slice(0, 10)) {
  lines.push(`| ${r.id} | ${r.filter ?? (r.recoverability === 'unwrapped' ? 'not wrapped (compound command)' : 'passthrough')} | ${r.before} | ${r.after} | ${pct(r.before, r.after)} |`);
}
const table = lines.join('\n');
console.log(table);
if (process.argv.includes('--json')) writeFileSync(join(root, '.tmp/bench-corpus.json'), JSON.stringify(results, null, 1));
if (process.argv.includes('--write') && !unnamed) writeBenchmarkBlock(join(root, 'BENCHMARKS.md'), 'corpus', 'Savings on the real command corpus', table);
process.exitCode = grown.length > 0 || unretrieved.length > 0 ? 1 : 0;
