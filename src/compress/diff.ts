import { lossless } from '../reduce/candidate.ts';
import { cleanTerminalText } from '../reduce/terminal.ts';
import { diffHeaderPath } from '../reduce/diff-header.ts';
import type { Compressor } from './types.ts';
import { withWholeOriginal } from './view.ts';

/**
 * Operation `diff_header_compact`, lossless: in a git diff, the `--- a/P` and `+++ b/P` lines that directly follow a
 * `diff --git a/P b/P` header (with its optional `index` line) repeat the header's path exactly, so they are dropped;
 * `expandDiffHeaders` puts them back byte for byte. Renames, new or deleted files, quoted paths and anything else
 * not of that exact shape stay untouched. Hunks are never touched. ANSI colour is removed first when present; it
 * cannot be put back, so such a view is retrievable.
 */
export const compactDiff: Compressor = (input) => {
  const cleaned = cleanTerminalText(input.content);
  const compacted = compactDiffHeaders(cleaned);
  const operations: string[] = [];
  if (cleaned !== input.content) operations.push('ansi_strip');
  if (compacted !== cleaned) operations.push('diff_header_compact');
  if (operations.length === 0) return null;
  return cleaned === input.content ? lossless(compacted, operations) : withWholeOriginal(input.content, compacted, operations, 'colour removed');
};

/** Drops derivable `---`/`+++` lines; see `compactDiff`. */
export function compactDiffHeaders(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    out.push(line);
    if (!line.startsWith('diff --git a/')) continue;
    let j = i + 1;
    if (lines[j]?.startsWith('index ')) out.push(lines[j++] as string);
    const minus = lines[j];
    const plus = lines[j + 1];
    if (minus === undefined || plus === undefined || !minus.startsWith('--- a/') || !lines[j + 2]?.startsWith('@@ ')) {
      i = j - 1;
      continue;
    }
    const path = minus.slice('--- a/'.length);
    if (plus === `+++ b/${path}` && diffHeaderPath(line) === path) {
      i = j + 1;
    } else {
      i = j - 1;
    }
  }
  return out.join('\n');
}

/** Inverse of `compactDiffHeaders`. */
export function expandDiffHeaders(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    out.push(line);
    if (!line.startsWith('diff --git a/')) continue;
    let j = i + 1;
    if (lines[j]?.startsWith('index ')) out.push(lines[j++] as string);
    const path = diffHeaderPath(line);
    if (lines[j]?.startsWith('@@ ') && path !== null) {
      out.push(`--- a/${path}`, `+++ b/${path}`);
    }
    i = j - 1;
  }
  return out.join('\n');
}
