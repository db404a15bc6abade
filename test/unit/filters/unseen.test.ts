import { describe, expect, it } from 'vitest';
import { stripAnsi } from '../../../src/filters/text.ts';
import { errorMessages, failingTests, rawLocations, shows, showsMessage } from '../../helpers/diagnostics-check.ts';
import { type CorpusCase, loadCorpus } from '../../helpers/fixtures.ts';
import { loadUnseen } from '../../helpers/unseen.ts';
import { measure, type Measured } from './corpus.ts';

const FAMILIES = ['git', 'test', 'build'] as const;
const unseen = loadUnseen().map((c) => ({ c, m: measure(c) }));
const corpus = loadCorpus()
  .filter((c) => (FAMILIES as readonly string[]).includes(c.category))
  .map((c) => ({ c, m: measure(c) }));

function shownText(c: CorpusCase, m: Measured): string {
  return stripAnsi(m.view === null ? `${c.stdout}\n${c.stderr}` : `${m.view.stdout.text}\n${m.view.stderr.text}`);
}

const squash = (text: string): string => text.replace(/\s+/g, ' ');

/** What of a failing run's diagnostics the view still shows: locations, failing test names, error messages. */
function retention(rows: ReadonlyArray<{ c: CorpusCase; m: Measured }>): { total: number; kept: number; missing: string[] } {
  let total = 0;
  let kept = 0;
  const missing: string[] = [];
  for (const { c, m } of rows) {
    // Passing runs name no failure: their log lines (`go test -v`) are not diagnostics.
    if (c.category === 'git' || (c.exitCode === 0 && failingTests(c.stdout, c.stderr).length === 0 && !/\b(?:error|warning)\b/i.test(c.stderr + c.stdout))) continue;
    const view = shownText(c, m);
    const flat = squash(view);
    for (const location of rawLocations(c.stdout, c.stderr)) {
      total++;
      if (shows(view, location)) kept++;
      else missing.push(`${c.id}: ${location.file}:${location.line}`);
    }
    for (const fact of failingTests(c.stdout, c.stderr)) {
      total++;
      if (flat.includes(squash(fact))) kept++;
      else missing.push(`${c.id}: ${fact}`);
    }
    for (const fact of errorMessages(c.stdout, c.stderr)) {
      total++;
      if (showsMessage(view, fact)) kept++;
      else missing.push(`${c.id}: ${fact}`);
    }
  }
  return { total, kept, missing };
}

function savings(rows: ReadonlyArray<{ m: Measured }>): { before: number; after: number; saved: number } {
  const before = rows.reduce((n, { m }) => n + m.before, 0);
  const after = rows.reduce((n, { m }) => n + m.after, 0);
  return { before, after, saved: before === 0 ? 0 : 1 - after / before };
}

describe('git, test and build filters on outputs from projects never seen during development', () => {
  it('no view is larger than the raw output', () => {
    for (const { m } of [...unseen, ...corpus]) if (m.view !== null) expect(m.after, m.id).toBeLessThan(m.before);
  });

  it('keeps at least 95% of error locations, every failing test name and error message', () => {
    const r = retention([...unseen, ...corpus]);
    if (process.env['FILTER_REPORT'] !== undefined) console.log(`retention ${r.kept}/${r.total}\n${r.missing.join('\n')}`);
    expect(r.total).toBeGreaterThan(100);
    expect(r.kept / r.total).toBeGreaterThanOrEqual(0.95);
  });

  it('reports savings per family, corpus vs unseen', () => {
    const lines: string[] = [];
    for (const family of FAMILIES) {
      for (const [set, rows] of [['corpus', corpus], ['unseen', unseen]] as const) {
        const s = savings(rows.filter(({ c }) => c.category === family));
        lines.push(`${family.padEnd(6)} ${set.padEnd(7)} ${s.before} -> ${s.after} (${(100 * s.saved).toFixed(1)}%)`);
      }
    }
    if (process.env['FILTER_REPORT'] !== undefined) {
      console.log([...unseen.map(({ m }) => `${m.id.padEnd(44)} ${String(m.filter).padEnd(12)} ${m.before} -> ${m.after} (${(100 - (100 * m.after) / Math.max(1, m.before)).toFixed(0)}%)`), ...lines].join('\n'));
    }
    expect(lines).toHaveLength(6);
  });
});
