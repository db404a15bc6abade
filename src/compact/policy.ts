/** Which files `syt compact` may touch, what the ladder folds at each rung, and the dry-run diff (pure). */
import type { CompactAction, Layer } from '../budget/types.ts';
import type { CompactOptions, Fold } from './fold.ts';

const TEXT_EXTENSIONS = /\.(md|markdown|mdc|txt|rst|org)$/iu;
const TEXT_NAMES = /^(\.cursorrules|\.windsurfrules|todo|notes|progress|changelog)$/iu;

/** Context files are prose; anything else (code, config, data) is never compacted. */
export function isContextFile(path: string): boolean {
  const name = path.split(/[\\/]/u).at(-1) ?? '';
  return TEXT_EXTENSIONS.test(name) || TEXT_NAMES.test(name);
}

/**
 * What the ladder folds in a file of a given layer once a rung is reached: checked items in session files from 80%,
 * sections whose every item is checked and dated entries there too from 90%, the same in persistent files (CLAUDE.md)
 * only from 95%, never anything below 80%.
 */
export function ladderCompaction(rung: CompactAction | null, layer: Layer): CompactOptions | null {
  if (rung === null) return null;
  const level = ['drop_stale_ephemeral', 'summarize_ephemeral', 'compact_session', 'force_trim_persistent'].indexOf(rung);
  if (layer === 'persistent') return level >= 2 ? { finished: true, staleSections: level >= 3 } : null;
  return { finished: true, staleSections: level >= 1 };
}

/** A readable diff of the folds: why each block is finished, its original lines, then the fold line that replaces them. */
export function foldDiff(path: string, folds: readonly Fold[]): string {
  const parts = [`--- ${path}`, `+++ ${path} (compacted)`];
  for (const fold of folds) {
    parts.push(`@@ line ${fold.line}, ${fold.lines} line${fold.lines === 1 ? '' : 's'} folded: ${fold.reason} @@`);
    for (const line of fold.original.replace(/\r?\n$/u, '').split(/\r?\n/u)) parts.push(`-${line}`);
    parts.push(`+${fold.replacement.replace(/\r?\n$/u, '')}`);
  }
  return `${parts.join('\n')}\n`;
}
