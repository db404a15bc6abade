import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classifyContent } from '../../../src/compress/classify.ts';
import { dependencyFold } from '../../../src/compress/listing-fold.ts';
import { candidatesFor } from '../../../src/compress/registry.ts';
import { arbitrate } from '../../../src/runtime/arbitrate.ts';
import { decodeSearchPaths, SEARCH_PATH_HEADER } from '../../../src/compress/search-paths.ts';
import { foldRoot, MIN_FOLDED } from '../../../src/reduce/fold.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { loadFresh, loadFreshCase, TRANSCRIPT_DIR, type FreshCase } from './fs-search-fixtures.ts';
import { argvForCase, shellWords } from './corpus.ts';
import { applyFilter, type StreamViews } from '../../helpers/streams.ts';

function view(argv: readonly string[], stdout: string): StreamViews | null {
  const filter = findFilter(argv);
  if (filter === null) throw new Error(`no filter for ${argv.join(' ')}`);
  return applyFilter(filter, { argv, stdout, stderr: '', exitCode: 0 });
}

function shown(c: FreshCase, stdout = c.stdout): string {
  const v = view(c.argv, stdout);
  if (v === null) throw new Error(`${c.id}: declined`);
  return v.stdout.text;
}

/** Paths a grouped listing view names (`dir/: a b; *.ts: c d`), and the roots of its fold lines. */
function expand(text: string): { paths: Set<string>; folds: string[] } {
  const paths = new Set<string>();
  const folds: string[] = [];
  for (const line of text.split('\n')) {
    const fold = /^(.*)\/… \(\d+ [a-z ]+ folded\)$/.exec(line);
    if (fold !== null) {
      folds.push(fold[1] ?? '');
      continue;
    }
    const m = /^(.*\/): (.*)$/.exec(line);
    const dir = m === null ? '' : (m[1] ?? '');
    for (const group of (m === null ? line : (m[2] ?? '')).split('; ')) {
      const ext = /^\*(\.[^:]+|_test\.go): (.*)$/.exec(group);
      const names = [...(ext === null ? group : (ext[2] ?? '')).matchAll(/"(?:[^"\\]|\\.)*"|\S+/g)].map((t) => (t[0].startsWith('"') ? (JSON.parse(t[0]) as string) : t[0]));
      for (const name of names) paths.add(`${dir}${name}${ext === null ? '' : (ext[1] ?? '')}`);
    }
  }
  return { paths, folds };
}

/** Every input path is named by the view or lies under one of its fold lines' roots. */
function expectEveryPath(paths: readonly string[], text: string): void {
  const { paths: named, folds } = expand(text);
  for (const path of paths) {
    const folded = folds.some((root) => path === root || path.startsWith(`${root}/`));
    expect(folded || named.has(path), path).toBe(true);
  }
}

const fresh = loadFresh();
const ids = (prefix: string): string[] => fresh.filter((c) => c.id.startsWith(prefix)).map((c) => c.id);

describe('fresh outputs of projects the filters were not written against', () => {
  it('hold each family from at least three projects', () => {
    for (const family of ['ls-la-', 'ls-R-', 'find-', 'tree-', 'du-', 'wc-', 'grep-rn-', 'rg-', 'git-grep-']) {
      const projects = new Set(ids(family).map((id) => id.split('-').pop()));
      expect(projects.size, family).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(fresh.map((c) => [c.id, c] as const))('%s: a view is shorter, or the filter declines', (_, c) => {
    const v = view(c.argv, c.stdout);
    if (v !== null) expect(v.stdout.text.length).toBeLessThan(c.stdout.length);
  });

  it.each([...ids('ls-la'), ...ids('ls-laR'), ...ids('ls-lah')])('%s: parses under every locale and time style', (id) => {
    const c = loadFreshCase(id);
    const text = shown(c);
    // Every regular file keeps its name and size; dates, owners and modes are gone.
    const outsideFolds = c.stdout.split('\n\n').filter((section) => !/^\S*node_modules\S*:$/m.test(section.split('\n')[0] ?? '')).join('\n');
    for (const m of outsideFolds.matchAll(/^-[-rwxsStT]{9}[.+@]? .* (\S+)$/gmu)) expect(text).toContain(m[1] ?? '');
    expect(text).not.toMatch(/rwx|\broot root\b/);
  });

  it.each(loadFresh(TRANSCRIPT_DIR).map((c) => [c.id, c] as const))('Claude Code session (macOS, numeric months) %s parses', (_, c) => {
    const v = view(c.argv, c.stdout);
    const files = [...c.stdout.matchAll(/^-[-rwxsStT]{9}[.+@]? .* (\S+)$/gmu)].map((m) => m[1] ?? '');
    // Listings too short to pay are left alone; every other one is parsed, never declined.
    if (c.stdout.length > 300) expect(v).not.toBeNull();
    for (const name of files) if (v !== null) expect(v.stdout.text).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\d+$`, 'm'));
  });

  it('keeps sizes with decimal commas (du -h, ls -lh under de_DE)', () => {
    expect(shown(loadFreshCase('ls-lah-de_DE-typescript'))).toMatch(/^typescript\.js 8,7M$/m);
    expect(shown(loadFreshCase('du-ah-de_DE-typescript'))).toMatch(/^\.\/: .*SECURITY\.md 4,0K, README\.md 4,0K/m);
  });

  it.each([...ids('find-f'), 'find-slugify', 'find-pnpm', 'find-py-lib', 'find-name-py-click'])('%s keeps every path outside folded trees', (id) => {
    const c = loadFreshCase(id);
    const paths = c.stdout.split('\n').filter((p) => p !== '' && p !== '.').map((p) => p.replace(/^\.\//, ''));
    expectEveryPath(paths, shown(c));
  });

  it.each([...ids('rg-files'), ...ids('rg-l-'), 'git-grep-l-click'])('%s keeps every file outside folded trees', (id) => {
    const c = loadFreshCase(id);
    expectEveryPath(c.stdout.split('\n').filter((p) => p !== ''), shown(c));
  });

  it.each(ids('tree-'))('%s: one line per directory, no line taken for a path prefix', (id) => {
    const c = loadFreshCase(id);
    const text = shown(c);
    expect(text).toMatch(/^\d+ director(?:y|ies), \d+ files?$/m);
    // Each leaf drawn is named in the view (or folded).
    const leaves = [...c.stdout.matchAll(/(?:[├└]──|[|`]--)[\u00a0 ]([^\s/]+)$/gm)].map((m) => m[1] ?? '');
    const { paths, folds } = expand(text);
    const names = new Set([...paths].map((p) => p.slice(p.lastIndexOf('/') + 1)));
    for (const leaf of leaves) expect(names.has(leaf) || [...paths].some((p) => p.startsWith(`${leaf}/`) || p.includes(`/${leaf}/`)) || folds.length > 0, leaf).toBe(true);
  });

  it('tree: a warning printed before the drawing stays a line of its own, never a path prefix', () => {
    const text = shown(loadFreshCase('tree-warning-cobra'));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^bash: line 1: warning: setlocale/);
    expect(lines.filter((l) => l.includes('setlocale'))).toHaveLength(1);
    expect(lines[1]).toBe('.');
    expect(text).toMatch(/^doc\/: /m);
  });

  it.each(['grep-rn-cobra', 'rg-n-click', 'git-grep-n-cobra', 'git-grep-n-fd'])('%s: hits are search-path shared, exactly invertible', (id) => {
    const c = loadFreshCase(id);
    const v = view(c.argv, c.stdout);
    expect(v?.stdout.lossy).toBe(false);
    expect(decodeSearchPaths(v?.stdout.text ?? '')).toBe(c.stdout);
  });

  it.each(['rg-n-color-fd', 'grep-rn-color-cobra', 'git-grep-n-color-click'])('%s: coloured hits are read without colour (lossy)', (id) => {
    const c = loadFreshCase(id);
    const v = view(c.argv, c.stdout);
    expect(v?.stdout.lossy).toBe(true);
    expect(v?.stdout.text).not.toContain('\u001b');
    expect(decodeSearchPaths(v?.stdout.text ?? '')).toBe(c.stdout.replace(/\u001b\[[0-9;]*[mK]/g, ''));
  });

  it.each(['grep-c-click', 'rg-c-fd'])('%s: counts are recognised (declined only when grouping does not pay)', (id) => {
    const c = loadFreshCase(id);
    const nested = c.stdout.replace(/^/gm, 'vendorless/very/long/prefix/');
    expect(view(c.argv, nested)?.stdout.text).toMatch(/^vendorless\/very\/long\/prefix\/.*: .* \d+/m);
  });
});

describe('dependency and build trees fold to one line per root', () => {
  it('find: .venv folds, the project files stay', () => {
    const text = shown(loadFreshCase('find-f-click'));
    expect(text).toMatch(/^\.venv\/… \(\d+ entries folded\)$/m);
    expect(text).toMatch(/^src\/click\/: /m);
    expect(text).not.toMatch(/site-packages/);
  });

  it('find: a pnpm node_modules folds as one tree', () => {
    const text = shown(loadFreshCase('find-pnpm'));
    expect(text.match(/folded\)$/gm)).toHaveLength(1);
    expect(text).toMatch(/^node_modules\/… \(\d+ entries folded\)$/m);
  });

  it('ls -laR and tree -a: node_modules sections fold', () => {
    expect(shown(loadFreshCase('ls-laR-slugify'))).toMatch(/^\.\/node_modules\/… \(\d+ entries folded\)$/m);
    expect(shown(loadFreshCase('tree-a-slugify'))).toMatch(/^node_modules\/… \(\d+ entries folded\)$/m);
  });

  it('grep -rn: hits in node_modules fold, the others stay exact', () => {
    const c = loadFreshCase('grep-rn-slugify');
    const text = shown(c);
    expect(text).toMatch(/^\.\/node_modules\/… \(\d+ matching lines folded\)$/m);
    const own = c.stdout.split('\n').filter((l) => l !== '' && !l.startsWith('./node_modules/'));
    const decoded = decodeSearchPaths(text.slice(0, text.indexOf('./node_modules/…')));
    expect(decoded.split('\n').filter((l) => l !== '')).toEqual(own);
  });

  it('Grep tool results: hits in node_modules fold, the rest verbatim, and the fold wins arbitration', () => {
    // The Grep tool prints rg's `path:line:text` records without the `./` prefix.
    const content = loadFreshCase('grep-rn-slugify').stdout.replace(/^\.\//gm, '');
    const candidates = candidatesFor({ content, origin: 'api_response', toolName: 'Grep', contentType: classifyContent(content) }, { searchPathSharing: true });
    expect(candidates.map((c) => c.operations.join('+'))).toEqual(['search_path_sharing', 'dependency_fold', 'dependency_fold+search_path_sharing']);
    const own = content.split('\n').filter((l) => l !== '' && !l.startsWith('node_modules/'));
    const plain = candidates[1]?.output ?? '';
    expect(plain).toMatch(/^node_modules\/… \(\d+ matching lines folded\)$/m);
    for (const line of own) expect(plain).toContain(`${line}\n`);
    const adopted = arbitrate(content, candidates);
    expect(adopted?.candidate.operations).toEqual(['dependency_fold', 'search_path_sharing']);
    const out = adopted?.candidate.output ?? '';
    expect(decodeSearchPaths(out.slice(0, out.indexOf('node_modules/…'))).split('\n').filter((l) => l !== '')).toEqual(own);
  });

  it('du -a: a tree folds, its own size line stays', () => {
    const text = shown(loadFreshCase('du-a-slugify'));
    expect(text).toMatch(/^\.\/node_modules\/… \(\d+ entries folded\)$/m);
    expect(text).toMatch(/^\.\/: .*\bnode_modules 92\b/m);
    expect(text).not.toMatch(/transliterate/);
  });

  it('rg --files -uuu: .git and .venv fold', () => {
    const text = shown(loadFreshCase('rg-files-uuu-click'));
    expect(text).toMatch(/^\.venv\/… \(\d+ files folded\)$/m);
  });

  it('never folds the tree the command names', () => {
    for (const id of ['find-nm-explicit', 'rg-n-nm-explicit', 'ls-R-dist-vite']) {
      const c = loadFreshCase(id);
      const v = view(c.argv, c.stdout);
      expect(v?.stdout.text ?? '', id).not.toMatch(/folded\)$/m);
    }
    const c = loadFreshCase('find-slugify');
    expect(shown(c)).toMatch(/folded\)$/m);
    for (const argv of [['find', 'node_modules'], ['find', '.', '-path', '*/node_modules/*'], ['find', '.', '-name', '*.js', '-not', '-path', './node_modules*']]) {
      expect(view(argv, c.stdout)?.stdout.text ?? '', argv.join(' ')).not.toMatch(/node_modules\/… /);
    }
  });

  it('folds nothing when every entry lies in dependency trees (the listing was about them)', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `node_modules/pkg${i}/index.js`);
    expect(view(['rg', '--files'], `${lines.join('\n')}\n`)?.stdout.text ?? '').not.toMatch(/folded/);
  });

  it('build/dist/target/vendor fold only outside source directories', () => {
    expect(foldRoot('target/debug/deps/x.rlib', new Set())).toBe('target');
    expect(foldRoot('packages/a/dist/index.js', new Set())).toBe('packages/a/dist');
    expect(foldRoot('src/build/index.ts', new Set())).toBeNull();
    expect(foldRoot('src/x/node_modules/y', new Set())).toBe('src/x/node_modules');
    expect(foldRoot('./.git/objects/ab', new Set())).toBe('./.git');
    expect(foldRoot('node_modules/.pnpm/x', new Set(['node_modules']))).toBe('node_modules/.pnpm');
  });

  const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
  const dep = fc.constantFrom('node_modules', '.venv', '.git', '__pycache__', 'target', 'dist', 'vendor', 'site-packages');
  const path = fc.tuple(fc.array(fc.oneof(segment, segment, segment, dep), { minLength: 0, maxLength: 4 }), segment).map(([dirs, name]) => [...dirs, `${name}.txt`].join('/'));

  it('property: a folded find/rg listing names every path outside folded roots, and each folded path has its root line', () => {
    fc.assert(
      fc.property(fc.uniqueArray(path, { minLength: 4, maxLength: 60 }), fc.constantFrom(['find', '.'], ['rg', '--files']), (paths, argv) => {
        const stdout = `${(argv[0] === 'find' ? paths.map((p) => `./${p}`) : paths).join('\n')}\n`;
        const v = view(argv, stdout);
        if (v === null) return;
        expectEveryPath(paths, v.stdout.text);
        for (const root of expand(v.stdout.text).folds) expect(paths.filter((p) => p.startsWith(`${root}/`)).length).toBeGreaterThanOrEqual(MIN_FOLDED);
      }),
      { numRuns: 200 },
    );
  });

  it('property: Grep hits keep every line outside folded roots verbatim and in order', () => {
    const hit = fc.tuple(path, fc.integer({ min: 1, max: 999 }), fc.stringMatching(/^[ -~]{0,20}$/)).map(([p, n, t]) => `${p}:${n}:${t}`);
    fc.assert(
      fc.property(fc.array(hit, { minLength: 3, maxLength: 60 }), fc.boolean(), (hits, crlf) => {
        const content = hits.map((h) => (crlf ? `${h}\r` : h)).join('\n') + '\n';
        const candidate = dependencyFold({ content, origin: 'api_response', toolName: 'Grep', contentType: 'search_results' }, { searchPathSharing: true });
        if (candidate === null) return;
        const out = candidate.output.split('\n');
        const kept = out.filter((l) => !/\/… \(\d+ matching lines folded\)$/.test(l) && !l.startsWith('[tokenless:') && l !== '');
        const roots = out.flatMap((l) => /^(.*)\/… \(\d+ matching lines folded\)$/.exec(l)?.[1] ?? []);
        const outside = content.split('\n').filter((l) => l !== '' && !roots.some((r) => l.startsWith(`${r}/`)));
        expect(kept).toEqual(outside);
        expect(Buffer.from(candidate.stash[0]?.bytes ?? []).toString('utf8')).toBe(content);
      }),
      { numRuns: 200 },
    );
  });
});

/** Perturbations of real outputs: what the same commands print under other terminals, shells and caps. */
const crlf = (t: string): string => t.replace(/\n/g, '\r\n');
const colour = (t: string): string => t.replace(/^(.*?)(\S+)$/gm, (_, head: string, name: string) => `${head}\u001b[0m\u001b[01;34m${name}\u001b[0m`);
const warning = 'bash: warning: setlocale: LC_ALL: cannot change locale (de_DE.UTF-8)';
const warned = (t: string): string => `${warning}\n${t}`;
function truncate(t: string): { text: string; fragment: string } {
  const cut = t.lastIndexOf('\n', Math.floor(t.length * 0.7));
  const end = t.indexOf('\n', cut + 1);
  const text = t.slice(0, cut + 1 + Math.max(3, Math.floor((end - cut) / 2)));
  return { text, fragment: text.slice(cut + 1) };
}
/** Wider columns, as a listing with one long owner name or a large file would print them. */
const widen = (t: string): string => t.replace(/^([-dlcbps][-rwxsStT]{9}\S?)((?:\s+\S+){4})/gm, (_, mode: string, fields: string) => `${mode}${fields.replace(/\s+/g, (s) => `${s}   `)}`);

const PERTURBED = ['ls-la-cobra', 'ls-la-ja_JP-zod', 'ls-la-fr_FR-zod', 'ls-la-dirs-fd', 'ls-R-click', 'find-f-fd', 'find-slugify', 'rg-files-fd', 'rg-l-cobra', 'tree-cobra', 'tree-L2-fd', 'du-ah-de_DE-typescript', 'wc-py-click', 'fs-ls-la-express', 'fs-find-js-express', 'fs-tree-L3-express'];

function caseFor(id: string): FreshCase {
  if (!id.startsWith('fs-')) return loadFreshCase(id);
  const c = loadCorpusCase(id);
  return { id, command: c.command, argv: argvForCase(c.command) ?? shellWords(c.command), stdout: c.stdout, exitCode: c.exitCode };
}

describe('perturbations of real outputs', () => {
  it.each(PERTURBED)('%s: CRLF line endings give the same view', (id) => {
    const c = caseFor(id);
    expect(shown(c, crlf(c.stdout))).toBe(shown(c));
  });

  it.each(PERTURBED.filter((id) => !/^(?:du|wc)-/.test(id)))('%s: colour codes give the same view', (id) => {
    const c = caseFor(id);
    expect(shown(c, colour(c.stdout))).toBe(shown(c));
  });

  it.each(PERTURBED)('%s: a leading warning stays one verbatim line', (id) => {
    const c = caseFor(id);
    const lines = shown(c, warned(c.stdout)).split('\n');
    expect(lines.filter((l) => l.includes('setlocale'))).toEqual([warning]);
  });

  it.each(PERTURBED)('%s: a cut-off last line is shown as it is, never parsed', (id) => {
    const c = caseFor(id);
    const { text, fragment } = truncate(c.stdout);
    const v = view(c.argv, text);
    if (v === null) return expect(id).toMatch(/^wc-|^du-/);
    expect(v.stdout.text.split('\n')).toContain(fragment.replace(/\r$/, ''));
  });

  it.each(PERTURBED.filter((id) => id.includes('ls-la')))('%s: wider columns give the same view', (id) => {
    const c = caseFor(id);
    expect(widen(c.stdout)).not.toBe(c.stdout);
    expect(shown(c, widen(c.stdout))).toBe(shown(c));
  });
});

describe('unrecognised input is declined, never guessed at', () => {
  const json = '{"a": 1,\n "b": [1, 2, 3],\n "c": "x"\n}\n'.repeat(5);
  it.each([
    [['ls', '-la'], json],
    [['ls', '-la'], loadFreshCase('ls-la-cobra').stdout.replace(/^(-rw-r--r--) \d+/m, '$1 x')],
    [['tree'], 'a\nb\nc\nd\ne\n'],
    [['tree', '-f'], loadFreshCase('tree-cobra').stdout],
    [['find', 'src'], loadFreshCase('find-f-cobra').stdout],
    [['find', '.', '-printf', '%s %p\n'], loadFreshCase('find-printf-cobra').stdout],
    [['du', '-sh'], json],
    [['wc', '-l'], json],
    [['grep', '-c', 'x', 'f'], '12\n'],
    [['rg', '-n', 'x'], json],
  ])('%j', (argv, stdout) => {
    expect(view(argv, stdout)).toBeNull();
  });

  it('the search-path header is never produced for a listing with other lines', () => {
    expect(view(['grep', '-rn', 'x'], 'a:1:x\nb:2:y\nnot a record\nc:3:z\n')?.stdout.text ?? '').not.toContain(SEARCH_PATH_HEADER);
  });
});
