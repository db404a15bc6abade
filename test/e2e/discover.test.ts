import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/root.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const SESSION = join(ROOT, 'test/fixtures/transcripts/claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');

describe('syt discover', () => {
  it('ranks a real session\'s commands by what a draft would save, then by the tokens left without a view, as a table and as JSON', () => {
    const env = { TOKENLESS_DATA_DIR: tempDir(), COLUMNS: '80' };
    const table = runCli(['discover', SESSION, '--top', '5'], { env });
    expect(table.status).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(lines[4]).toMatch(/^command\s+calls\s+failed\s+tokens\s+saved now\s+no view\s+a draft saves$/);
    expect(table.stdout).toMatch(/^npm run build\s+4\s+4\s+\d+\s+\d+\s+\d+\s+\d+$/m);
    const json = JSON.parse(runCli(['discover', SESSION, '--json'], { env }).stdout) as { sessions: number; commands: { key: string; unviewedTokens: number; draftSaves: number }[] };
    expect(json.sessions).toBe(1);
    const order = json.commands.map((row) => [row.draftSaves, row.unviewedTokens] as const);
    expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]));
  });

  it('--write drafts a filter whose inline tests pass, never overwrites, and names what is wrong', () => {
    const dir = tempDir();
    const env = { TOKENLESS_DATA_DIR: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') };
    const out = join(dir, 'npm-run-build.toml');
    const written = runCli(['discover', SESSION, '--write', 'npm run build', '--out', out], { env, cwd: dir });
    expect(written.stdout).toContain(`wrote ${out} from 4 recorded output(s)`);
    expect(written.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^command = \["npm run build", "npm run build \*"\]$/m);
    const tested = runCli(['filters', 'test', out], { env, cwd: dir });
    expect(tested.stdout).toMatch(/[1-3] passed, 0 failed/);
    expect(tested.status).toBe(0);
    const again = runCli(['discover', SESSION, '--write', 'npm run build', '--out', out], { env, cwd: dir });
    expect(again.stderr).toMatch(/exists; nothing was written/);
    expect(again.status).toBe(1);
    const unknown = runCli(['discover', SESSION, '--write', 'no such command'], { env, cwd: dir });
    expect(unknown.stderr).toMatch(/no recorded output of "no such command"/);
    expect(unknown.status).toBe(1);
    expect(existsSync(join(dir, '.tokenless'))).toBe(false);
    const none = runCli(['discover', '--claude-dir', join(dir, 'empty-claude')], { env, cwd: dir });
    expect(none.status).toBe(1);
  });
});
