/**
 * The README's first screen (issue 18): what the tool does, the two commands, how to turn it on for Claude Code, and
 * the file `syt init` really writes; one "Honest accounting" section, so two cannot disagree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsPath } from '../../../src/harness/claude-code/settings.ts';
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
