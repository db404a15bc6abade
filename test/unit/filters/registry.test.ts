import { describe, expect, it } from 'vitest';
import { FILTERS, findFilter, genericFilter } from '../../../src/filters/registry.ts';
import { applyFilter } from '../../helpers/streams.ts';

describe('findFilter', () => {
  it.each([
    [['git', 'status'], 'git-status'],
    [['git', '-C', 'repo', '--no-pager', 'log', '-n', '3'], 'git-log'],
    [['git', 'diff', '--staged'], 'git-diff'],
    [['git', 'show', 'HEAD'], 'git-show'],
    [['git', 'push'], 'git-write'],
    [['git', 'grep', '-n', 'x'], 'search'],
    [['npx', 'vitest', 'run'], 'vitest'],
    [['./node_modules/.bin/jest'], 'jest'],
    [['npx', 'mocha', 'test/'], 'mocha'],
    [['npm', 'test'], 'script-test'],
    [['npm', 'run', 'test:unit'], 'script-test'],
    [['make', 'test'], 'script-test'],
    [['python', '-m', 'pytest'], 'pytest'],
    [['python3', '-m', 'unittest', 'tests'], 'unittest'],
    [['go', 'test', './...'], 'go-test'],
    [['cargo', 'test'], 'cargo-test'],
    [['ctest', '--test-dir', 'build'], 'ctest'],
    [['npx', 'tsc', '--noEmit'], 'tsc'],
    [['npx', 'eslint', '.'], 'eslint'],
    [['ruff', 'check', '.'], 'py-lint'],
    [['go', 'vet', './...'], 'go-build'],
    [['cargo', 'clippy'], 'cargo-build'],
    [['make'], 'make'],
    [['cmake', '--build', 'build'], 'cmake'],
    [['npm', 'run', 'build'], 'script'],
    [['ls', '-la'], 'ls'],
    [['find', '.', '-name', '*.ts'], 'find'],
    [['tree', '-L', '2'], 'tree'],
    [['wc', '-l', 'a', 'b'], 'wc'],
    [['du', '-sh', '*'], 'du'],
    [['grep', '-rn', 'x', '.'], 'search'],
    [['rg', '-l', 'x'], 'search'],
    [['cat', 'src/index.ts'], 'read'],
    [['sed', '-n', '1,20p', 'f'], 'read'],
    [['npm', 'install'], 'pkg'],
    [['pip', 'list'], 'pkg'],
    [['docker', 'ps'], 'container'],
    [['kubectl', 'get', 'pods'], 'container'],
    [['curl', '-s', 'https://example.com'], 'json'],
    [['npm', 'view', 'express', '--json'], 'json'],
    [['gh', 'pr', 'list', '--json', 'title'], 'json'],
  ])('%j -> %s', (argv, name) => {
    expect(findFilter(argv)?.name).toBe(name);
  });

  it.each([[['echo', 'hi']], [['sed', '-i', 's/a/b/', 'f']], [['node', 'script.js']], [[]], [['tail', '-f', 'log']]])(
    'matches nothing for %j',
    (argv) => {
      expect(findFilter(argv)).toBeNull();
    },
  );

  it('keeps the generic fallback out of the table', () => {
    expect(FILTERS.map((f) => f.name)).not.toContain(genericFilter.name);
  });

  it('turns a filter that throws into null', () => {
    const odd = { argv: ['git', 'status'], stdout: '\u0000'.repeat(10), stderr: '', exitCode: 0 };
    for (const filter of FILTERS) expect(() => applyFilter(filter, { ...odd, argv: ['x'] })).not.toThrow();
  });

  it('makes json commands the JSON compressor\'s business', () => {
    const output = { argv: ['npm', 'view', 'express', '--json'], stdout: `${JSON.stringify({ a: 1 }, null, 2)}\n`.repeat(50), stderr: '', exitCode: 0 };
    expect(applyFilter(findFilter(output.argv), output)).toBeNull();
  });
});

describe('genericFilter', () => {
  it('strips colours and progress redraws and folds repeated lines', () => {
    const stdout = `\u001b[32mstart\u001b[39m\n${'progress 10%\rprogress 50%\rprogress 100%\n'}${'same line\n'.repeat(40)}${Array.from({ length: 30 }, (_, i) => `fetched ${i} of 30\n`).join('')}done\n`;
    const view = applyFilter(genericFilter, { argv: ['x'], stdout, stderr: '', exitCode: 0 });
    expect(view?.stdout.lossy).toBe(true);
    expect(view?.stdout.text).toBe('start\nprogress 100%\nsame line ×40\nfetched 0 of 30\n… 28 more like this …\nfetched 29 of 30\ndone\n');
  });
});
