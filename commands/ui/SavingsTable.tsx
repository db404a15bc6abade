import { int } from './format.ts';
import { renderStatsReport } from './StatsTable.tsx';

/** One row of a before/after savings table. */
export interface SavingsRow {
  /** What was run, as the agent typed it. */
  readonly label: string;
  /** Name of the filter or operations applied, or null when the output was kept. */
  readonly operation: string | null;
  readonly beforeTokens: number;
  readonly afterTokens: number;
  /** `lossless`, `retrievable`, or `unchanged`. */
  readonly recoverability: string;
}

export interface SavingsTableProps {
  readonly title: string;
  readonly rows: readonly SavingsRow[];
  /** Stated under the table: which tokenizer produced the figures. */
  readonly tokenNote: string;
}

const percent = (before: number, after: number): string => (before === 0 ? '0.0%' : `${(((before - after) / before) * 100).toFixed(1)}%`);

/** The demo's table: the command and filter names are cut first, then the recovery column goes (narrow terminals). */
export function renderSavingsTable({ title, rows, tokenNote }: SavingsTableProps, columns?: number): string {
  const before = rows.reduce((sum, row) => sum + row.beforeTokens, 0);
  const after = rows.reduce((sum, row) => sum + row.afterTokens, 0);
  const cells = (label: string, operation: string, b: number, a: number, recovery: string): string[] => [label, operation, int(b), int(a), percent(b, a), recovery];
  return renderStatsReport(
    {
      sections: [
        {
          title,
          columns: [
            { header: 'command', align: 'left', max: 44, min: 20 },
            { header: 'filter', align: 'left', max: 22, min: 10 },
            { header: 'before', align: 'right' },
            { header: 'after', align: 'right' },
            { header: 'saved', align: 'right' },
            { header: 'recovery', align: 'left', optional: 1 },
          ],
          rows: [...rows.map((row) => cells(row.label, row.operation ?? '-', row.beforeTokens, row.afterTokens, row.recoverability)), cells('total', '', before, after, '')],
        },
      ],
      notes: [tokenNote],
    },
    columns,
  );
}
