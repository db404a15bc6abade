import { Box, Text, renderToString } from 'ink';

/** One column of a stats table. */
export interface StatsColumn {
  /** Header text. */
  readonly header: string;
  /** Right-aligned (numbers) or left-aligned (names). */
  readonly align: 'left' | 'right';
  /** Widest a cell may be; longer text is cut with an ellipsis. */
  readonly max?: number;
}

/** A titled table, one-shot rendered. */
export interface StatsSection {
  readonly title: string;
  readonly columns: readonly StatsColumn[];
  /** Cells already formatted as text, one array per row. */
  readonly rows: readonly (readonly string[])[];
  /** Shown dimmed under the table when there are no rows. */
  readonly empty?: string;
}

export interface StatsReportProps {
  readonly sections: readonly StatsSection[];
  /** Plain lines before the tables (status facts). */
  readonly header?: readonly string[];
  /** Dimmed lines after the tables: how the numbers were obtained. */
  readonly notes?: readonly string[];
}

const fit = (text: string, width: number): string => (text.length > width ? `${text.slice(0, Math.max(1, width - 1))}…` : text);

function widths(section: StatsSection): number[] {
  return section.columns.map((column, i) => {
    const widest = Math.max(column.header.length, ...section.rows.map((row) => (row[i] ?? '').length));
    return Math.min(widest, column.max ?? 60);
  });
}

function line(cells: readonly string[], section: StatsSection, sizes: readonly number[]): string {
  return section.columns
    .map((column, i) => {
      const width = sizes[i] ?? 0;
      const cell = fit(cells[i] ?? '', width);
      return column.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
    })
    .join('  ')
    .trimEnd();
}

function Section({ section }: { readonly section: StatsSection }) {
  const sizes = widths(section);
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text bold>{section.title}</Text>
      <Text dimColor>{line(section.columns.map((column) => column.header), section, sizes)}</Text>
      {section.rows.length === 0 ? <Text dimColor>{section.empty ?? '(none)'}</Text> : null}
      {section.rows.map((row, i) => (
        <Text key={i}>{line(row, section, sizes)}</Text>
      ))}
    </Box>
  );
}

function StatsReport({ sections, header, notes }: StatsReportProps) {
  return (
    <Box flexDirection="column">
      {header !== undefined && header.length > 0 ? (
        <Box flexDirection="column" marginBottom={1}>
          {header.map((text, i) => (
            <Text key={i}>{text}</Text>
          ))}
        </Box>
      ) : null}
      {sections.map((section, i) => (
        <Section key={i} section={section} />
      ))}
      {(notes ?? []).map((text, i) => (
        <Text key={i} dimColor>
          {text}
        </Text>
      ))}
    </Box>
  );
}

/** One-shot render of a report: nothing in `stats` is interactive. */
export function renderStatsReport(props: StatsReportProps, columns = 160): string {
  return `${renderToString(<StatsReport {...props} />, { columns })}\n`;
}
