import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_CASES_DIR } from './fixtures.ts';

/** Fixed identity and clock so two copies of the repository produce identical commits and listings. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Fixture Author',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture Author',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
  GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
} as const;

/**
 * A small real project: source files taken from the corpus (express's lib), a passing and a failing node:test
 * file, three commits, then staged, unstaged and untracked changes.
 */
export function buildFixtureRepo(dir: string): void {
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, stdio: 'ignore' });
  };
  mkdirSync(join(dir, 'lib'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  const response = readFileSync(join(CORPUS_CASES_DIR, 'read-cat-response-express', 'stdout.txt'), 'utf8');
  const application = readFileSync(join(CORPUS_CASES_DIR, 'read-sed-application-express', 'stdout.txt'), 'utf8');
  writeFileSync(join(dir, 'lib', 'response.js'), response);
  writeFileSync(join(dir, 'lib', 'application.js'), application);
  writeFileSync(join(dir, 'README.md'), '# fixture\n\nA small project for differential tests.\n');
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts: { test: 'node --test test/pass.test.mjs' } }, null, 2)}\n`,
  );
  const passing = Array.from({ length: 30 }, (_, i) => `test('adds ${i}', () => assert.equal(${i} + 1, ${i + 1}));`).join('\n');
  writeFileSync(join(dir, 'test', 'pass.test.mjs'), `import test from 'node:test';\nimport assert from 'node:assert';\n${passing}\n`);
  writeFileSync(
    join(dir, 'test', 'fail.test.mjs'),
    `import test from 'node:test';\nimport assert from 'node:assert';\n${passing}\ntest('status range', () => assert.equal(600 > 599, false, 'status code out of range'));\n`,
  );
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial import');
  writeFileSync(join(dir, 'README.md'), '# fixture\n\nA small project for differential tests.\n\nMore words.\n');
  git('commit', '-q', '-am', 'expand readme');
  writeFileSync(join(dir, 'lib', 'application.js'), application.replace('app.init', 'app.initialise'));
  git('commit', '-q', '-am', 'rename init');
  git('stash', 'list');
  // Working-tree state: one staged, two unstaged, two untracked.
  writeFileSync(join(dir, 'README.md'), '# fixture\n\nStaged change.\n');
  git('add', 'README.md');
  writeFileSync(join(dir, 'lib', 'response.js'), response.replace('res.status', 'res.statusCode'));
  writeFileSync(join(dir, 'package.json'), readFileSync(join(dir, 'package.json'), 'utf8').replace('1.0.0', '1.0.1'));
  writeFileSync(join(dir, 'notes.txt'), 'untracked notes\n');
  mkdirSync(join(dir, 'scratch'));
  writeFileSync(join(dir, 'scratch', 'tmp.js'), 'console.log(1)\n');
}

/** A second, identical copy (mtimes included, so `ls -l` agrees). */
export function copyFixture(from: string, to: string): void {
  cpSync(from, to, { recursive: true, preserveTimestamps: true });
}
