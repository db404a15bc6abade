import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type CorpusCase, FIXTURES_DIR, loadCaseDir } from './fixtures.ts';

/** Outputs captured from projects the filters were not developed on (see git-test-build/SOURCE.md). */
export const UNSEEN_DIR = join(FIXTURES_DIR, 'git-test-build', 'cases');

/** docker, podman and kubectl listings taken from those tools' own repositories (see container/SOURCE.md). */
export const CONTAINER_DIR = join(FIXTURES_DIR, 'container', 'cases');

export function loadUnseenCase(id: string, dir = UNSEEN_DIR): CorpusCase {
  return loadCaseDir(join(dir, id), id);
}

export function loadUnseen(dir = UNSEEN_DIR): CorpusCase[] {
  return readdirSync(dir).sort().map((id) => loadUnseenCase(id, dir));
}
