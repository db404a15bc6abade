import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../helpers/fixtures.ts';
import { measure } from './corpus.ts';

const measured = loadCorpus().map(measure);

describe('filters on the whole corpus', () => {
  it.each(measured.filter((m) => m.view !== null).map((m) => [m.id, m] as const))('%s: the view is shorter, marker included', (_, m) => {
    expect(m.after).toBeLessThan(m.before);
    expect(m.afterBytes).toBeLessThan(m.beforeBytes);
  });

  it('reports savings per category', () => {
    const rows = new Map<string, { before: number; after: number; cases: number; filtered: number }>();
    for (const m of measured) {
      const row = rows.get(m.category) ?? { before: 0, after: 0, cases: 0, filtered: 0 };
      row.before += m.before;
      row.after += m.after;
      row.cases++;
      if (m.view !== null) row.filtered++;
      rows.set(m.category, row);
    }
    const lines = [...rows].map(([cat, r]) => `${cat.padEnd(8)} ${String(r.filtered).padStart(3)}/${r.cases} ${r.before} -> ${r.after} (${(100 - (100 * r.after) / r.before).toFixed(1)}%)`);
    if (process.env['FILTER_REPORT'] !== undefined) {
      const perCase = measured.map((m) => `${m.id.padEnd(50)} ${String(m.filter).padEnd(12)} ${m.before} -> ${m.after} (${(100 - (100 * m.after) / Math.max(1, m.before)).toFixed(0)}%)`);
      console.log([...perCase, ...lines].join('\n'));
    }
    expect(lines.length).toBeGreaterThan(0);
  });
});
