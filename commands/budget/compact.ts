import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import * as z from 'zod/mini';
import { scanProject } from '../../src/analyze/project-scan.ts';
import { computeUsage, createBudget, layerBudgets } from '../../src/budget/engine.ts';
import { ladderRung } from '../../src/budget/ladder.ts';
import { loadBudgetSettings, pickProfile } from '../../src/budget/settings.ts';
import type { CompactAction, Layer } from '../../src/budget/types.ts';
import { planCompaction, restoreText, type CompactOptions } from '../../src/compact/fold.ts';
import { foldDiff, isContextFile, ladderCompaction } from '../../src/compact/policy.ts';
import { loadConfig } from '../../src/config/config.ts';
import { readBoundedText } from '../../src/io/bounded-read.ts';
import { whyNotWritable, writeInPlace } from '../../src/io/write-in-place.ts';
import { StashStore } from '../../src/store/stash.ts';
import { tokenCounter } from '../../src/tokens/count.ts';
import { readClaudeCodeTranscript } from '../../src/transcript/claude-code-turns.ts';
import { CliError, usageError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { int } from '../ui/format.ts';

const Options = z.object({
  auto: z.optional(z.boolean()),
  dryRun: z.optional(z.boolean()),
  restore: z.optional(z.string()),
  transcript: z.optional(z.string()),
  profile: z.optional(z.string()),
  json: z.optional(z.boolean()),
});

/** Far over any progress or todo note; a bigger "note" is not one to fold. */
const MAX_CONTEXT_FILE_BYTES = 16 << 20;

interface FileResult {
  readonly file: string;
  /** refused: a file compact will not write (a symbolic link, not a regular file); the command then exits 1. */
  readonly status: 'compacted' | 'dry_run' | 'unchanged' | 'skipped' | 'refused';
  readonly folds: number;
  readonly before_tokens: number;
  readonly after_tokens: number;
  readonly stash_keys: readonly string[];
  readonly reason?: string;
  readonly diff?: string;
}

/** `syt compact [FILES…] [--auto] [--dry-run]` and `syt compact --restore FILE`. */
export async function compactCommand(files: readonly string[], raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'compact');
  const config = loadConfig();
  if (options.restore !== undefined) {
    restoreCommand(options.restore, config.dataDir, config.stashLimits, options.json === true);
    return;
  }
  const settings = loadBudgetSettings(config.dataDir);
  const profile = pickProfile(settings, options.profile);
  if (profile === null) throw usageError(`syt compact: unknown profile ${options.profile ?? settings.profileName}`);
  const count = await tokenCounter();
  const found = scanProject(process.cwd());
  const layerOf = new Map<string, Layer>(found.map((item) => [resolve(item.path), item.layer]));
  const missing = files.filter((f) => !existsSync(f));
  // Checked before anything is folded, so a typo never leaves half the files compacted.
  if (missing.length > 0) throw new CliError(`syt compact: no such file: ${missing.join(', ')} (nothing was changed)`);
  const targets = files.length > 0 ? files.map((f) => resolve(f)) : found.filter((i) => i.layer === 'session' && i.kind !== 'mcp').map((i) => resolve(i.path));
  let rung: CompactAction | null = null;
  let utilization: number | null = null;
  if (options.auto === true) {
    const blocks = found.filter((i) => i.loaded === 'always' && i.kind !== 'mcp').map((i, n) => ({ id: `${i.path}#${n}`, layer: i.layer, tokens: count(i.text), source: i.path, lastReferencedTurn: 0 }));
    const fromTranscript = options.transcript === undefined ? null : lastContext(options.transcript);
    const { available } = layerBudgets(settings.contextWindow, profile);
    utilization = fromTranscript !== null ? fromTranscript / available : computeUsage(createBudget(settings.contextWindow, profile, blocks)).utilization;
    rung = ladderRung(utilization);
  }
  const stash = options.dryRun === true ? null : StashStore.open(config.dataDir, config.stashLimits);
  const results: FileResult[] = [];
  try {
    for (const target of targets) {
      const layer = layerOf.get(target) ?? 'session';
      const wanted: CompactOptions | null = options.auto === true ? ladderCompaction(rung, layer) : { finished: true, staleSections: true };
      results.push(compactOne(target, wanted, stash, count, options.auto === true ? `below the ladder's first rung (${pct(utilization)})` : ''));
    }
  } finally {
    stash?.close();
  }
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ token_method: 'o200k', dry_run: options.dryRun === true, auto: options.auto === true ? { utilization, rung } : null, files: results })}\n`);
    if (results.some((r) => r.status === 'refused')) process.exitCode = 1;
    return;
  }
  process.stdout.write(render(results, rung, utilization, options.auto === true));
  if (results.some((r) => r.status === 'refused')) process.exitCode = 1;
}

function compactOne(path: string, wanted: CompactOptions | null, stash: StashStore | null, count: (text: string) => number, idleReason: string): FileResult {
  const file = relative(process.cwd(), path) || path;
  const base = { file, folds: 0, stash_keys: [] as string[] };
  if (!isContextFile(path)) return { ...base, status: 'skipped', before_tokens: 0, after_tokens: 0, reason: 'not a context file: code and config files are never compacted' };
  const notWritable = whyNotWritable(path);
  if (notWritable !== null) return { ...base, status: 'refused', before_tokens: 0, after_tokens: 0, reason: notWritable };
  const read = readBoundedText(path, { maxBytes: MAX_CONTEXT_FILE_BYTES });
  if (!read.ok) return { ...base, status: 'skipped', before_tokens: 0, after_tokens: 0, reason: `cannot read the file: ${read.reason}` };
  const text = read.text;
  const before = count(text);
  if (wanted === null) return { ...base, status: 'unchanged', before_tokens: before, after_tokens: before, reason: idleReason };
  const plan = planCompaction(text, wanted);
  const after = count(plan.output);
  if (plan.folds.length === 0) return { ...base, status: 'unchanged', before_tokens: before, after_tokens: before, reason: 'nothing finished or stale to fold' };
  if (after >= before) {
    const blocks = `the ${plan.folds.length} finished or stale block${plan.folds.length === 1 ? '' : 's'}`;
    return { ...base, status: 'unchanged', before_tokens: before, after_tokens: before, reason: `folding ${blocks} would not save tokens, ${int(before)} -> ${int(after)}: a fold's one-line marker costs more than the text it replaces` };
  }
  const keys = plan.entries.map((e) => e.key);
  if (stash === null) return { ...base, status: 'dry_run', folds: plan.folds.length, before_tokens: before, after_tokens: after, stash_keys: keys, diff: foldDiff(file, plan.folds) };
  // The originals are stashed before the file changes, so a failure never loses text.
  const put = stash.put(plan.entries);
  if (!put.ok) throw new CliError(`syt compact: could not stash the folded text of ${file} (${put.reason}); the file is unchanged`);
  try {
    writeInPlace(path, plan.output);
  } catch (error) {
    throw new CliError(`syt compact: could not write ${file} (${(error as Error).message}); it is unchanged, its folded text is in the stash`);
  }
  return { ...base, status: 'compacted', folds: plan.folds.length, before_tokens: before, after_tokens: after, stash_keys: keys };
}

function restoreCommand(path: string, dataDir: string, limits: Parameters<typeof StashStore.open>[1], json: boolean): void {
  const notWritable = whyNotWritable(path);
  if (notWritable !== null) throw new CliError(`syt compact --restore: ${path} is ${notWritable}`);
  const read = readBoundedText(path, { maxBytes: MAX_CONTEXT_FILE_BYTES });
  if (!read.ok) throw new CliError(`syt compact --restore: cannot read ${path}: ${read.reason}`);
  const text = read.text;
  const stash = StashStore.open(dataDir, limits);
  let result: ReturnType<typeof restoreText>;
  try {
    result = restoreText(text, (key) => {
      const got = stash.get(key);
      return got.ok ? got.bytes.toString('utf8') : null;
    });
  } finally {
    stash.close();
  }
  if (result.restored > 0) writeInPlace(path, result.output);
  const report = { file: path, restored: result.restored, missing: result.missing };
  process.stdout.write(json ? `${JSON.stringify(report)}\n` : `${path}: ${result.restored} folded part${result.restored === 1 ? '' : 's'} restored${result.missing.length > 0 ? `; ${result.missing.length} not in the stash (expired or from another data dir)` : ''}\n`);
  if (result.missing.length > 0) process.exitCode = 1;
}

function lastContext(path: string): number | null {
  try {
    const read = readBoundedText(path);
    if (!read.ok) throw new Error(read.reason);
    return readClaudeCodeTranscript(read.text, path).requests.filter((r) => !r.sidechain).at(-1)?.contextTokens ?? null;
  } catch {
    throw new CliError(`syt compact: cannot read transcript ${path}`);
  }
}

const pct = (share: number | null): string => (share === null ? '?' : `${(share * 100).toFixed(1)}%`);

function render(results: readonly FileResult[], rung: CompactAction | null, utilization: number | null, auto: boolean): string {
  const lines: string[] = [];
  if (auto) lines.push(`budget: ${pct(utilization)} of the usable window; ladder: ${rung === null ? 'nothing to do below 80%' : rung.replaceAll('_', ' ')}`);
  if (results.length === 0) lines.push('no context files to compact (name files, or keep progress/todo notes in the project root)');
  for (const r of results) {
    if (r.status === 'dry_run') lines.push(`${r.diff ?? ''}${r.file}: would fold ${r.folds} block${r.folds === 1 ? '' : 's'}, ${int(r.before_tokens)} -> ${int(r.after_tokens)} tokens (dry run, nothing written)`);
    else if (r.status === 'compacted') lines.push(`${r.file}: folded ${r.folds} block${r.folds === 1 ? '' : 's'}, ${int(r.before_tokens)} -> ${int(r.after_tokens)} tokens; undo with syt compact --restore ${r.file}`);
    else lines.push(`${r.file}: ${r.status}${r.reason !== undefined && r.reason !== '' ? ` (${r.reason})` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
