/** `syt doctor`'s telemetry line (issue 26) through the built CLI: exit code, 80 columns, the last export from stats.db. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { advanceWatermark } from '../../src/store/stats-export.ts';
import { openStatsDb } from '../../src/store/stats.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

it('says whether telemetry is on and when it last exported, within 80 columns, and a warning alone exits 0', () => {
  const dir = tempDir();
  const config = join(dir, 'claude-config');
  mkdirSync(config);
  writeFileSync(join(config, 'settings.json'), '{}\n');
  const env = { HOME: dir, CLAUDE_CONFIG_DIR: config, TOKENLESS_DATA_DIR: join(dir, 'data'), PATH: '/usr/bin:/bin', COLUMNS: '80', TOKENLESS_CLAUDE_BIN: '/nonexistent/claude' };
  expect(runCli(['init', '--scope', 'user'], { cwd: dir, env }).status).toBe(0);

  const off = runCli(['doctor'], { cwd: dir, env });
  expect(off.status).toBe(0);
  expect(off.stdout).toMatch(/ok {4}telemetry: off \(TOKENLESS_TELEMETRY=1 turns it on; nothing is sent\); last\s+export never/);

  const unset = runCli(['doctor'], { cwd: dir, env: { ...env, TOKENLESS_TELEMETRY: '1' } });
  expect(unset.status).toBe(0);
  expect(unset.stdout).toMatch(/warn {2}telemetry: on, but no OTEL_EXPORTER_OTLP_ENDPOINT/);

  const db = openStatsDb(env.TOKENLESS_DATA_DIR);
  advanceWatermark(db, 'operations', 7, Date.UTC(2026, 11, 3, 23, 59, 1));
  db.close();
  const on = runCli(['doctor'], { cwd: dir, env: { ...env, TOKENLESS_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://u:hunter2@collector.example:4318/v1' } });
  expect(on.status).toBe(0);
  expect(on.stdout.replace(/\n\s+/g, ' ')).toContain('ok    telemetry: on, to http://collector.example:4318 (OTEL_EXPORTER_OTLP_ENDPOINT); last export 2026-12-03T23:59:01Z');
  expect(on.stdout).not.toContain('hunter2');
  for (const line of [...off.stdout.split('\n'), ...on.stdout.split('\n')]) expect(line.length).toBeLessThanOrEqual(80);
});
