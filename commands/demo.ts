import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod/mini';
import demoData from '../assets/demo/cases.json' with { type: 'json' };
import { loadConfig } from '../src/config/config.ts';
import { DemoCases, runDemoCase, type DemoResult } from '../src/demo/demo.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { tokenCounter } from '../src/tokens/count.ts';
import { CliError } from './shared/errors.ts';
import { parseOptions } from './shared/options.ts';

const Options = z.object({ json: z.optional(z.boolean()) });

/** Runs the bundled real cases in a throw-away data dir, so the demo never touches the user's stash or stats. */
export async function demoCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'demo');
  const { cases } = DemoCases.parse(demoData);
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenless-demo-'));
  const runtime = new Runtime({ ...loadConfig({ TOKENLESS_DATA_DIR: dataDir }), dryRun: false, disabled: false });
  let results: DemoResult[];
  try {
    results = cases.map((demo) => runDemoCase(runtime, demo));
  } finally {
    runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
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
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ token_method: 'o200k', cases: rows })}\n`);
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
  const sample = rows.find((row) => row.id === 'git-status-express');
  if (sample !== undefined) process.stdout.write(`\nWhat the agent sees for \`${sample.label}\`:\n${sample.after}\n`);
}
