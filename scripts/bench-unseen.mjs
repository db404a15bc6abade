// git, test and build families: savings on the corpus cases vs outputs of projects the filters were not developed on
// (test/fixtures/git-test-build); the container family on docker, podman and kubectl listings from those tools'
// repositories (test/fixtures/container; the corpus has none). Every case goes through `tokenless filter` (what
// `tokenless run` prints), tokens counted with the real o200k tokenizer, every marker retrieved and compared byte for
// byte.
// Usage: npm run build && node scripts/bench-unseen.mjs [--write]
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
const sets = [
  ['corpus', [join(root, 'test/fixtures/corpus-commands/cases')]],
  ['unseen', [join(root, 'test/fixtures/git-test-build/cases'), join(root, 'test/fixtures/container/cases')]],
];
const families = ['git', 'test', 'build', 'container'];
// The "all three" totals stay the git, test and build families, comparable with earlier runs.
const totalled = ['git', 'test', 'build'];
const encoder = new Tiktoken(o200k);
const tokens = (text) => encoder.encode(text, [], []).length;
const dataDir = mkdtempSync(join(tmpdir(), 'tokenless-unseen-'));
const env = { ...process.env, TOKENLESS_DATA_DIR: dataDir, TOKENLESS_SESSION_ID: 'bench-unseen' };

const results = [];
for (const [set, dirs] of sets) {
  for (const [dir, id] of dirs.flatMap((d) => readdirSync(d).sort().map((name) => [d, name]))) {
    const caseDir = join(dir, id);
    const read = (name) => (existsSync(join(caseDir, name)) ? readFileSync(join(caseDir, name)) : Buffer.alloc(0));
    const category = JSON.parse(read('meta.json').toString('utf8')).category;
    if (!families.includes(category)) continue;
    const command = read('cmd.txt').toString('utf8').trim();
    const stdout = read('stdout.txt');
    const stderr = read('stderr.txt');
    const before = tokens(stdout.toString('utf8') + stderr.toString('utf8'));
    const run = spawnSync(process.execPath, [cli, 'filter', '--command', command, '--exit-code', read('exit_code').toString('utf8').trim() || '0', '--stderr', join(caseDir, 'stderr.txt'), '--json'], {
      input: stdout,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) {
      results.push({ set, id, category, before, after: before, filter: null, refused: true, retrieved: true });
      continue;
    }
    const view = JSON.parse(run.stdout.toString('utf8'));
    const retrieved = view.stash_keys.every((key) => {
      const got = spawnSync(process.execPath, [cli, 'retrieve', key], { env }).stdout;
      return got.equals(stdout) || got.equals(stderr);
    });
    results.push({ set, id, category, before, after: tokens(view.output + view.stderr), filter: view.filter, refused: false, retrieved });
  }
}
rmSync(dataDir, { recursive: true, force: true });

const pct = (b, a) => (b === 0 ? '0.0%' : `${(((b - a) / b) * 100).toFixed(1)}%`);
const sum = (rows, key) => rows.reduce((total, row) => total + row[key], 0);
const median = (rows) => {
  const s = rows.map((r) => (r.before === 0 ? 0 : (r.before - r.after) / r.before)).sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const lines = [
  `Command: \`node scripts/bench-unseen.mjs\` after \`npm run build\`, ${new Date().toISOString().slice(0, 10)}. The git, test and build cases of test/fixtures/corpus-commands (corpus) and of test/fixtures/git-test-build (six projects not in the corpus, captured for this: itoa, cachetools, sqlparse, parson, mitt, nanoid, and two package installs; see its SOURCE.md), and the container listings of test/fixtures/container (docker/cli golden files and docs, podman man pages, kubectl's get tests; the corpus has none; not in the "all three" totals); each through \`tokenless filter\`, o200k tokens, retrieval marker lines included.`,
  '',
  '| family | set | cases | filtered | tokens before | tokens after | saved | median case |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const family of families) {
  for (const [set] of sets) {
    const rows = results.filter((r) => r.category === family && r.set === set);
    if (rows.length === 0) continue;
    lines.push(`| ${family} | ${set} | ${rows.length} | ${rows.filter((r) => r.after < r.before).length} | ${sum(rows, 'before')} | ${sum(rows, 'after')} | ${pct(sum(rows, 'before'), sum(rows, 'after'))} | ${(median(rows) * 100).toFixed(1)}% |`);
  }
}
for (const [set] of sets) {
  const rows = results.filter((r) => r.set === set && totalled.includes(r.category));
  lines.push(`| **all three** | ${set} | ${rows.length} | ${rows.filter((r) => r.after < r.before).length} | ${sum(rows, 'before')} | ${sum(rows, 'after')} | ${pct(sum(rows, 'before'), sum(rows, 'after'))} | ${(median(rows) * 100).toFixed(1)}% |`);
}
const grown = results.filter((r) => r.after > r.before);
const unretrieved = results.filter((r) => !r.retrieved);
const refused = results.filter((r) => r.refused);
lines.push('', `Cases that grew: ${grown.length === 0 ? 'none' : grown.map((r) => r.id).join(', ')}. Lines refused by \`filter\`: ${refused.length === 0 ? 'none' : refused.map((r) => r.id).join(', ')}. Lossy views whose marker did not retrieve the raw output byte-exact: ${unretrieved.length === 0 ? 'none' : unretrieved.map((r) => r.id).join(', ')}.`);
const table = lines.join('\n');
console.log(table);
if (process.argv.includes('--verbose')) for (const r of results) console.log(`${r.set} ${r.id} ${r.filter} ${r.before} -> ${r.after} (${pct(r.before, r.after)})`);
if (process.argv.includes('--write')) writeBenchmarkBlock(join(root, 'BENCHMARKS.md'), 'unseen-git-test-build', 'git, test and build on projects never seen', table);
process.exitCode = grown.length > 0 || unretrieved.length > 0 ? 1 : 0;
