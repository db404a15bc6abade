import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { pinTrust } from '../../src/filters/file/trust.ts';
import { CliError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { loadHere } from './load.ts';

const Options = z.object({ all: z.optional(z.boolean()) });

/**
 * `tokenless filters trust [FILE…] [--all]`: lets the project's filter files run, each pinned to its SHA-256 as it
 * is now (a later change makes it inert again). Without files it lists what waits for trust and exits 1 when any
 * does, so a person reads a file before trusting it.
 */
export function trustCommand(files: readonly string[], raw: unknown): void {
  const options = parseOptions(Options, raw, 'filters trust');
  const { set, dataDir } = loadHere();
  const project = set.files.filter((file) => file.scope === 'project');
  const waiting = project.filter((file) => !file.trusted);
  if (files.length === 0 && options.all !== true) {
    if (waiting.length === 0) {
      process.stdout.write(project.length === 0 ? 'no project filter files here (.tokenless/filters/)\n' : 'every project filter file is trusted\n');
      return;
    }
    process.stdout.write(`${waiting.map((file) => `untrusted  ${file.path}  sha256 ${file.hash.slice(0, 12)}`).join('\n')}\nread them, then: tokenless filters trust FILE (or --all)\n`);
    process.exitCode = 1;
    return;
  }
  const chosen = options.all === true ? waiting : files.map((file) => {
    const found = project.find((entry) => entry.path === resolve(file));
    if (found === undefined) throw new CliError(`tokenless filters trust: ${file} is not a filter file in this project's .tokenless/filters/`);
    return found;
  });
  for (const file of chosen) {
    pinTrust(dataDir, file.path, file.hash);
    process.stdout.write(`trusted  ${file.path}  sha256 ${file.hash.slice(0, 12)}\n`);
  }
  if (chosen.length === 0) process.stdout.write('nothing to trust\n');
}
