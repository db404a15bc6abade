import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type CorpusCase, FIXTURES_DIR, loadCaseDir } from './fixtures.ts';

/** Outputs captured from projects the filters were not developed on (see git-test-build/SOURCE.md). */
export const UNSEEN_DIR = join(FIXTURES_DIR, 'git-test-build', 'cases');

export function loadUnseenCase(id: string): CorpusCase {
  return loadCaseDir(join(UNSEEN_DIR, id), id);
}

export function loadUnseen(): CorpusCase[] {
  return readdirSync(UNSEEN_DIR).sort().map(loadUnseenCase);
}
