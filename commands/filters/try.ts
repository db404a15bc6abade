import { spawnSync } from 'node:child_process';
import * as z from 'zod/mini';
import { matchesArgv, matchesContent, type FileFilter } from '../../src/filters/file/filter.ts';
import { fileFilterVerdict } from '../../src/runtime/file-filter-view.ts';
import type { CommandOutput } from '../../src/filters/types.ts';
import { countTokens } from '../../src/tokens/count.ts';
import { CliError, usageError } from '../shared/errors.ts';
import { parseOptions } from '../shared/options.ts';
import { loadOne, problemLine } from './load.ts';

const Options = z.object({ json: z.optional(z.boolean()) });

/** Output a tried command may print; more is cut off by the spawn and said so. */
const TRY_MAX_BYTES = 64 * 1024 * 1024;

/**
 * `tokenless filters try FILE -- CMD…`: runs the command (as an argv, no shell), applies the file's filter to what it
 * printed and shows the view with raw and view token counts (o200k). Exits with the command's exit code, so a
 * failing command's `on_failure` stages are what is tried.
 */
export async function tryCommand(file: string, words: readonly string[], raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'filters try');
  if (words.length === 0) throw usageError('tokenless filters try: give the command after --, e.g. tokenless filters try my.toml -- make test');
  const parsed = loadOne(file, 'try');
  if (parsed.problems.length > 0) throw new CliError(`tokenless filters try: the file has problems:\n${parsed.problems.map(problemLine).join('\n')}`);
  const ran = spawnSync(words[0] ?? '', words.slice(1), { stdio: ['inherit', 'pipe', 'pipe'], maxBuffer: TRY_MAX_BYTES });
  if (ran.error !== undefined && (ran.error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`tokenless filters try: ${words[0]}: command not found`);
  const output: CommandOutput = { argv: words, stdout: ran.stdout.toString('utf8'), stderr: ran.stderr.toString('utf8'), exitCode: ran.status ?? 128 };
  const { filter, why } = choose(parsed.filters, output);
  if (filter === null) throw new CliError(`tokenless filters try: ${file} defines no filter`);
  // The verdict is the hook's: the view with its retrieval line, shown only if the one arbitration adopts it.
  const verdict = fileFilterVerdict(filter, output);
  const rawText = output.stdout + output.stderr;
  const viewText = verdict.kind === 'shown' ? verdict.candidate.output : rawText;
  const [rawTokens, viewTokens] = await Promise.all([countTokens(rawText), countTokens(viewText)]);
  const summary = {
    filter: filter.name,
    chosen_because: why,
    exit_code: output.exitCode,
    raw_tokens: rawTokens,
    view_tokens: viewTokens,
    shown: verdict.kind === 'shown',
    view: viewText,
  };
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } else {
    const saved = rawTokens === 0 ? 0 : Math.round((100 * (rawTokens - viewTokens)) / rawTokens);
    const said =
      verdict.kind === 'out-of-budget'
        ? 'the stages ran out of time: the raw output would be shown'
        : verdict.kind === 'shown'
          ? `saves ${saved}%`
          : 'not smaller by enough (10% and 8 tokens, retrieval line counted): the raw output would be shown';
    process.stdout.write(`${viewText}${viewText.endsWith('\n') || viewText === '' ? '' : '\n'}`);
    process.stdout.write(`--- ${filter.name} (${why}), exit ${output.exitCode}: raw ${rawTokens} tokens, view ${viewTokens} tokens, ${said}\n`);
  }
  process.exitCode = output.exitCode;
}

function choose(filters: readonly FileFilter[], output: CommandOutput): { filter: FileFilter | null; why: string } {
  const byCommand = filters.find((filter) => matchesArgv(filter, output.argv));
  if (byCommand !== undefined) return { filter: byCommand, why: 'its command pattern matches' };
  const byContent = filters.find((filter) => matchesContent(filter, output));
  if (byContent !== undefined) return { filter: byContent, why: 'its content pattern matches' };
  return { filter: filters[0] ?? null, why: 'no pattern matches this command; tried anyway' };
}
