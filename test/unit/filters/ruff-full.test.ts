/**
 * Ruff's default full output format: real reports of three projects (test/fixtures/ruff-full/SOURCE.md), recognised by
 * content and by name, every diagnostic's code, location and help kept, the code frames and fix previews folded.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pyLintFilter } from '../../../src/filters/build/index.ts';
import { RUFF_ARROW, RUFF_HEADER } from '../../../src/filters/build/ruff.ts';
import { recognise, recognisedView } from '../../../src/filters/recognise.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { ROOT } from '../../helpers/root.ts';
import { DEFAULT_CONTEXT } from '../../helpers/streams.ts';

const DIR = join(ROOT, 'test', 'fixtures', 'ruff-full');
const REPORTS = readdirSync(DIR).filter((name) => name.endsWith('.txt'));

/** Each diagnostic of the raw report: its code, file, `line:col` and help lines. */
function diagnosticsOf(text: string): { code: string; file: string; at: string; help: string[] }[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => {
    const header = RUFF_HEADER.exec(line);
    const arrow = RUFF_ARROW.exec(lines[i + 1] ?? '');
    if (header === null || arrow === null) return [];
    const help: string[] = [];
    for (let k = i + 2; k < lines.length && !RUFF_HEADER.test(lines[k] ?? ''); k++) if (/^help: /.test(lines[k] ?? '')) help.push(lines[k] ?? '');
    return [{ code: header[1] ?? header[3] ?? '', file: arrow[1] ?? '', at: `${arrow[2]}:${arrow[3]}`, help }];
  });
}

describe('ruff, full output format', () => {
  it('has real reports of three projects', () => {
    expect(new Set(REPORTS.map((name) => name.split(/[-.]/)[0])).size).toBeGreaterThanOrEqual(3);
  });

  for (const name of REPORTS) {
    const text = readFileSync(join(DIR, name), 'utf8');
    const output: CommandOutput = { argv: ['./scripts/lint.sh'], stdout: text, stderr: '', exitCode: 1 };

    it(`${name}: recognised by content, and viewed the same by name`, () => {
      expect(recognise(text, '')[0]?.filter.name).toBe('py-lint');
      const byContent = recognisedView(output, DEFAULT_CONTEXT);
      const byName = pyLintFilter.apply({ ...output, argv: ['ruff', 'check', '.'] }, DEFAULT_CONTEXT);
      expect(byContent?.stdout).toBe(byName?.stdout);
    });

    it(`${name}: keeps every code, location and help line; folds frames and fix previews; stashes the original`, () => {
      const view = recognisedView(output, DEFAULT_CONTEXT);
      expect(view).not.toBeNull();
      if (view === null) return;
      const shown = view.stdout.split('\n');
      const found = diagnosticsOf(text);
      expect(found.length).toBeGreaterThan(5);
      for (const d of found) {
        // Grouped by file: the location is on a line after the file's header (`path (n):`), with its code.
        const fileAt = shown.findIndex((line) => line.startsWith(`${d.file} (`));
        expect(fileAt, `${d.file}`).toBeGreaterThanOrEqual(0);
        expect(shown.slice(fileAt).some((line) => line.includes(d.at) && line.includes(d.code)), `${d.file}:${d.at} ${d.code}`).toBe(true);
        for (const help of d.help) expect(shown, help).toContain(help);
      }
      for (const line of text.split('\n').filter((l) => /^(?:Found \d+ errors?|\[\*\] \d+ fixable|No fixes available)/.test(l))) expect(shown).toContain(line);
      expect(shown.filter((line) => /^ *\d+ \| /.test(line))).toEqual([]);
      expect(view.stash.map((entry) => Buffer.from(entry.bytes).toString('utf8'))).toContain(text);
      expect(view.stdout.length).toBeLessThan(text.length * 0.4);
    });
  }
});
