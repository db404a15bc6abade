import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();

function project(): { dir: string; env: Record<string, string> } {
  const dir = tempDir();
  cpSync(join(FIXTURES_DIR, 'projects', 'budget-demo'), dir, { recursive: true });
  return { dir, env: { TOKENLESS_DATA_DIR: tempDir() } };
}

describe('syt compact', () => {
  it('--dry-run shows the diff and writes nothing', () => {
    const { dir, env } = project();
    const before = readFileSync(join(dir, 'progress.md'));
    const result = runCli(['compact', 'progress.md', '--dry-run'], { cwd: dir, env });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('--- progress.md');
    expect(result.stdout).toMatch(/^\+- \[x\] syt: 4 finished items folded/mu);
    // Each fold says why it is finished; the prose under "## Done in sprint 1" is no checked item and stays.
    expect(result.stdout).toContain('folded: 4 checked items ([x]), none open @@');
    expect(result.stdout).not.toContain('-The first sprint delivered');
    expect(result.stdout).toContain('(dry run, nothing written)');
    expect(readFileSync(join(dir, 'progress.md')).equals(before)).toBe(true);
  });

  it('folds, then --restore puts the file back byte-exact', () => {
    const { dir, env } = project();
    const before = readFileSync(join(dir, 'progress.md'));
    const compacted = runCli(['compact', '--json'], { cwd: dir, env });
    expect(compacted.status).toBe(0);
    const doc = JSON.parse(compacted.stdout) as { files: { file: string; status: string; before_tokens: number; after_tokens: number; stash_keys: string[] }[] };
    expect(doc.files).toHaveLength(1);
    expect(doc.files[0]).toMatchObject({ file: 'progress.md', status: 'compacted' });
    expect(doc.files[0]!.after_tokens).toBeLessThan(doc.files[0]!.before_tokens);
    const folded = readFileSync(join(dir, 'progress.md'), 'utf8');
    expect(folded).toContain('- [ ] Wire the session hooks into syt init');
    expect(folded).toMatch(/<<tokenless:[0-9]{29}>>/);
    const restored = runCli(['compact', '--restore', 'progress.md', '--json'], { cwd: dir, env });
    expect(restored.status).toBe(0);
    expect(JSON.parse(restored.stdout)).toEqual({ file: 'progress.md', restored: 1, missing: [] });
    expect(readFileSync(join(dir, 'progress.md')).equals(before)).toBe(true);
  });

  it('never touches code files', () => {
    const { dir, env } = project();
    const before = readFileSync(join(dir, 'index.ts'));
    const result = runCli(['compact', 'index.ts', '--json'], { cwd: dir, env });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ files: [{ file: 'index.ts', status: 'skipped', reason: expect.stringMatching(/never compacted/) as unknown }] });
    expect(readFileSync(join(dir, 'index.ts')).equals(before)).toBe(true);
  });

  it('--auto does nothing below the first rung and folds once the transcript says 85%', () => {
    const { dir, env } = project();
    const quiet = runCli(['compact', '--auto', '--json'], { cwd: dir, env });
    expect(JSON.parse(quiet.stdout)).toMatchObject({ auto: { rung: null }, files: [{ status: 'unchanged' }] });
    const transcript = join(dir, 't.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', requestId: 'r', message: { id: 'm', usage: { input_tokens: 1, cache_read_input_tokens: 136_000, cache_creation_input_tokens: 0 } } })}\n`);
    const busy = runCli(['compact', '--auto', '--transcript', transcript, '--json'], { cwd: dir, env });
    expect(busy.status).toBe(0);
    expect(JSON.parse(busy.stdout)).toMatchObject({ auto: { rung: 'drop_stale_ephemeral' }, files: [{ file: 'progress.md', status: 'compacted' }] });
    // Below 90% only finished items fold; the prose section stays at every rung.
    expect(readFileSync(join(dir, 'progress.md'), 'utf8')).toContain('The first sprint delivered');
  });

  it('--restore reports originals missing from the stash with exit 1', () => {
    const { dir, env } = project();
    runCli(['compact'], { cwd: dir, env });
    const other = runCli(['compact', '--restore', 'progress.md'], { cwd: dir, env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(other.status).toBe(1);
    expect(other.stdout).toMatch(/1 not in the stash/);
  });
});
