import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { activeFileFilters } from '../src/filters/file/active.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { filterLine } from '../src/runtime/line-view.ts';
import { wrapperCommand } from '../src/shell/wrapper-command.ts';
import { CliError } from './errors.ts';
import { parseOptions } from './options.ts';
import { attributionFromEnv } from './run.ts';

const Options = z.object({
  command: z.string().check(z.minLength(1)),
  exitCode: z.optional(z.string().check(z.regex(/^\d+$/, 'a whole number (0, 1, 2, …)'))),
  stderr: z.optional(z.string()),
  json: z.optional(z.boolean()),
});

/**
 * Offline filtering (CONTRACTS.md): for any command line as the agent typed it (globs, lists, pipelines, redirects),
 * what the line pre_tool rewrites would print given the raw line's captured output: the same view, stash and markers
 * `tokenless run` would produce. A line pre_tool leaves as typed, or whose output cannot be given to one wrapped
 * segment, prints its output unchanged.
 */
export async function filterCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'filter');
  const stdout = await readAll(process.stdin);
  let stderr = Buffer.alloc(0);
  if (options.stderr !== undefined) {
    try {
      stderr = readFileSync(options.stderr);
    } catch (error) {
      throw new CliError(`tokenless filter: cannot read --stderr file: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // A preview: the stash is written (its markers must come back), but nothing is counted as saved.
  const config = loadConfig();
  const runtime = new Runtime(config, Date.now, { recordsStats: false, fileFilters: await activeFileFilters(process.env, process.cwd(), config.dataDir) });
  try {
    const capture = { stdout, stderr, exitCode: Number(options.exitCode ?? '0') };
    const { view, declined } = filterLine(runtime, options.command, capture, attributionFromEnv(process.env), wrapperCommand());
    if (options.json === true) {
      process.stdout.write(
        `${JSON.stringify({
          output: view.stdout.toString('utf8'),
          stderr: view.stderr.toString('utf8'),
          filter: view.filter,
          recoverability: view.recoverability,
          stash_keys: view.stashKeys,
          disposition: view.disposition,
          ...(declined !== null ? { reason: declined } : {}),
        })}\n`,
      );
      return;
    }
    process.stdout.write(view.stdout);
    process.stderr.write(view.stderr);
  } finally {
    runtime.close();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  if ('isTTY' in stream && stream.isTTY === true) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
