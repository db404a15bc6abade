import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

/** Real files read through the shell, from projects the content policy was not tuned on (test/fixtures/content/SOURCES.md). */
export interface ContentCase {
  readonly id: string;
  readonly kind: string;
  readonly command: string;
  readonly stdout: string;
}

const CASES_DIR = join(FIXTURES_DIR, 'content', 'cases');

export function loadContentCase(id: string): ContentCase {
  const dir = join(CASES_DIR, id);
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { kind: string };
  return { id, kind: meta.kind, command: readFileSync(join(dir, 'cmd.txt'), 'utf8').trim(), stdout: readFileSync(join(dir, 'stdout.txt'), 'utf8') };
}

export function contentCases(kind?: string): ContentCase[] {
  return readdirSync(CASES_DIR)
    .sort()
    .map(loadContentCase)
    .filter((c) => kind === undefined || c.kind === kind);
}
