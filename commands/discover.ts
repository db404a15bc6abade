/**
 * `syt discover [PATH…]`: over a person's own Claude Code sessions, the commands whose outputs cost the most tokens
 * and got no view, through the session replay (the hooks `syt init` installs, in process and offline, in the
 * default permission mode unless `--mode bypass`), and with `--write KEY` a starting filter file for one of them,
 * its recorded outputs as inline tests.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as z from 'zod/mini';
import { outputsOf, rankCommands, type CommandCost } from '../src/analyze/discover.ts';
import { draftFilterFile } from '../src/filters/file/draft.ts';
import { openReplaySandbox } from '../src/replay/sandbox.ts';
import { replaySession, type SessionReplay } from '../src/replay/session-replay.ts';
import { readRecordedSession, type RecordedSession } from '../src/replay/transcript.ts';
import { tokenCounter } from '../src/tokens/count.ts';
import { CliError } from './shared/errors.ts';
import { parseOptions } from './shared/options.ts';
import { digits, parseSince, toInt } from './shared/stats-common.ts';
import { selectTranscripts } from './shared/history-files.ts';
import { terminalWidth } from './shared/terminal.ts';
import { fitTable, tableLine, type FitColumn } from './ui/fit.ts';

const COMMAND = 'discover';
/** Transcripts larger than this are skipped and counted, so one huge log cannot exhaust memory. */
const MAX_TRANSCRIPT_BYTES = 64 << 20;

const Options = z.object({
  claudeDir: z.optional(z.string()),
  project: z.optional(z.string().check(z.minLength(1))),
  since: z.optional(z.string()),
  maxSessions: z.optional(digits),
  top: z.optional(digits),
  mode: z.optional(z.enum(['default', 'bypass'])),
  write: z.optional(z.string().check(z.minLength(1))),
  out: z.optional(z.string().check(z.minLength(1))),
  json: z.optional(z.boolean()),
});

const COLUMNS: readonly FitColumn[] = [
  { header: 'command', align: 'left', max: 36, min: 14 },
  { header: 'calls', align: 'right' },
  { header: 'failed', align: 'right', optional: 1 },
  { header: 'tokens', align: 'right' },
  { header: 'saved now', align: 'right' },
  { header: 'no view', align: 'right' },
  { header: 'a draft saves', align: 'right' },
];

export async function discoverCommand(paths: readonly string[], raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, COMMAND);
  const selection = selectTranscripts(
    { paths, claudeDir: options.claudeDir, project: options.project, since: parseSince(options.since, Date.now(), COMMAND), maxSessions: toInt(options.maxSessions, 200) },
    COMMAND,
  );
  const sessions: RecordedSession[] = [];
  let skipped = 0;
  for (const found of selection.taken) {
    try {
      const stat = statSync(found.path);
      if (!stat.isFile() || stat.size > MAX_TRANSCRIPT_BYTES) {
        skipped++;
        continue;
      }
      sessions.push(readRecordedSession(readFileSync(found.path, 'utf8'), found.path));
    } catch {
      skipped++;
    }
  }
  if (sessions.length === 0) throw new CliError(`syt ${COMMAND}: no readable Claude Code transcript in ${selection.source.join(', ')}`);
  const replays = await replayAll(sessions, options.mode ?? 'default');
  const ranked = rankCommands(sessions, replays, await tokenCounter());
  if (options.write !== undefined) {
    writeDraft(options.write, options.out, sessions, replays);
    return;
  }
  const top = ranked.slice(0, toInt(options.top, 15));
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ sessions: sessions.length, skipped, mode: options.mode ?? 'default', commands: top })}\n`);
    return;
  }
  process.stdout.write(renderTable(top, sessions.length, skipped));
}

async function replayAll(sessions: readonly RecordedSession[], mode: 'default' | 'bypass'): Promise<SessionReplay[]> {
  const countTokens = await tokenCounter();
  const sandbox = openReplaySandbox();
  try {
    const replays: SessionReplay[] = [];
    for (const session of sessions) replays.push(await replaySession(session, sandbox.contextFor(session, mode, countTokens)));
    return replays;
  } finally {
    sandbox.close();
  }
}

function renderTable(rows: readonly CommandCost[], sessions: number, skipped: number): string {
  const width = terminalWidth();
  const cells = rows.map((row) => [row.key, String(row.calls), String(row.failed), String(row.before), String(row.before - row.after), String(row.unviewedTokens), String(row.draftSaves)]);
  const fitted = fitTable(COLUMNS, cells, width);
  const lines = [
    `${sessions} session(s)${skipped > 0 ? ` (${skipped} skipped: unreadable or over 64 MB)` : ''}, Bash calls that ran, o200k tokens;`,
    '"no view": tokens of the calls today\'s filters left whole; "a draft saves": what',
    'a file drafted from those no built-in filter owns (1 KiB or more) saves on them',
    '',
    tableLine(COLUMNS.map((column) => column.header), COLUMNS, fitted, width),
    ...cells.map((row) => tableLine(row, COLUMNS, fitted, width)),
    '',
    nextStep(rows),
  ];
  return `${lines.join('\n')}\n`;
}

function nextStep(rows: readonly CommandCost[]): string {
  const first = rows[0];
  if (first === undefined) return 'no Bash calls in these sessions';
  const best = rows.find((row) => row.draftSaves > 0);
  if (best !== undefined) return `draft a filter for one: syt discover --write ${JSON.stringify(best.key)}`;
  const start = rows.find((row) => row.draftable > 0) ?? first;
  return `no drafted filter would shorten these (built-ins own them, or nothing repeats);\nto start one by hand anyway: syt discover --write ${JSON.stringify(start.key)}`;
}

function writeDraft(key: string, out: string | undefined, sessions: readonly RecordedSession[], replays: readonly SessionReplay[]): void {
  const outputs = outputsOf(key, sessions, replays);
  if (outputs.length === 0) throw new CliError(`syt ${COMMAND}: no recorded output of "${key}" in these sessions (the keys are the first column of \`syt discover\`)`);
  const target = resolve(out ?? join('.tokenless', 'filters', `${key.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')}.toml`));
  if (existsSync(target)) throw new CliError(`syt ${COMMAND}: ${target} exists; nothing was written (choose another with --out)`);
  const text = draftFilterFile(key, outputs);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text, { flag: 'wx' });
  process.stdout.write(`wrote ${target} from ${outputs.length} recorded output(s)\nnext: edit its stages, then tokenless filters test ${target}\n      in a project folder it runs once you trust it: tokenless filters trust ${target}\n`);
}
