import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { viewRun } from '../src/runtime/run-view.ts';
import { staticArgv } from '../src/rewrite/index.ts';
import { CliError, usageError } from './errors.ts';
import { parseOptions } from './options.ts';
import { attributionFromEnv } from './run.ts';

const Options = z.object({
  command: z.string().check(z.minLength(1)),
  exitCode: z.optional(z.string().check(z.regex(/^\d+$/, 'a whole number (0, 1, 2, …)'))),
  stderr: z.optional(z.string()),
  json: z.optional(z.boolean()),
});

/** Offline filtering (CONTRACTS.md): the same view, stash and markers `tokenless run` would produce. */
export async function filterCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'filter');
  const argv = staticArgv(options.command);
  if (argv === null) throw usageError(`tokenless filter: cannot read a single static command from: ${options.command}`);
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
  const runtime = new Runtime(loadConfig(), Date.now, { recordsStats: false });
  try {
    const view = viewRun(runtime, { argv, stdout, stderr, exitCode: Number(options.exitCode ?? '0') }, attributionFromEnv(process.env));
    if (options.json === true) {
      process.stdout.write(
        `${JSON.stringify({
          output: view.stdout.toString('utf8'),
          stderr: view.stderr.toString('utf8'),
          filter: view.filter,
          recoverability: view.recoverability,
          stash_keys: view.stashKeys,
          disposition: view.disposition,
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
