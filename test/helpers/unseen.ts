import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CorpusCase, FIXTURES_DIR } from './fixtures.ts';

/** Outputs captured from projects the filters were not developed on (see git-test-build/SOURCE.md). */
export const UNSEEN_DIR = join(FIXTURES_DIR, 'git-test-build', 'cases');

export function loadUnseenCase(id: string): CorpusCase {
  const dir = join(UNSEEN_DIR, id);
  const read = (name: string): Buffer => (existsSync(join(dir, name)) ? readFileSync(join(dir, name)) : Buffer.alloc(0));
  const meta = JSON.parse(read('meta.json').toString('utf8') || '{}') as { category?: string };
  const stdoutBytes = read('stdout.txt');
  return {
    id,
    category: meta.category ?? id.split('-')[0] ?? 'unknown',
    command: read('cmd.txt').toString('utf8').trim(),
    stdout: stdoutBytes.toString('utf8'),
    stdoutBytes,
    stderr: read('stderr.txt').toString('utf8'),
    exitCode: Number.parseInt(read('exit_code').toString('utf8').trim() || '0', 10),
    dir,
  };
}

export function loadUnseen(): CorpusCase[] {
  return readdirSync(UNSEEN_DIR).sort().map(loadUnseenCase);
}
