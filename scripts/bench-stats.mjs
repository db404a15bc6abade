// Benchmarks for issue 6 (BENCHMARKS.md, "Stats"): `stats summary` over 100,000 records, `stats export --otlp` of all of
// them to a loopback receiver (issue 26: under 10 s, memory bounded), and `stats usage` over the corpus transcripts
// against ccusage on the same files. Run after `npm run build`:
//   node scripts/bench-stats.mjs [--runs 7] [--records 100000]
// ccusage is installed into a temp dir from the npm registry (never a dependency of this project). ccusage 18+ ships
// only native binaries through optional packages not on this registry, so the last JavaScript release (17.x) is used.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// A private snapshot of dist/: other builds may replace dist/ while the benchmark runs. Inside the repo, so the
// bundle still resolves better-sqlite3 from node_modules.
const snapshot = join(root, '.tmp', `bench-stats-${process.pid}`);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
};
const RUNS = option('--runs', 7);
const RECORDS = option('--records', 100_000);
const CCUSAGE_VERSION = '17.2.1';
if (!existsSync(join(root, 'dist', 'cli.cjs'))) throw new Error('run `npm run build` first');
cpSync(join(root, 'dist'), snapshot, { recursive: true });
const cli = join(snapshot, 'cli.cjs');

const work = mkdtempSync(join(tmpdir(), 'tokenless-bench-stats-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function time(command, argv, env = {}) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, argv, { env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed: ${result.stderr}`);
    samples.push(ms);
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

function seed(dataDir) {
  // The CLI creates the schema (numbered migrations); rows are then inserted directly, in one transaction.
  execFileSync(process.execPath, [cli, 'stats', 'enable'], { env: { ...process.env, TOKENLESS_DATA_DIR: dataDir } });
  const Database = createRequire(join(root, 'package.json'))('better-sqlite3');
  const db = new Database(join(dataDir, 'stats.db'));
  // The texts are not stored (schema version 3): a digest and a line count stand for each.
  const insert = db.prepare(`INSERT INTO operations (ts, lifecycle, operation, agent_id, session_id, tool_use_id, tool_name,
    origin, content_type, mode, recoverability, before_bytes, after_bytes, before_tokens, after_tokens, token_method,
    before_digest, after_digest, before_lines, after_lines, stash_keys, stash_writes)
    VALUES (?, ?, ?, 'agent', ?, ?, ?, 'command_output', 'log', ?, 'retrievable', ?, ?, ?, ?, 'estimated', ?, ?, 80, 10, '[]', 0)`);
  const ops = ['json_compact', 'log_dedupe', 'test_summary', 'search_paths', 'git_status', 'toon'];
  const tools = ['Bash', 'Read', 'Grep', 'Glob'];
  const before = 'b'.repeat(64);
  const after = 'a'.repeat(64);
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  db.transaction(() => {
    for (let i = 0; i < RECORDS; i++) {
      const big = i % 50 === 0 ? 40_000 : 4096;
      // Sessions are contiguous runs of 250 operations (an agent session), one operation a minute, 400 sessions.
      insert.run(t0 + i * 60_000, i % 3 === 0 ? 'run' : 'post_tool', ops[i % ops.length], `session-${Math.floor(i / 250)}`, `toolu_${i}`, tools[i % tools.length],
        i % 10 === 0 ? 'dry_run' : 'active', big, 512, big / 4, 128, before, after);
    }
  })();
  db.close();
}

function node0() {
  return time(process.execPath, ['-e', '0']);
}

const results = {};
const dataDir = join(work, 'data');
seed(dataDir);
const env = { TOKENLESS_DATA_DIR: dataDir, NO_COLOR: '1', TZ: 'UTC' };
results['node -e 0'] = node0();
results[`stats summary --json (default: latest 10,000 of ${RECORDS})`] = time(process.execPath, [cli, 'stats', 'summary', '--json'], env);
results[`stats summary --json --limit ${RECORDS}`] = time(process.execPath, [cli, 'stats', 'summary', '--json', '--limit', String(RECORDS)], env);
results[`stats summary (Ink table) --limit ${RECORDS}`] = time(process.execPath, [cli, 'stats', 'summary', '--limit', String(RECORDS)], env);

// The export: every record once, to a receiver that accepts each request; a fresh copy of the db per run (an export
// moves the watermark). Peak memory from /usr/bin/time (max resident set).
const exported = await (async () => {
  const bodies = [];
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      bodies.push(bytes);
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const samples = [];
  const peaks = [];
  let printed = '';
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    const dir = join(work, `export-${i}`);
    cpSync(dataDir, dir, { recursive: true });
    const exportEnv = { ...process.env, TOKENLESS_DATA_DIR: dir, TOKENLESS_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${server.address().port}` };
    const start = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', 'peak-kib %M', process.execPath, cli, 'stats', 'export', '--otlp', '--json'], { env: exportEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [status] = await once(child, 'close');
    if (status !== 0) throw new Error(`stats export failed: ${stderr}`);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    peaks.push(Number(/peak-kib (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024);
    printed = stdout.trim();
  }
  server.close();
  return { timing: { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) }, peakMiB: median(peaks), printed, requests: bodies.length };
})();
results[`stats export --otlp --json, all ${RECORDS} records (fresh copy per run)`] = exported.timing;

// Usage: the corpus transcripts laid out as a Claude config dir.
const corpus = join(root, '..', 'shared', 'corpus', 'transcripts', 'claude-code');
const source = existsSync(corpus) ? corpus : join(root, 'test', 'fixtures', 'transcripts', 'claude-code');
const claudeDir = join(work, 'claude');
mkdirSync(join(claudeDir, 'projects', '-demo'), { recursive: true });
for (const name of readdirSync(source).filter((n) => n.endsWith('.jsonl'))) cpSync(join(source, name), join(claudeDir, 'projects', '-demo', name));
const usageArgs = [cli, 'stats', 'usage', '--claude-dir', claudeDir, '--json'];
results['stats usage --json, cold (cache removed before each run)'] = (() => {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = join(work, `usage-cold-${i}`);
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, usageArgs, { env: { ...process.env, TOKENLESS_DATA_DIR: dir } });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
})();
const warmDir = join(work, 'usage-warm');
execFileSync(process.execPath, usageArgs, { env: { ...process.env, TOKENLESS_DATA_DIR: warmDir } });
results['stats usage --json, warm (files unchanged)'] = time(process.execPath, usageArgs, { TOKENLESS_DATA_DIR: warmDir });

const ccusageDir = join(work, 'ccusage');
let ccusageNote = '';
try {
  mkdirSync(ccusageDir);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', ccusageDir, `ccusage@${CCUSAGE_VERSION}`], { stdio: 'ignore' });
  const bin = join(ccusageDir, 'node_modules', 'ccusage', 'dist', 'index.js');
  results[`ccusage ${CCUSAGE_VERSION} daily --json --offline`] = time(process.execPath, [bin, 'daily', '--json', '--offline'], { CLAUDE_CONFIG_DIR: claudeDir });
  results[`ccusage ${CCUSAGE_VERSION} session --json --offline`] = time(process.execPath, [bin, 'session', '--json', '--offline'], { CLAUDE_CONFIG_DIR: claudeDir });
} catch (error) {
  ccusageNote = `ccusage could not run: ${error instanceof Error ? error.message : String(error)}`;
}

console.log(`runs per figure: ${RUNS}; records: ${RECORDS}; transcripts: ${source}`);
console.log('| command | median ms | min | max |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, r] of Object.entries(results)) console.log(`| ${name} | ${r.median.toFixed(0)} | ${r.min.toFixed(0)} | ${r.max.toFixed(0)} |`);
if (ccusageNote !== '') console.log(ccusageNote);
console.log(`stats export: peak resident ${exported.peakMiB.toFixed(0)} MiB (median), last run printed ${exported.printed}`);
rmSync(work, { recursive: true, force: true });
rmSync(snapshot, { recursive: true, force: true });
