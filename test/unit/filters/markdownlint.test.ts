/**
 * markdownlint recognised by its output alone (`npm run lint:md`, `make docs`, a script): its `file:line[:col]
 * [error] MD013/line-length message` lines route to the line-diagnostics view, which keeps every rule, location and
 * message and stashes the raw bytes. Fixtures: test/fixtures/markdownlint (SOURCES.md: three projects,
 * markdownlint-cli 0.50.0 and markdownlint-cli2 0.24.1).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recognise, recognisedView } from '../../../src/filters/recognise.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import { stripAnsi } from '../../../src/filters/text.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { ROOT } from '../../helpers/root.ts';
import { DEFAULT_CONTEXT } from '../../helpers/streams.ts';

const DIR = join(ROOT, 'test', 'fixtures', 'markdownlint');
const CASES = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const read = (name: string, file: string): string => (existsSync(join(DIR, name, file)) ? readFileSync(join(DIR, name, file), 'utf8') : '');

function load(name: string): CommandOutput {
  return { argv: ['./scripts/lint-docs.sh'], stdout: read(name, 'stdout.txt'), stderr: read(name, 'stderr.txt'), exitCode: Number(read(name, 'exit_code').trim()) };
}

/** Every problem the raw output names: `file line[:col] rule` and its message, read with this test's own pattern. */
function rawProblems(text: string): { file: string; location: string; rule: string; message: string }[] {
  return stripAnsi(text)
    .split('\n')
    .map((line) => /^(\S+?):(\d+(?::\d+)?) (?:error |warning )?(MD\d{3}\/[\w/-]+) (.*)$/.exec(line.replace(/\r$/, '')))
    .filter((m) => m !== null)
    .map((m) => ({ file: m[1] ?? '', location: m[2] ?? '', rule: m[3] ?? '', message: m[4] ?? '' }));
}

const PERTURB: Readonly<Record<string, (text: string) => string>> = {
  none: (text) => text,
  colour: (text) => text.split('\n').map((line) => (line === '' ? line : `\x1b[31m${line}\x1b[0m`)).join('\n'),
  crlf: (text) => text.replace(/\n/g, '\r\n'),
  'leading warning': (text) => `npm warn config production Use \`--omit=dev\` instead.\n${text}`,
  cut: (text) => `${text.split('\n').slice(0, 40).join('\n')}\n`,
};

describe('markdownlint by content', () => {
  it('has real outputs of three projects from two versions', () => {
    expect(CASES.filter((c) => c.startsWith('cli-')).length).toBeGreaterThanOrEqual(3);
    expect(CASES.filter((c) => c.startsWith('cli2-')).length).toBeGreaterThanOrEqual(3);
  });

  for (const name of CASES) {
    for (const [how, perturb] of Object.entries(PERTURB)) {
      it(`${name} (${how}): recognised, not longer, every rule, location and message kept, raw bytes stashed`, () => {
        const raw = load(name);
        const output = { ...raw, stderr: perturb(raw.stderr) };
        expect(recognise(output.stdout, output.stderr)[0]?.filter.name).toBe('markdownlint');
        const view = recognisedView(output, DEFAULT_CONTEXT);
        expect(view).not.toBeNull();
        if (view === null) return;
        const shownText = stripAnsi(`${view.stdout}\n${view.stderr}`);
        expect(view.stdout.length + view.stderr.length).toBeLessThanOrEqual(output.stdout.length + output.stderr.length);
        const expected = rawProblems(output.stderr);
        expect(expected.length).toBeGreaterThan(0);
        for (const p of expected) {
          const row = shownText.split('\n').find((line) => line.includes(p.rule) && line.includes(p.message) && new RegExp(`(?:^|[\\s,])${p.location}\\b`).test(line));
          expect(row, `${p.file}:${p.location} ${p.rule} ${p.message}`).toBeDefined();
        }
        if (how === 'leading warning') expect(shownText).toContain('npm warn config production');
        const stashed = view.stash.map((entry) => Buffer.from(entry.bytes).toString('utf8'));
        expect(stashed).toContain(output.stderr);
      });
    }
  }

  it('is the view of `markdownlint` and `markdownlint-cli2` by name too', () => {
    expect(findFilter(['markdownlint', 'README.md'])?.name).toBe('markdownlint');
    expect(findFilter(['markdownlint-cli2', '**/*.md'])?.name).toBe('markdownlint');
  });

  it('declines what is not markdownlint', () => {
    const flake8 = 'app.py:3:1: E302 expected 2 blank lines\napp.py:9:80: E501 line too long\n';
    const prose = 'See notes.md:12 MD013 for why we allow long lines.\n';
    expect(recognise(flake8, '').map((r) => r.filter.name)).not.toContain('markdownlint');
    expect(recognise(prose, '').map((r) => r.filter.name)).not.toContain('markdownlint');
  });
});
