/**
 * The README's first screen (issue 18): what the tool does, the two commands, how to turn it on for Claude Code, and
 * the file `syt init` really writes; one "Honest accounting" section, so two cannot disagree. And every repository
 * path the README and docs/ name exists, so a move cannot leave a reader at a file that is gone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsPath } from '../../../src/harness/claude-code/paths.ts';
import { ROOT } from '../../helpers/root.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const firstScreen = README.slice(0, README.indexOf('\n## How it works'));

describe('README', () => {
  it('the first screen says what it does, the two commands and how to turn it on', () => {
    expect(firstScreen.split('\n').length).toBeLessThan(45);
    expect(firstScreen).toMatch(/cuts the tokens coding agents/);
    expect(firstScreen).toMatch(/## Two commands\n[\s\S]*npm ci && npm run demo[\s\S]*npm test/);
    expect(firstScreen).toMatch(/## Turn it on for Claude Code\n[\s\S]*syt init[\s\S]*syt doctor/);
  });

  it('names the file a project install writes', () => {
    const written = settingsPath('project', '', {});
    expect(written).toBe('.claude/settings.local.json');
    expect(firstScreen).toMatch(new RegExp(`^syt init .*# .*${written.replaceAll('.', '\\.')}`, 'm'));
  });

  it('has one section on honest accounting', () => {
    expect(README.match(/^#+ Honest accounting$/gm)).toHaveLength(1);
  });
});

/** Repository paths named in a Markdown text; placeholders (`<name>`, globs) and a person's own files are left out. */
function namedPaths(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split('\n')) {
    // `syt chunk docs/handbook.md`: an example command's arguments are the reader's files, not ours.
    if (/^\s*(\$ )?(syt|tokenless) /.test(line)) continue;
    for (const match of line.matchAll(/(?<![\w./-])((?:src|commands|hooks|test|scripts|docs|examples|assets|sea)\/[\w./<>*{},…-]*)/g)) {
      const path = (match[1] ?? '').replace(/[.,]+$/, '');
      if (!/[<>*{}…]/.test(path)) paths.push(path);
    }
  }
  return paths;
}

describe('paths in README.md and docs/', () => {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.md')).map((name) => join('docs', name));
  it.each(['README.md', ...docs])('every path %s names exists', (file) => {
    const paths = namedPaths(readFileSync(join(ROOT, file), 'utf8'));
    if (file === 'docs/architecture.md') expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});
