import { describe, expect, it } from 'vitest';
import { decodeSearchPaths, encodeSearchPaths, SEARCH_PATH_HEADER, searchPathSharingEnabled } from '../../../src/compress/search-paths.ts';
import { loadCorpus, loadCorpusCase } from '../../helpers/fixtures.ts';
import { compactListing } from '../../../src/filters/container/table.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import { applyFilter } from '../../helpers/streams.ts';
import { measure, type Measured } from './corpus.ts';

function shown(m: Measured): string {
  if (m.view === null) throw new Error(`${m.id}: no view`);
  return `${m.view.stdout.text}${m.view.stderr.text}`;
}

function savings(ms: readonly Measured[]): number {
  const before = ms.reduce((n, m) => n + m.before, 0);
  const after = ms.reduce((n, m) => n + m.after, 0);
  return 1 - after / before;
}

const corpus = loadCorpus().map((c) => ({ c, m: measure(c) }));

describe('git', () => {
  it.each(['git-status-express', 'git-status-untracked-all-express'])('%s keeps every path with its section', (id) => {
    const c = loadCorpusCase(id);
    const text = shown(measure(c));
    for (const path of c.stdout.match(/^\t(?:[a-z ]+:\s+)?(\S+)$/gm) ?? []) {
      expect(text).toContain(path.replace(/^\t(?:[a-z ]+:\s+)?/, ''));
    }
    expect(text).toMatch(/^staged 2: M lib\/request\.js package\.json$/m);
    expect(text).toMatch(/^unstaged 3: D examples\/README\.md; M lib\/request\.js lib\/response\.js$/m);
  });

  it.each(['git-diff-express', 'git-diff-head3-express', 'git-diff-staged-express', 'git-show-express', 'git-show-code-path-to-regexp'])(
    '%s keeps every hunk line in order',
    (id) => {
      const c = loadCorpusCase(id);
      const hunkLines = c.stdout.slice(c.stdout.indexOf('\ndiff --git ')).split('\n').filter((l) => /^[-+ @\\]/.test(l) && !/^(?:---|\+\+\+) [ab/]/.test(l));
      const text = shown(measure(c)).split('\n');
      let at = 0;
      for (const line of hunkLines) {
        at = text.indexOf(line, at);
        expect(at, line).toBeGreaterThanOrEqual(0);
      }
    },
  );

  it.each(['git-log-n30-express', 'git-log-default-path-to-regexp', 'git-log-stat-express'])('%s: one line per commit with its subject', (id) => {
    const c = loadCorpusCase(id);
    const text = shown(measure(c));
    const hashes = [...c.stdout.matchAll(/^commit ([0-9a-f]{9})/gm)].map((m) => m[1] ?? '');
    expect(text.split('\n').filter((l) => /^[0-9a-f]{9} \d{4}-\d\d-\d\d /.test(l))).toHaveLength(hashes.length);
    const subjects = [...c.stdout.matchAll(/^Date: .*\n\n {4}(.*)$/gm)].map((m) => m[1] ?? '');
    for (const subject of subjects) expect(text).toContain(subject);
  });

  it('leaves already-compact output alone', () => {
    for (const id of ['git-status-short-express', 'git-log-oneline50-express', 'git-stash-list-express']) expect(measure(loadCorpusCase(id)).view).toBeNull();
  });
});

describe('fs', () => {
  it.each(['fs-find-js-express', 'fs-find-ts-path-to-regexp', 'fs-find-yaml-k8s', 'fs-ls-pflag'])('%s keeps every name outside folded dependency trees', (id) => {
    const c = loadCorpusCase(id);
    const text = shown(measure(c));
    const folded = [...text.matchAll(/^(.*)\/… \(\d+ entries folded\)$/gm)].map((m) => `./${m[1] ?? ''}/`);
    for (const path of c.stdout.trim().split('\n').filter((p) => !folded.some((root) => p.startsWith(root)))) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const stem = name.replace(/(?:_test\.go|(?:\.[A-Za-z][A-Za-z0-9]{0,5}){1,3})$/, '');
      expect(text, name).toContain(stem);
    }
  });

  it('keeps names, sizes and kinds of ls -la', () => {
    const text = shown(measure(loadCorpusCase('fs-ls-la-express')));
    expect(text).toContain('.git/');
    expect(text).toContain('History.md 127281');
    expect(text).not.toContain('drwxr-xr-x');
  });

  it('turns tree drawings into directory lines', () => {
    const text = shown(measure(loadCorpusCase('fs-tree-tests-cjson')));
    expect(text).toContain('tests/inputs/: test1 test1.expected');
    expect(text).toContain('11 directories, 51 files');
  });

  it('saves at least half of ls and find on the corpus', () => {
    expect(savings(corpus.filter(({ m }) => m.filter === 'ls' || m.filter === 'find').map(({ m }) => m))).toBeGreaterThan(0.5);
  });
});

describe('search-path sharing', () => {
  it('is exactly invertible on every corpus search case it applies to', () => {
    let applied = 0;
    for (const { c, m } of corpus) {
      if (m.view === null || m.filter !== 'search' || m.view.stdout.lossy) continue;
      applied++;
      expect(m.view.stdout.text.startsWith(`${SEARCH_PATH_HEADER}\n`)).toBe(true);
      expect(decodeSearchPaths(m.view.stdout.text)).toBe(c.stdout);
    }
    expect(applied).toBeGreaterThanOrEqual(8);
  });

  it('keeps CRLF endings, an unterminated last line and odd paths', () => {
    const text = 'a b.txt:1:x\r\na b.txt:2:y:3:z\r\n"q".c:10:\n"q".c:11:last';
    const encoded = encodeSearchPaths(text);
    expect(encoded).not.toBeNull();
    expect(encoded).toContain('File="a b.txt"\n1:x\r\n2:y:3:z\r\n');
    expect(decodeSearchPaths(encoded ?? '')).toBe(text);
  });

  it('rejects the whole candidate on any line that is not path:line:text, or under 3 records', () => {
    expect(encodeSearchPaths('a:1:x\na:2:y\n--\na:5:z\n')).toBeNull();
    expect(encodeSearchPaths('a:1:x\na:2:y\n')).toBeNull();
    expect(encodeSearchPaths('17:def f():\n18:def g():\n19:def h():\n')).toBeNull();
  });

  it('reads the switch as the contract says', () => {
    expect(searchPathSharingEnabled({})).toBe(true);
    expect(searchPathSharingEnabled({ TOKENLESS_SEARCH_PATH_SHARING_ENABLED: 'YES' })).toBe(true);
    expect(searchPathSharingEnabled({ TOKENLESS_SEARCH_PATH_SHARING_ENABLED: '' })).toBe(false);
    expect(searchPathSharingEnabled({ TOKENLESS_SEARCH_PATH_SHARING_ENABLED: '0' })).toBe(false);
  });

  it('saves at least a quarter losslessly where paths repeat', () => {
    const lossless = corpus.filter(({ m }) => m.filter === 'search' && m.view !== null && !m.view.stdout.lossy).map(({ m }) => m);
    expect(savings(lossless)).toBeGreaterThan(0.2);
  });
});

describe('test runners', () => {
  const passing = corpus.filter(({ c, m }) => c.category === 'test' && c.exitCode === 0 && m.filter !== null).map(({ m }) => m);

  it('reduces passing runs to a summary (≥90% on the corpus)', () => {
    expect(savings(passing)).toBeGreaterThan(0.9);
  });

  it.each([
    ['test-npm-test-pass-express', '1256 passing (15s)'],
    ['test-pytest-pass-more-itertools', '736 passed in 37.35s'],
    ['test-vitest-run-pass-path-to-regexp', 'Tests 376 passed (376)'],
    ['test-make-test-unittest-v-more-itertools', 'Ran 901 tests in 23.184s'],
    ['test-go-test-v-pass-pflag', 'ok github.com/spf13/pflag'],
    ['test-ctest-pass-cjson', '100% tests passed, 0 tests failed out of 19'],
    ['test-cargo-test-pass-rust-fnv', '4 passed; 0 failed'],
  ])('%s keeps its counts', (id, summary) => {
    expect(shown(measure(loadCorpusCase(id)))).toContain(summary);
  });

  it('drops dependency frames but keeps the test file frames', () => {
    const text = shown(measure(loadCorpusCase('test-npm-test-fail-express')));
    expect(text).not.toContain('node_modules/supertest');
    expect(text).not.toContain('node:internal');
    expect(text).toContain('at Context.<anonymous> (test/res.links.js:21:8)');
  });
});

describe('build', () => {
  it('groups tsc diagnostics by file and code', () => {
    const text = shown(measure(loadCorpusCase('build-tsc-noemit-errors-path-to-regexp')));
    expect(text).toMatch(/^src\/cases\.spec\.ts \(218\):$/m);
    expect(text).toMatch(/TS2353 ×218: Object literal may only specify known properties/);
    expect(text).toContain("      Property 'parameters' is missing in type");
  });

  it('folds make and cmake progress', () => {
    expect(shown(measure(loadCorpusCase('logs-cmake-build-progress-cjson')))).toMatch(/^\[\d+ build steps\]$/m);
    expect(shown(measure(loadCorpusCase('build-cmake-configure-cjson')))).toContain('-- Build files have been written to');
  });
});

describe('pkg', () => {
  it('folds npm verbose noise but keeps the outcome', () => {
    const m = measure(loadCorpusCase('build-npm-install-verbose-path-to-regexp'));
    expect(shown(m)).toContain('added 209 packages in 48s');
    expect(shown(m)).not.toContain('npm http fetch');
  });

  it('groups pip show files by directory', () => {
    expect(shown(measure(loadCorpusCase('build-pip-show-more-itertools')))).toMatch(/^_pytest\/__pycache__\/: /m);
  });
});

describe('read', () => {
  it('never drops code: the corpus files are shown as they are', () => {
    for (const { c, m } of corpus) if (c.category === 'read') expect(m.view, c.id).toBeNull();
  });

  it('never rewrites a read itself, even of a large repetitive file: the content policy decides (src/compress/policy.ts)', () => {
    const stdout = `${'const a = 1;   \n'}${'\n'.repeat(50)}${'x\n'.repeat(200)}${Array.from({ length: 800 }, (_, i) => `line ${i}\n`).join('')}`;
    const view = measure({ ...loadCorpusCase('read-cat-package-json-express'), stdout, stderr: '', stdoutBytes: Buffer.from(stdout) }).view;
    expect(view).toBeNull();
  });
});

describe('container', () => {
  it('compacts docker ps columns, keeping empty cells', () => {
    const stdout = [
      'CONTAINER ID   IMAGE          COMMAND                  CREATED        STATUS        PORTS                  NAMES',
      'a1b2c3d4e5f6   nginx:latest   "/docker-entrypoint.…"   2 hours ago    Up 2 hours    0.0.0.0:80->80/tcp     web',
      'b2c3d4e5f6a1   redis:7        "docker-entrypoint.s…"   3 hours ago    Up 3 hours                           cache',
      '',
    ].join('\n');
    const row = 'b2c3d4e5f6a1\tredis:7\t"docker-entrypoint.s…"\t3 hours ago\tUp 3 hours\t\tcache';
    expect(compactListing(stdout)?.split('\n')[2]).toBe(row);
    // With 3-space gutters a tab costs the model about what the padding did (o200k), so this view would not pay for
    // its retrieval line; padded as widely as older docker releases did (20-wide columns) it does.
    const c = { ...loadCorpusCase('fs-ls-pflag'), command: 'docker ps', stdout, stdoutBytes: Buffer.from(stdout) };
    expect(measure(c).view).toBeNull();
    const wide = table((compactListing(stdout) ?? '').trimEnd().split('\n').map((line) => line.split('\t')), 14);
    const view = measure({ ...c, stdout: wide, stdoutBytes: Buffer.from(wide) }).view;
    expect(view?.stdout.text.split('\n')[2]).toBe(row);
  });

  const cells = [['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], ['web-7d9c6b5f4-abcde', '1/1', 'Running', '0', '2d'], ['db-0', '0/1', 'Pending', '3 (5m ago)', '5m']];
  // kubectl pads each column to its widest cell plus a gutter of three spaces (`gutter` widens it).
  const table = (rows: string[][], gutter = 3): string => {
    const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
    return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + gutter))).join('')).join('\n') + '\n';
  };
  const pods = table(cells);
  const apply = (argv: string[], stdout: string) => applyFilter(findFilter(argv), { argv, stdout, stderr: '', exitCode: 0 });

  it('kubectl get: wider padding gives the same cells, a cell with one space stays whole, one row compacts only when it pays', () => {
    const tsv = 'NAME\tREADY\tSTATUS\tRESTARTS\tAGE\nweb-7d9c6b5f4-abcde\t1/1\tRunning\t0\t2d\ndb-0\t0/1\tPending\t3 (5m ago)\t5m\n';
    expect(compactListing(pods)).toBe(tsv);
    // kubectl's 3-space gutters: the tabs would cost what the padding did, so no view (see compactTable).
    expect(apply(['kubectl', 'get', 'pods'], pods)).toBeNull();
    const view = apply(['kubectl', 'get', 'pods'], table(cells, 20));
    expect(view?.stdout.lossy).toBe(true);
    expect(view?.stdout.text).toBe(tsv);
    expect(apply(['kubectl', 'get', 'pods'], table(cells, 30))?.stdout.text).toBe(tsv);
    // One short row saves less than its retrieval line costs: the filter declines rather than grow the output.
    expect(apply(['kubectl', 'get', 'pods'], table(cells.slice(0, 2)))).toBeNull();
    const wide = [['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'], ['web-7d9c6b5f4-abcde', '1/1', 'Running', '0', '2d', '10.244.0.12', 'kind-control-plane', '<none>', '<none>']];
    expect(apply(['kubectl', 'get', 'pods', '-o', 'wide'], table(wide, 12))?.stdout.text).toBe(`${wide.map((row) => row.join('\t')).join('\n')}\n`);
  });

  it('declines what is not an aligned table: CRLF, tabs, a message, structured output', () => {
    expect(apply(['kubectl', 'get', 'pods'], pods.replaceAll('\n', '\r\n'))).toBeNull();
    expect(apply(['kubectl', 'get', 'pods'], pods.replaceAll('   ', '\t'))).toBeNull();
    expect(apply(['kubectl', 'get', 'pods'], 'No resources found in default namespace.\n')).toBeNull();
    expect(apply(['kubectl', 'get', 'pods', '-o', 'yaml'], pods)).toBeNull();
  });
});
