import { Box, Text, renderToString } from 'ink';
import { terminalWidth } from '../shared/terminal.ts';
import { fitTable, tableLine, type FitColumn } from './fit.ts';

/** One column of a stats table (fit.ts: how it is cut or dropped when the width is short). */
export type StatsColumn = FitColumn;

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

function Section({ section, width }: { readonly section: StatsSection; readonly width: number }) {
  const fitted = fitTable(section.columns, section.rows, width);
  const line = (cells: readonly string[]): string => tableLine(cells, section.columns, fitted, width);
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text bold>{section.title}</Text>
      <Text dimColor>{line(section.columns.map((column) => column.header))}</Text>
      {section.rows.length === 0 ? <Text dimColor>{section.empty ?? '(none)'}</Text> : null}
      {section.rows.map((row, i) => (
        <Text key={i}>{line(row)}</Text>
      ))}
    </Box>
  );
}

function StatsReport({ sections, header, notes, width }: StatsReportProps & { readonly width: number }) {
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
        <Section key={i} section={section} width={width} />
      ))}
      {(notes ?? []).map((text, i) => (
        <Text key={i} dimColor>
          {text}
        </Text>
      ))}
    </Box>
  );
}

/** One-shot render of a report for the terminal's width: rows are fitted, prose lines wrap between words. */
export function renderStatsReport(props: StatsReportProps, columns = terminalWidth()): string {
  return `${renderToString(<StatsReport {...props} width={columns} />, { columns })}\n`;
}
