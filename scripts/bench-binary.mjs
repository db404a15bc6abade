// Start-up of the single executable against `node -e 0` and the npm-installed CLI, interleaved in one run so the
// ratios survive a noisy machine. Usage:
//   node scripts/bench-binary.mjs [--runs N] [--binary PATH] [--installed PATH-TO-INSTALLED-tokenless]
// Without --installed, the npm CLI is `node dist/cli.cjs` (the same files `npm i -g` installs).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, preToolEnvelope, timeOnce } from './lib/timing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(option('--runs', '15'));
const binary = option('--binary', join(root, 'dist/bin', `tokenless-${process.platform}-${process.arch}`));
const installed = option('--installed', undefined);
const npmCli = installed === undefined ? [process.execPath, join(root, 'dist/cli.cjs')] : [installed];
const npmLabel = installed === undefined ? 'node dist/cli.cjs' : 'npm-installed tokenless';

const home = mkdtempSync(join(tmpdir(), 'tokenless-bench-binary-'));
// A minimal environment: the binary's extraction cache and the data directory live in the temp home.
const env = { HOME: home, PATH: '/usr/bin:/bin', TOKENLESS_DATA_DIR: join(home, 'data') };

const cases = [
  { name: 'node -e 0', argv: [process.execPath, '-e', '0'] },
  { name: 'binary --version', argv: [binary, '--version'] },
  { name: `${npmLabel} --version`, argv: [...npmCli, '--version'] },
  { name: 'binary hook pre_tool (passthrough)', argv: [binary, 'hook', 'pre_tool'], input: preToolEnvelope('cd /tmp') },
  { name: `${npmLabel} hook pre_tool (passthrough)`, argv: [...npmCli, 'hook', 'pre_tool'], input: preToolEnvelope('cd /tmp') },
  { name: 'binary hook pre_tool (rewrite git status)', argv: [binary, 'hook', 'pre_tool'], input: preToolEnvelope('git status') },
  { name: `${npmLabel} hook pre_tool (rewrite git status)`, argv: [...npmCli, 'hook', 'pre_tool'], input: preToolEnvelope('git status') },
  { name: 'binary run -- true (no output: the store is not opened)', argv: [binary, 'run', '--', 'true'] },
  { name: `${npmLabel} run -- true (no output: the store is not opened)`, argv: [...npmCli, 'run', '--', 'true'] },
];

const once = (c) => timeOnce(c.name, c.argv[0], c.argv.slice(1), { input: c.input ?? '', env });

// First run extracts the binary's assets; time it once, apart from the steady state.
const firstStart = process.hrtime.bigint();
once(cases[1]);
const firstMs = Number(process.hrtime.bigint() - firstStart) / 1e6;
const times = new Map(cases.map((c) => [c.name, []]));
for (const c of cases) once(c);
for (let i = 0; i < runs; i += 1) for (const c of cases) times.get(c.name).push(once(c));
rmSync(home, { recursive: true, force: true });

const base = median(times.get('node -e 0'));
console.log(
  [
    `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
    `Command: \`node scripts/bench-binary.mjs --runs ${runs}${installed === undefined ? '' : ' --installed …'}\` (interleaved, one warm-up each)`,
    '',
    '| what | median ms | ratio to `node -e 0` |',
    '| --- | ---: | ---: |',
    ...cases.map((c) => `| ${c.name} | ${median(times.get(c.name)).toFixed(1)} | ${(median(times.get(c.name)) / base).toFixed(2)}x |`),
    '',
    `First run of the binary (extracts its assets): ${firstMs.toFixed(1)} ms.`,
  ].join('\n'),
);
