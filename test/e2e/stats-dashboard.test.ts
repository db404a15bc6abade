/**
 * The dashboard renders offline in headless Chromium (Debian's package; `bash scripts/ci/setup-chromium.sh` installs
 * it): we assert on the text Chromium laid out and that the screenshot is a real page, not a blank one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { seedStats } from '../unit/stats/seed.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const tempDir = useTempDirs();

function dashboard(): { html: string; path: string; dir: string } {
  const dir = tempDir();
  const data = join(dir, 'data');
  seedStats(data);
  const log = join(dir, 'session.jsonl');
  cpSync(join(ROOT, 'test', 'fixtures', 'transcripts', 'claude-code', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), log);
  const path = join(dir, 'dashboard.html');
  const result = runCli(['dashboard', '--out', path, '--log', log], { env: { TOKENLESS_DATA_DIR: data } });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return { html: readFileSync(path, 'utf8'), path, dir };
}

describe('syt dashboard', () => {
  it('writes one self-contained page: no script, no external resource, formulas shown', () => {
    const { html } = dashboard();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).toContain('cache_read x (input - cache_read price)');
    expect(html).toContain('first billing price + later requests x cache_read price');
    expect(html).toContain('tokens saved by our operations');
  });

  it.skipIf(!hasChromium)('renders in headless Chromium with the figures on the page', () => {
    const { path, dir } = dashboard();
    const shot = join(dir, 'shot.png');
    const profile = join(dir, 'profile');
    mkdirSync(profile);
    const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`, '--window-size=1200,1600'];
    const dom = spawnSync(CHROMIUM, [...args, '--dump-dom', `file://${path}`], { encoding: 'utf8', timeout: 60_000 });
    expect(dom.status).toBe(0);
    const text = dom.stdout;
    expect(text).toContain('save-your-tokens: savings dashboard');
    expect(text).toContain('dollars saved by the provider cache');
    expect(text).toContain('fe5e1c67-53e7-4862-81ae-d0e013e3270b');
    expect(text).toContain('claude-sonnet-4-20250514');
    expect(text).not.toContain('<script');
    const screenshot = spawnSync(CHROMIUM, [...args, `--screenshot=${shot}`, `file://${path}`], { encoding: 'utf8', timeout: 60_000 });
    expect(screenshot.status).toBe(0);
    // A blank 1200x1600 PNG compresses to a few KB; a page of tables and text is far larger.
    expect(statSync(shot).size).toBeGreaterThan(30_000);
    writeFileSync(join(dir, 'ok'), '');
  });

  it.runIf(!hasChromium)('skips the Chromium render: /usr/bin/chromium is not installed (run scripts/ci/setup-chromium.sh)', () => {
    console.warn('stats-dashboard: /usr/bin/chromium not installed; headless render skipped. Install with: bash scripts/ci/setup-chromium.sh');
  });
});

describe('damaged stats.db', () => {
  it.each([
    ['garbage', (file: string) => writeFileSync(file, 'garbage '.repeat(1000))],
    ['truncated', (file: string) => writeFileSync(file, readFileSync(file).subarray(0, 1000))],
  ])('%s: stats status exits 1, stats summary fails cleanly, lifecycles still answer', (_name, damage) => {
    const data = tempDir();
    seedStats(data);
    damage(join(data, 'stats.db'));
    const env = { TOKENLESS_DATA_DIR: data };
    const status = runCli(['stats', 'status', '--json'], { env });
    expect(status.status).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({ health: 'damaged' });
    const summary = runCli(['stats', 'summary'], { env });
    expect(summary.status).toBe(1);
    expect(summary.stderr).toContain('stats status');
    const input = JSON.stringify({
      protocol_version: 2,
      operation: 'post_tool',
      attribution: { agent_id: 'a', session_id: 's', tool_use_id: 't' },
      input: { tool_name: 'Bash', status: 'success', origin: 'command_output', content: `${JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `item ${i}` })) }, null, 2)}\n` },
    });
    const hook = runCli(['hook', 'post_tool'], { env, input });
    expect(hook.status).toBe(0);
    expect(JSON.parse(hook.stdout)).toMatchObject({ result: { disposition: 'applied' } });
  });
});
