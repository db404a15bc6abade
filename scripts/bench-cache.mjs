// Measures before_model and cache-aware assembly on real inputs, with the built CLI (run `npm run build` first):
//   1. schema reduction on Claude Code's captured first requests (estimated and o200k tokens), both modes;
//   2. that a second identical before_model call is byte-identical;
//   3. cache stability: 20 successive requests with overlapping chunk selections, deterministic two-zone order vs
//      relevance order, as the longest common prefix between consecutive assembled contexts.
// Usage: node scripts/bench-cache.mjs [--json]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.cjs');
const fixtures = join(root, 'test', 'fixtures', 'claude-code-requests');
const work = mkdtempSync(join(tmpdir(), 'syt-bench-cache-'));
const env = { PATH: process.env.PATH ?? '', HOME: work, TOKENLESS_DATA_DIR: join(work, 'data'), NO_COLOR: '1', TZ: 'UTC' };
const run = (args, input = '') => {
  const result = spawnSync(process.execPath, [cli, ...args], { input, env, maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`syt ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
};

const out = { schema: [], identical: [], stability: [] };

for (const file of ['first-request-2.1.332-opus-5-5.json', 'first-request-2.1.332-sonnet-4-5.json', 'first-request-2.1.112.json']) {
  for (const mode of ['recoverable', 'lossless']) {
    const report = JSON.parse(run(['schema', join(fixtures, file), '--mode', mode, '--real-tokens', '--json']));
    out.schema.push({ file, mode, tools: report.tools, before_bytes: report.before_bytes, after_bytes: report.after_bytes, before_o200k: report.before_tokens, after_o200k: report.after_tokens });
  }
  const body = JSON.parse(readFileSync(join(fixtures, file), 'utf8')).body;
  const envelope = JSON.stringify({ protocol_version: 2, operation: 'before_model', attribution: { agent_id: 'bench', session_id: 'bench' }, input: { tools: body.tools, messages: body.messages } });
  const a = run(['hook', 'before_model'], envelope);
  const b = run(['hook', 'before_model'], envelope);
  const digest = (buf) => createHash('sha256').update(buf).digest('hex').slice(0, 16);
  out.identical.push({ file, bytes: a.length, first: digest(a), second: digest(b), identical: a.equals(b) });
}

// Chunks: one mandatory identity chunk and 24 topic chunks of ~600 bytes, each with three triggers.
function writeChunks(dir) {
  writeFileSync(join(dir, '00-identity.json'), JSON.stringify({ id: '00-identity', mandatory: true, content: 'You are the support agent. '.repeat(40) }));
  for (let i = 0; i < 24; i += 1) {
    const id = `t${String(i).padStart(2, '0')}`;
    writeFileSync(join(dir, `${id}.json`), JSON.stringify({ id, triggers: [`topic${i}`, `alias${i}`, `extra${i}`], content: `Facts about topic ${i}. `.repeat(30) }));
  }
}

/** Scenario A: a conversation keeps 2 topics for 5 requests and touches 2 others (fixed LCG) each time. */
function stickyQueries() {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 24;
  return Array.from({ length: 20 }, (_, i) => {
    const picked = [Math.floor(i / 5) * 2, Math.floor(i / 5) * 2 + 1];
    while (picked.length < 4) {
      const t = next();
      if (!picked.includes(t)) picked.push(t);
    }
    return `question ${i} about ${picked.map((t, k) => ['topic', 'alias', 'extra'].slice(0, ((i * 7 + k * 5) % 3) + 1).map((w) => `${w}${t}`).join(' ')).join(' and ')}`;
  });
}

/** Scenario B: a sliding window (topics i, i+1, i+2, i+5): the lowest id changes every request. */
function slidingQueries() {
  return Array.from({ length: 20 }, (_, i) => `question ${i} about ${[i, i + 1, i + 2, i + 5].map((t, k) => ['topic', 'alias', 'extra'].slice(0, ((i + k) % 3) + 1).map((w) => `${w}${t % 24}`).join(' ')).join(' and ')}`);
}

const lcp = (a, b) => {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
};

const chunksDir = join(work, 'chunks');
spawnSync('mkdir', ['-p', chunksDir]);
writeChunks(chunksDir);
for (const [name, queries] of [['sticky topics + 2 varying (A)', stickyQueries()], ['sliding window (B)', slidingQueries()]]) {
  const texts = { deterministic: [], relevance: [] };
  for (const query of queries) {
    for (const order of ['deterministic', 'relevance']) {
      texts[order].push(JSON.parse(run(['select', ...query.split(' '), '--chunks', chunksDir, '--max', '4', '--order', order, '--json'])).text);
    }
  }
  const row = { scenario: name, requests: queries.length };
  for (const order of ['deterministic', 'relevance']) {
    let shared = 0;
    let total = 0;
    for (let i = 1; i < queries.length; i += 1) {
      shared += lcp(texts[order][i - 1], texts[order][i]);
      total += texts[order][i].length;
    }
    row[order] = { shared_prefix_chars: shared, total_chars: total, prefix_share: Number((shared / total).toFixed(3)) };
  }
  out.stability.push(row);
}
rmSync(work, { recursive: true, force: true });

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} else {
  const pct = (a, b) => `${((1 - b / a) * 100).toFixed(1)}%`;
  console.log('schema compression (tools array, o200k tokens):');
  for (const r of out.schema) console.log(`  ${r.file.padEnd(40)} ${r.mode.padEnd(11)} ${r.tools} tools  ${r.before_bytes} -> ${r.after_bytes} B (-${pct(r.before_bytes, r.after_bytes)})  ${r.before_o200k} -> ${r.after_o200k} tok (-${pct(r.before_o200k, r.after_o200k)})`);
  console.log('second identical before_model call:');
  for (const r of out.identical) console.log(`  ${r.file.padEnd(40)} ${r.bytes} B  ${r.first} / ${r.second}  identical=${r.identical}`);
  console.log('cache stability, 20 requests (sum of longest common prefix between consecutive assembled contexts):');
  for (const r of out.stability) console.log(`  ${r.scenario.padEnd(32)} deterministic ${r.deterministic.shared_prefix_chars}/${r.deterministic.total_chars} (${r.deterministic.prefix_share})  relevance ${r.relevance.shared_prefix_chars}/${r.relevance.total_chars} (${r.relevance.prefix_share})`);
}
