import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const CORPUS_CASES_DIR = join(FIXTURES_DIR, 'corpus-commands', 'cases');

/** One real command case of the corpus (see test/fixtures/README.md for sources). */
export interface CorpusCase {
  readonly id: string;
  readonly category: string;
  readonly command: string;
  readonly stdout: string;
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
  readonly exitCode: number;
  readonly dir: string;
}

/** A case directory in the corpus layout (cmd.txt, stdout.txt, stderr.txt, exit_code, meta.json; any may be absent). */
export function loadCaseDir(dir: string, id: string): CorpusCase {
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

export function loadCorpusCase(id: string): CorpusCase {
  return loadCaseDir(join(CORPUS_CASES_DIR, id), id);
}

export function corpusCaseIds(): string[] {
  return readdirSync(CORPUS_CASES_DIR).sort();
}

export function loadCorpus(): CorpusCase[] {
  return corpusCaseIds().map(loadCorpusCase);
}
