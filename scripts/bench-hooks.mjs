// Claude Code hook latency, side by side in one run: the command hook (`tokenless hook pre_tool|post_tool`, one
// process per call, as Claude Code runs it) against the HTTP hook server (`tokenless serve`, one POST per call over a
// kept-alive connection), with `node -e 0` as the floor. Same inputs for both: a PreToolUse git status (a rewrite)
// and a PostToolUse Bash JSON output (a replacement). Prints a markdown table of medians and p90s.
//   npm run build && node scripts/bench-hooks.mjs [--runs 20] [--http-runs 200]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.cjs');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('runs', 20);
const HTTP_RUNS = arg('http-runs', 200);

const samples = join(root, 'test', 'fixtures', 'claude-code-hook-samples');
const pre = readFileSync(join(samples, 'PreToolUse__Bash.json'), 'utf8');
const postEvent = JSON.parse(readFileSync(join(samples, 'PostToolUse__Bash.json'), 'utf8'));
postEvent.tool_input = { command: 'npm view express --json' };
postEvent.tool_response = {
  stdout: readFileSync(join(root, 'test', 'fixtures', 'corpus-commands', 'cases', 'data-npm-view-express-json', 'stdout.txt'), 'utf8'),
  stderr: '',
  interrupted: false,
  isImage: false,
  noOutputExpected: false,
};
const post = JSON.stringify(postEvent);

const dataDir = mkdtempSync(join(tmpdir(), 'tokenless-bench-hooks-'));
const env = { ...process.env, TOKENLESS_DATA_DIR: dataDir, HOME: dataDir };

const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9) };
};

function timeProcess(args, input) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { input, env });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function timePost(url, token, body) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'X-Tokenless-Token': token } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function startServe() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const match = /listening on (\S+)/.exec(err);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

const rows = [];
const floor = [];
const commandPre = [];
const commandPost = [];
// Interleaved so machine noise hits every series alike.
for (let i = 0; i < RUNS; i++) {
  floor.push(timeProcess(['-e', '0'], ''));
  commandPre.push(timeProcess([cli, 'hook', 'pre_tool'], pre));
  commandPost.push(timeProcess([cli, 'hook', 'post_tool'], post));
}
const server = await startServe();
const token = readFileSync(join(dataDir, 'serve-token'), 'utf8').trim();
const httpPre = [];
const httpPost = [];
for (let i = 0; i < 10; i++) await timePost(`${server.url}/tokenless/claude-code/post_tool`, token, post); // warm-up
for (let i = 0; i < HTTP_RUNS; i++) {
  httpPre.push(await timePost(`${server.url}/tokenless/claude-code/pre_tool`, token, pre));
  httpPost.push(await timePost(`${server.url}/tokenless/claude-code/post_tool`, token, post));
}
server.child.kill('SIGTERM');
agent.destroy();
rmSync(dataDir, { recursive: true, force: true });

const fmt = (n) => n.toFixed(1);
rows.push(['`node -e 0` (floor)', RUNS, floor]);
rows.push(['command hook, PreToolUse git status (rewrite)', RUNS, commandPre]);
rows.push(['command hook, PostToolUse 21 KB JSON (replacement)', RUNS, commandPost]);
rows.push(['HTTP hook, PreToolUse git status (rewrite)', HTTP_RUNS, httpPre]);
rows.push(['HTTP hook, PostToolUse 21 KB JSON (replacement)', HTTP_RUNS, httpPost]);
console.log('| hook call | runs | median ms | p90 ms |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, runs, times] of rows) {
  const { median, p90 } = stats(times);
  console.log(`| ${name} | ${runs} | ${fmt(median)} | ${fmt(p90)} |`);
}
