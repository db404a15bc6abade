/**
 * Lays a table out for a given width without ever wrapping a row: names are abbreviated (cut with an ellipsis) down
 * to their minimum, then optional columns are dropped, least useful first. Numbers are never cut: a shortened number
 * is a wrong number. Pure, so the layout is tested apart from Ink.
 */
export interface FitColumn {
  readonly header: string;
  readonly align: 'left' | 'right';
  /** Widest a cell may be; longer text is cut with an ellipsis. */
  readonly max?: number;
  /** Narrowest a left-aligned column is cut to before columns are dropped (default: its header, at least 8). */
  readonly min?: number;
  /** Droppable when the width is short: lower ranks go first. Columns without a rank always stay. */
  readonly optional?: number;
}

export interface FittedTable {
  /** Indices of the columns shown, in their order. */
  readonly keep: readonly number[];
  /** Width of each shown column (same order as keep). */
  readonly widths: readonly number[];
}

export const GAP = 2;
const DEFAULT_MAX = 60;

export function fitTable(columns: readonly FitColumn[], rows: readonly (readonly string[])[], width: number): FittedTable {
  const natural = columns.map((column, i) => Math.min(Math.max(column.header.length, ...rows.map((row) => (row[i] ?? '').length)), Math.max(column.header.length, column.max ?? DEFAULT_MAX)));
  const minimum = columns.map((column, i) => (column.align === 'right' ? (natural[i] ?? 0) : Math.min(natural[i] ?? 0, column.min ?? Math.max(column.header.length, 8))));
  let keep = columns.map((_, i) => i);
  for (;;) {
    const total = (sizes: readonly number[]): number => keep.reduce((sum, i) => sum + (sizes[i] ?? 0), 0) + GAP * Math.max(0, keep.length - 1);
    if (total(natural) <= width) return { keep, widths: keep.map((i) => natural[i] ?? 0) };
    if (total(minimum) <= width) return { keep, widths: shrink(keep, natural, minimum, total(natural) - width) };
    const droppable = keep.filter((i) => columns[i]?.optional !== undefined).sort((a, b) => (columns[a]?.optional ?? 0) - (columns[b]?.optional ?? 0) || b - a);
    const next = droppable[0];
    if (next === undefined) return { keep, widths: keep.map((i) => minimum[i] ?? 0) };
    keep = keep.filter((i) => i !== next);
  }
}

/** Takes `excess` cells off the columns with the most room above their minimum, one cell at a time. */
function shrink(keep: readonly number[], natural: readonly number[], minimum: readonly number[], excess: number): number[] {
  const sizes = keep.map((i) => natural[i] ?? 0);
  const floors = keep.map((i) => minimum[i] ?? 0);
  for (let left = excess; left > 0; left -= 1) {
    let widest = -1;
    for (let k = 0; k < sizes.length; k += 1) if ((sizes[k] ?? 0) > (floors[k] ?? 0) && (widest < 0 || (sizes[k] ?? 0) > (sizes[widest] ?? 0))) widest = k;
    if (widest < 0) break;
    sizes[widest] = (sizes[widest] ?? 0) - 1;
  }
  return sizes;
}

/** A cell cut to `width` with an ellipsis when longer. */
export const cut = (text: string, width: number): string => (text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text);

/** One table line for a fitted layout; a line that still does not fit (every column at its minimum) is cut. */
export function tableLine(cells: readonly string[], columns: readonly FitColumn[], fitted: FittedTable, width: number): string {
  const text = fitted.keep
    .map((i, k) => {
      const size = fitted.widths[k] ?? 0;
      const cell = cut(cells[i] ?? '', size);
      return columns[i]?.align === 'right' ? cell.padStart(size) : cell.padEnd(size);
    })
    .join(' '.repeat(GAP))
    .trimEnd();
  return cut(text, width);
}
