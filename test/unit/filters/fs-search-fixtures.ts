import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';
import { shellWords } from './corpus.ts';

export const FRESH_DIR = join(FIXTURES_DIR, 'fs-search', 'cases');

/** One output captured by test/fixtures/fs-search/capture.sh from a project the filters were not written against. */
export interface FreshCase {
  readonly id: string;
  readonly command: string;
  /** The argv the run wrapper hands the filter: redirections are the shell's, not the program's. */
  readonly argv: string[];
  readonly stdout: string;
  readonly exitCode: number;
}

/** Results of plain `ls -la` calls of a real Claude Code session (macOS, numeric months); see its SOURCE.md. */
export const TRANSCRIPT_DIR = join(FIXTURES_DIR, 'fs-search', 'transcript-cases');

export function loadFreshCase(id: string, root = FRESH_DIR): FreshCase {
  const dir = join(root, id);
  const read = (name: string): string => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
  const command = read('cmd.txt').trim();
  return {
    id,
    command,
    argv: shellWords(command).filter((w) => !/^\d?>&?\d?$|^2>&1$/.test(w)),
    stdout: read('stdout.txt'),
    exitCode: Number.parseInt(read('exit_code').trim() || '0', 10),
  };
}

export function loadFresh(root = FRESH_DIR): FreshCase[] {
  return readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort().map((id) => loadFreshCase(id, root));
}
