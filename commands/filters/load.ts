/**
 * What every `tokenless filters` command starts from: both filter folders for this directory, every file in them
 * (trusted or not: listing and testing run nothing on the agent's behalf), and one file given on the command line.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { FILTER_FILE_MAX_BYTES, type FilterFileProblem, type FilterSet } from '../../src/filters/file/files.ts';
import { loadFilterSet } from '../../src/filters/file/load.ts';
import { filterDirs, type FilterDirs } from '../../src/filters/file/locate.ts';
import { parseFilterFile, type ParsedFilterFile } from '../../src/filters/file/parse.ts';
import { CliError } from '../errors.ts';

export interface Loaded {
  readonly dirs: FilterDirs;
  readonly dataDir: string;
  readonly set: FilterSet;
}

export function loadHere(): Loaded {
  const dirs = filterDirs(process.env, process.cwd());
  const { dataDir } = loadConfig();
  return { dirs, dataDir, set: loadFilterSet(dirs, dataDir) };
}

/** One filter file named on the command line, parsed as a project file (a file passed by hand is tested, not run). */
export function loadOne(path: string, command: string): ParsedFilterFile & { readonly path: string } {
  const absolute = resolve(path);
  let text: string;
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) throw new CliError(`tokenless filters ${command}: ${path} is not a regular file`);
    if (stat.size > FILTER_FILE_MAX_BYTES) throw new CliError(`tokenless filters ${command}: ${path} is larger than ${FILTER_FILE_MAX_BYTES / 1024} KB`);
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`tokenless filters ${command}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return { ...parseFilterFile(text, absolute, 'project'), path: absolute };
}

/** `path:line: message`, the form editors jump to. */
export function problemLine(problem: FilterFileProblem): string {
  return `${problem.path}${problem.line === null ? '' : `:${problem.line}`}: ${problem.message}`;
}
