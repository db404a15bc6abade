// What our Pi extension adds to a tool call inside Pi's process: its tool_result handler, timed in this process on
// the tool_result events Pi 0.73.1 sent (test/fixtures/pi/tool-results.jsonl), the extension file exactly as
// `syt init --harness pi` writes it. Below the view threshold no process may start (target: under 5 ms a call);
// above it the engine runs once per call, timed too for contrast.
// Usage: npm run build && node scripts/bench-pi-extension.mjs [--calls N]
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './lib/timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const calls = args.includes('--calls') ? Number(args[args.indexOf('--calls') + 1]) : 20000;
const work = mkdtempSync(join(tmpdir(), 'syt-bench-pi-'));
const env = { ...process.env, HOME: join(work, 'home'), PI_CODING_AGENT_DIR: join(work, 'agent'), TOKENLESS_DATA_DIR: join(work, 'data') };
const init = spawnSync(process.execPath, [join(root, 'dist/cli.cjs'), 'init', '--harness', 'pi', '--scope', 'user'], { cwd: work, env, encoding: 'utf8' });
if (init.status !== 0) throw new Error(`syt init --harness pi failed: ${init.stderr}`);
// Node imports a .mjs as ESM; Pi loads the .js through jiti (the same code).
const file = join(work, 'save-your-tokens.mjs');
copyFileSync(join(work, 'agent', 'extensions', 'save-your-tokens.js'), file);
const loadStart = process.hrtime.bigint();
const module = await import(pathToFileURL(file).href);
const loadMs = Number(process.hrtime.bigint() - loadStart) / 1e6;
const handlers = new Map();
module.default({ on: (name, handler) => handlers.set(name, handler) });
const onResult = handlers.get('tool_result');
const ctx = { sessionManager: { getSessionId: () => 'bench' } };
process.env.TOKENLESS_DATA_DIR = env.TOKENLESS_DATA_DIR;

const events = readFileSync(join(root, 'test/fixtures/pi/tool-results.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
const under = { ...events[0], content: [{ type: 'text', text: `${'x'.repeat(1022)}\n` }] };
const below = [
  ['seq 1 3 (6 bytes, exit 0)', events[0]],
  ['small output, exit 3', events[1]],
  ['1,023 bytes (one under the threshold)', under],
  ['timed out (no exit line)', events[4]],
  ['a read result (not bash)', { ...events[2], toolName: 'read' }],
];

async function perCall(event, n) {
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const start = process.hrtime.bigint();
    const answer = await onResult(event, ctx);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (answer !== undefined && n > 100) throw new Error('a result below the threshold was replaced');
  }
  times.sort((a, b) => a - b);
  return { median: median(times), p99: times[Math.floor(times.length * 0.99)], max: times.at(-1) };
}

const fmt = (ms) => (ms < 0.01 ? ms.toFixed(4) : ms.toFixed(3));
console.log(`Pi extension, per tool_result call (${calls} calls each; extension import ${loadMs.toFixed(1)} ms once)`);
console.log('| result | median ms | p99 ms | max ms |');
console.log('|---|---:|---:|---:|');
for (const [name, event] of below) {
  const t = await perCall(event, calls);
  console.log(`| ${name} | ${fmt(t.median)} | ${fmt(t.p99)} | ${fmt(t.max)} |`);
}
const viewed = await perCall(events[2], 15);
console.log(`| 14 KiB log, exit 3 (viewed: one \`tokenless hook post_tool\`; 15 calls) | ${viewed.median.toFixed(1)} | ${viewed.p99.toFixed(1)} | ${viewed.max.toFixed(1)} |`);
rmSync(work, { recursive: true, force: true });
