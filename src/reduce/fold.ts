/**
 * Dependency and build trees in listings (`find`, `ls -R`, `tree`, `rg --files`, grep hits, Grep/Glob results): every
 * entry below such a tree's root becomes one line per root with a count. The caller's view is lossy (the runtime
 * stashes the original), every entry outside a folded root stays, and a tree the command names is never folded.
 */

/** Names that are a dependency, cache or VCS tree wherever they appear. */
const ALWAYS = new Set([
  'node_modules',
  'bower_components',
  '.pnpm',
  '.pnpm-store',
  '.yarn',
  '.venv',
  'venv',
  'site-packages',
  'dist-packages',
  '__pycache__',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.git',
  '.hg',
  '.svn',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.cache',
  '.gradle',
  '.terraform',
]);

/** Names that are usually build output or vendored code, but can be source (`src/build/`, `pkg/target/`): folded only
 * when no source-like directory lies above them. */
const OUTPUT = new Set(['vendor', 'target', 'dist', 'build']);
const SOURCE_DIRS = new Set(['src', 'lib', 'pkg', 'cmd', 'internal', 'test', 'tests', 'app']);

/** Fewer entries than this under a root are listed, not folded: the fold line would cost about as much. */
export const MIN_FOLDED = 5;

/** Every folding name, for the explicit-mention check. */
const NAMES: ReadonlySet<string> = new Set([...ALWAYS, ...OUTPUT]);

/**
 * The folding names the command's own words mention (`find node_modules/x`, `rg -g '*.pnpm*'`, `ls -R dist`): those
 * trees are what was asked for, so they stay listed.
 */
export function mentionedTrees(words: readonly string[]): ReadonlySet<string> {
  const found = new Set<string>();
  for (const word of words) for (const part of word.split(/[^A-Za-z0-9._-]+/)) if (NAMES.has(part)) found.add(part);
  return found;
}

/**
 * The root a path falls under (the path up to and including its outermost folding directory, with the path's own
 * spelling, e.g. `./node_modules` or `packages/a/dist`), or null when it lies under none.
 */
export function foldRoot(path: string, exempt: ReadonlySet<string>): string | null {
  const parts = path.split('/');
  let sourceAbove = false;
  // A path that is the root itself (find prints `./node_modules` before its contents) counts into its own fold; a
  // file that happens to be named `build` has nothing under it, so MIN_FOLDED keeps it listed.
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    if (!exempt.has(part) && (ALWAYS.has(part) || (OUTPUT.has(part) && !sourceAbove))) {
      return parts.slice(0, i + 1).join('/');
    }
    if (SOURCE_DIRS.has(part)) sourceAbove = true;
  }
  return null;
}

export interface FoldedRoot {
  readonly root: string;
  readonly count: number;
}

/** An item kept as it was, or the one line that stands for a folded root (at its first entry's place). */
export type FoldItem<T> = { readonly kept: T } | { readonly fold: FoldedRoot };

/**
 * Folds the items whose path lies under a root with at least MIN_FOLDED entries (each item counts `weightOf` entries:
 * an `ls -R` section counts its names); null when nothing folds. `pathOf`
 * returns null for an item that is no path (a warning line): it is kept. When every path lies under folded roots the
 * listing was about those trees (`rg x node_modules/`, `Glob **\/node_modules/**`) and nothing folds either.
 */
export function foldItems<T>(
  items: readonly T[],
  pathOf: (item: T) => string | null,
  exempt: ReadonlySet<string>,
  weightOf: (item: T) => number = () => 1,
): Array<FoldItem<T>> | null {
  const roots = items.map((item) => {
    const path = pathOf(item);
    return path === null ? null : foldRoot(path, exempt);
  });
  const counts = new Map<string, number>();
  items.forEach((item, i) => {
    const root = roots[i];
    if (root !== null && root !== undefined) counts.set(root, (counts.get(root) ?? 0) + weightOf(item));
  });
  const folding = new Set([...counts].filter(([, n]) => n >= MIN_FOLDED).map(([root]) => root));
  if (folding.size === 0) return null;
  const outside = items.some((item, i) => pathOf(item) !== null && !folding.has(roots[i] ?? ''));
  if (!outside) return null;
  const result: Array<FoldItem<T>> = [];
  const shown = new Set<string>();
  items.forEach((item, i) => {
    const root = roots[i];
    if (root === null || root === undefined || !folding.has(root)) result.push({ kept: item });
    else if (!shown.has(root)) {
      shown.add(root);
      result.push({ fold: { root, count: counts.get(root) ?? 0 } });
    }
  });
  return result;
}

/** The line shown for a folded root, `node_modules/… (1204 entries folded)`; `noun` names what was counted (never
 * fewer than MIN_FOLDED, so always a plural). */
export function foldLine(fold: FoldedRoot, noun = 'entries'): string {
  return `${fold.root}/… (${fold.count} ${noun} folded)`;
}

/** Convenience for listings of plain lines: kept lines verbatim, fold lines in place; null when nothing folds. */
export function foldLines(lines: readonly string[], pathOf: (line: string) => string | null, exempt: ReadonlySet<string>, noun?: string): string[] | null {
  const items = foldItems(lines, pathOf, exempt);
  return items === null ? null : items.map((item) => ('kept' in item ? item.kept : foldLine(item.fold, noun)));
}

/** Paths outside folded dependency trees, and the folded roots in order of first appearance. */
export function foldPaths(paths: readonly string[], words: readonly string[]): { kept: string[]; folds: FoldedRoot[] } {
  const items = foldItems(paths, (p) => p.replace(/\/$/, ''), mentionedTrees(words));
  if (items === null) return { kept: [...paths], folds: [] };
  const kept: string[] = [];
  const folds: FoldedRoot[] = [];
  for (const item of items) {
    if ('kept' in item) kept.push(item.kept);
    else folds.push(item.fold);
  }
  return { kept, folds };
}
