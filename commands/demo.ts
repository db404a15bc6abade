import { basename, join } from 'node:path';
import * as z from 'zod/mini';
import demoData from '../assets/demo/cases.json' with { type: 'json' };
import { loadConfig } from '../src/config/config.ts';
import { DemoCases, runDemoCase, type DemoResult } from '../src/demo/demo.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { markerId } from '../src/store/marker.ts';
import { shellQuote } from '../src/shell/quote.ts';
import { selfCommand } from '../src/shell/wrapper-command.ts';
import { tokenCounter } from '../src/tokens/count.ts';
import { CliError } from './shared/errors.ts';
import { parseOptions } from './shared/options.ts';
import { terminalWidth } from './shared/terminal.ts';
import { wrapText } from './ui/wrap.ts';

const Options = z.object({ json: z.optional(z.boolean()) });

/** The demo's session: its markers were shown there, so a retrieve names it. */
const DEMO_SESSION = 'demo';
/** The demo's stash never expires on its own (a century): it stays until the person deletes the directory. */
const DEMO_TTL_MS = 100 * 365 * 86_400_000;

/**
 * Runs the bundled real cases in a data dir of their own (`<data dir>/demo`), so the demo never touches the user's
 * stash or stats, and keeps it: the retrieval command the demo prints works as printed, until the person deletes it.
 */
export async function demoCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'demo');
  const { cases } = DemoCases.parse(demoData);
  const user = loadConfig();
  const dataDir = join(user.dataDir, 'demo');
  const config = loadConfig({ TOKENLESS_DATA_DIR: dataDir });
  const runtime = new Runtime({ ...config, stashLimits: { ...config.stashLimits, ttlMs: DEMO_TTL_MS }, dryRun: false, disabled: false });
  let results: DemoResult[];
  try {
    results = cases.map((demo) => runDemoCase(runtime, demo));
  } finally {
    runtime.close();
  }
  const count = await tokenCounter();
  const rows = results.map((result) => ({
    id: result.id,
    label: result.command,
    source: result.source,
    operation: result.operation,
    beforeTokens: count(result.before),
    afterTokens: count(result.after),
    recoverability: result.operation === null ? 'unchanged' : result.recoverability,
    retrievedExactly: result.retrievedExactly,
    after: result.after,
  }));
  if (rows.some((row) => !row.retrievedExactly)) throw new CliError('tokenless demo: a stashed original did not read back byte-exact');
  const sample = rows.find((row) => row.id === 'git-status-express');
  const key = results.find((result) => result.id === 'git-status-express')?.stashKeys[0];
  const retrieveWords = key === undefined ? null : [`TOKENLESS_DATA_DIR=${shellQuote(dataDir)}`, ...invokedAs(), `retrieve ${markerId(key)}`, `--session ${DEMO_SESSION}`];
  const retrieve = retrieveWords?.join(' ') ?? null;
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ token_method: 'o200k', data_dir: dataDir, session: DEMO_SESSION, retrieve, cases: rows })}\n`);
    return;
  }
  const { renderSavingsTable } = await import('./ui/SavingsTable.tsx');
  process.stdout.write(
    renderSavingsTable({
      title: 'save-your-tokens demo: real tool outputs (shared corpus), before and after',
      rows,
      tokenNote: 'Tokens counted with the o200k tokenizer. Every shortened output is retrievable byte-exact: the demo read each stashed original back and compared it.',
    }),
  );
  if (sample !== undefined) process.stdout.write(`\nWhat the agent sees for \`${sample.label}\`:\n${sample.after}\n`);
  if (retrieveWords !== null) {
    const width = terminalWidth();
    process.stdout.write(
      `${wrapText("The original, byte for byte, from the demo's own stash and session (in an agent's shell the marker line alone works: the session is its own):", width)}\n${shellLines(retrieveWords, width)}\n` +
        `${wrapText('The demo keeps its stash (it never expires) until you delete it:', width)}\n${shellLines(['rm', '-rf', shellQuote(dataDir)], width)}\n`,
    );
  }
}

/** Our program as the person can type it again: the installed name, else the node and script that ran it. */
function invokedAs(): string[] {
  const name = basename(process.argv[1] ?? '');
  return name === 'syt' || name === 'tokenless' ? [name] : selfCommand().split(' ');
}

/** A command to copy: one line when it fits the width, else one word per line with `\` continuations, so it still
 * runs as pasted and its layout does not depend on how long this machine's paths happen to be. */
function shellLines(words: readonly string[], width: number): string {
  const whole = `  ${words.join(' ')}`;
  if (whole.length <= width) return whole;
  return words.map((word, i) => `${i === 0 ? '  ' : '    '}${word}${i === words.length - 1 ? '' : ' \\'}`).join('\n');
}
