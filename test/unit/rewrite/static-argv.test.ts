import { describe, expect, it } from 'vitest';
import { staticArgv } from '../../../src/rewrite/static-argv.ts';

describe('staticArgv', () => {
  it.each([
    ['git status', ['git', 'status']],
    ['  npm   test  ', ['npm', 'test']],
    ['git log "a b" \'c\' d\\ e', ['git', 'log', 'a b', 'c', 'd e']],
    ['FOO=1 timeout 60 npm test', ['npm', 'test']],
    ['env A=1 nice -n 5 make', ['make']],
    ['git status 2>&1', ['git', 'status']],
    ['git log $REF', null],
    ['ls *.ts', null],
    ['ls && pwd', null],
    ['ls | head', null],
    ['(ls)', null],
    ['FOO=1', null],
    ['timeout 5', null],
    ['', null],
    ["echo 'open", null],
  ])('reads %j as %j', (command, argv) => {
    expect(staticArgv(command)).toEqual(argv);
  });
});
