import { Box, Text, renderToString } from 'ink';

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

const percent = (before: number, after: number): string =>
  before === 0 ? '0%' : `${(((before - after) / before) * 100).toFixed(1)}%`;

const pad = (text: string, width: number): string => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));

function SavingsTable({ title, rows, tokenNote }: SavingsTableProps) {
  const before = rows.reduce((sum, row) => sum + row.beforeTokens, 0);
  const after = rows.reduce((sum, row) => sum + row.afterTokens, 0);
  return (
    <Box flexDirection="column">
      <Text bold>{title}</Text>
      <Text dimColor>{`${pad('command', 44)} ${pad('filter', 22)} ${'before'.padStart(7)} ${'after'.padStart(7)} ${'saved'.padStart(7)}  recovery`}</Text>
      {rows.map((row) => (
        <Text key={row.label}>
          {`${pad(row.label, 44)} ${pad(row.operation ?? '-', 22)} ${String(row.beforeTokens).padStart(7)} ${String(row.afterTokens).padStart(7)} `}
          <Text color={row.afterTokens < row.beforeTokens ? 'green' : undefined}>{percent(row.beforeTokens, row.afterTokens).padStart(7)}</Text>
          {`  ${row.recoverability}`}
        </Text>
      ))}
      <Text bold>{`${pad('total', 44)} ${pad('', 22)} ${String(before).padStart(7)} ${String(after).padStart(7)} ${percent(before, after).padStart(7)}`}</Text>
      <Text dimColor>{tokenNote}</Text>
    </Box>
  );
}

/** One-shot render: nothing here is interactive. */
export function renderSavingsTable(props: SavingsTableProps, columns = 110): string {
  return renderToString(<SavingsTable {...props} />, { columns });
}
