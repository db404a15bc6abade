/** `syt skills` from the built CLI: what it lists, its exit status, and a table that fits 80 columns. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

function project(): { dir: string; env: Record<string, string> } {
  const dir = tempDir();
  const home = tempDir();
  const skill = (root: string, name: string, text: string): void => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'SKILL.md'), text);
  };
  skill(join(dir, '.claude', 'skills'), 'deploy', `---\nname: deploy\ndescription: Deploy the app to staging\n---\n${'Run the deploy script, then check the health endpoint.\n'.repeat(40)}`);
  skill(join(home, '.claude', 'skills'), 'review-every-change-with-a-long-name', '---\ndescription: Review a diff\n---\nCheck it.\n');
  writeFileSync(join(dir, 'CLAUDE.md'), '# Rules\nRun the tests first.\n');
  return { dir, env: { HOME: home, TOKENLESS_DATA_DIR: join(home, 'data'), COLUMNS: '80' } };
}

describe('syt skills', () => {
  it('lists user and project skills with real token counts and their budget layer (exit 0)', () => {
    const { dir, env } = project();
    const result = runCli(['skills', dir, '--json'], { env });
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { token_method: string; skills: { name: string; source: string; listed_tokens: number; body_tokens: number; layer: string; if_loaded: string }[] };
    expect(report.token_method).toBe('o200k');
    expect(report.skills.map((s) => [s.name, s.source, s.layer, s.if_loaded])).toEqual([
      ['review-every-change-with-a-long-name', 'user', 'persistent', 'within'],
      ['deploy', 'project', 'persistent', 'within'],
    ]);
    // The listing line `- deploy: Deploy the app to staging` and the body with its base-directory line, counted.
    expect(report.skills[1]?.listed_tokens).toBeGreaterThan(5);
    expect(report.skills[1]?.body_tokens).toBeGreaterThan(400);
  });

  it('prints a table that fits 80 columns, and says so plainly when there are no skills', () => {
    const { dir, env } = project();
    const table = runCli(['skills'], { env, cwd: dir });
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^skill\s+from\s+every req\s+loaded\s+layer\s+if loaded$/);
    expect(Math.max(...table.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    const none = runCli(['skills', tempDir()], { env: { ...env, HOME: tempDir() } });
    expect(none.status).toBe(0);
    expect(none.stdout).toMatch(/^No skills found/);
  });
});
