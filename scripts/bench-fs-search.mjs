// fs/search savings on outputs the filters were not written against (test/fixtures/fs-search, see its SOURCE.md):
// every case through `tokenless filter` (what `tokenless run` prints), o200k tokens, every marker retrieved and
// compared byte for byte. Counting is the same as scripts/bench-corpus.mjs. Usage: node scripts/bench-fs-search.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = join(root, 'test/fixtures/fs-search/cases');
const cli = join(root, 'dist/cli.cjs');
const encoder = new Tiktoken(o200k);
const tokens = (text) => encoder.encode(text, [], []).length;
const dataDir = mkdtempSync(join(tmpdir(), 'tokenless-fs-search-'));
const env = { ...process.env, TOKENLESS_DATA_DIR: dataDir, TOKENLESS_SESSION_ID: 'bench-fs-search' };
const family = (id) => (/^(?:grep|rg|git-grep)-/.test(id) ? 'search' : 'fs');

const results = [];
for (const id of readdirSync(casesDir).sort()) {
  const dir = join(casesDir, id);
  const read = (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : Buffer.alloc(0));
  const command = read('cmd.txt').toString('utf8').trim();
  const stdout = read('stdout.txt');
  const exitCode = read('exit_code').toString('utf8').trim() || '0';
  const before = tokens(stdout.toString('utf8'));
  const run = spawnSync(process.execPath, [cli, 'filter', '--command', command, '--exit-code', exitCode, '--json'], { input: stdout, env, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    results.push({ id, category: family(id), before, after: before, filter: null, retrieved: true, refused: true });
    continue;
  }
  const view = JSON.parse(run.stdout.toString('utf8'));
  const after = tokens(view.output + view.stderr);
  const retrieved = view.stash_keys.every((key) => spawnSync(process.execPath, [cli, 'retrieve', key], { env }).stdout.equals(stdout));
  results.push({ id, category: family(id), before, after, filter: view.filter, retrieved, refused: false });
}
rmSync(dataDir, { recursive: true, force: true });

const pct = (b, a) => (b === 0 ? '0.0%' : `${(((b - a) / b) * 100).toFixed(1)}%`);
const sum = (rows, key) => rows.reduce((total, row) => total + row[key], 0);
const median = (rows) => {
  const s = rows.map((r) => (r.before - r.after) / Math.max(r.before, 1)).sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] + s[Math.ceil((s.length - 1) / 2)]) / 2;
};
const lines = ['| family | cases | filtered | tokens before | tokens after | saved | median case |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
for (const category of ['fs', 'search']) {
  const rows = results.filter((r) => r.category === category);
  lines.push(`| ${category} | ${rows.length} | ${rows.filter((r) => r.after < r.before).length} | ${sum(rows, 'before')} | ${sum(rows, 'after')} | ${pct(sum(rows, 'before'), sum(rows, 'after'))} | ${(median(rows) * 100).toFixed(1)}% |`);
}
lines.push(`| **all** | ${results.length} | ${results.filter((r) => r.after < r.before).length} | ${sum(results, 'before')} | ${sum(results, 'after')} | ${pct(sum(results, 'before'), sum(results, 'after'))} | ${(median(results) * 100).toFixed(1)}% |`);
const grown = results.filter((r) => r.after > r.before);
const unretrieved = results.filter((r) => !r.retrieved);
const refused = results.filter((r) => r.refused);
lines.push('', `Grew: ${grown.map((r) => r.id).join(', ') || 'none'}. Not retrieved byte-exact: ${unretrieved.map((r) => r.id).join(', ') || 'none'}. Refused by \`tokenless filter\`: ${refused.map((r) => r.id).join(', ') || 'none'}.`);
if (process.argv.includes('--cases')) for (const r of results) lines.push(`${r.id.padEnd(32)} ${String(r.filter).padEnd(10)} ${r.before} -> ${r.after} (${pct(r.before, r.after)})`);
console.log(lines.join('\n'));
process.exitCode = grown.length > 0 || unretrieved.length > 0 ? 1 : 0;
