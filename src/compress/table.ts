import { alignedToTsv } from '../reduce/aligned-table.ts';
import { exactOrStashed } from './inverse.ts';
import { withWholeOriginal } from './view.ts';
import type { Compressor } from './types.ts';

/**
 * Tables. Two rewrites, each proposed only when it changes something (the runtime keeps it only when strictly
 * shorter): CSV loses quotes no field needs (`csv_compact`: lossless when the original quoted every field, whose
 * inverse is quoting every field again; otherwise which fields were quoted is lost, so the original is stashed),
 * and space-aligned columns become tab-separated cells (`table_compact`: the padding widths are gone, so it is
 * always retrievable). TOON's tabular form is not offered: for a table it is CSV plus a header line and
 * indentation, so never shorter than compact CSV.
 */
export const compactTable: Compressor = (input) => {
  const text = input.content;
  const csv = compactCsv(text);
  if (csv !== null) return csv === text ? null : exactOrStashed(text, csv, ['csv_compact'], 'CSV quotes removed');
  const aligned = alignedToTsv(text);
  return aligned === null ? null : withWholeOriginal(text, aligned, ['table_compact'], 'column padding replaced by tabs');
};

/** RFC 4180 rows of `text` with their line endings, or null when quoting is unbalanced or rows disagree in width. */
export function parseCsv(text: string): { rows: string[][]; quotedRows: boolean[][]; endings: string[] } | null {
  const rows: string[][] = [];
  const quotedRows: boolean[][] = [];
  let quotedRow: boolean[] = [];
  const endings: string[] = [];
  let row: string[] = [];
  let field = '';
  // Whether the current field was quoted: a quoted empty field is still a field.
  let quoted = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === '"' && field === '' && !quoted) {
      const close = closingQuote(text, i);
      if (close < 0) return null;
      field = text.slice(i + 1, close).replaceAll('""', '"');
      i = close + 1;
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') return null;
      quoted = true;
      continue;
    }
    if (ch === ',') {
      row.push(field);
      quotedRow.push(quoted);
      field = '';
      quoted = false;
      i++;
    } else if (ch === '\n' || (ch === '\r' && text[i + 1] === '\n')) {
      row.push(field);
      quotedRow.push(quoted);
      rows.push(row);
      quotedRows.push(quotedRow);
      endings.push(ch === '\r' ? '\r\n' : '\n');
      row = [];
      quotedRow = [];
      field = '';
      quoted = false;
      i += ch === '\r' ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || quoted || row.length > 0) {
    row.push(field);
    quotedRow.push(quoted);
    rows.push(row);
    quotedRows.push(quotedRow);
    endings.push('');
  }
  const width = rows[0]?.length ?? 0;
  if (width < 2 || rows.length < 2 || rows.some((r) => r.length !== width)) return null;
  return { rows, quotedRows, endings };
}

function closingQuote(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return -1;
    if (text[quote + 1] === '"') {
      i = quote + 2;
      continue;
    }
    return quote;
  }
}

/** CSV with each field quoted only when it must be; null when the text is not well-formed CSV. */
export function compactCsv(text: string): string | null {
  if (!text.includes(',')) return null;
  const parsed = parseCsv(text);
  if (parsed === null) return null;
  const { rows, quotedRows, endings } = parsed;
  return rows
    .map((row, r) => row.map((field, f) => quoteIfNeeded(field, quotedRows[r]?.[f] ?? false)).join(',') + (endings[r] ?? ''))
    .join('');
}

function quoteIfNeeded(field: string, wasQuoted: boolean): string {
  // A quoted field with edge spaces stays quoted: some readers trim unquoted fields. An empty quoted field in a
  // one-field row would become an empty line, but rows have 2+ fields here.
  const must = /[",\r\n]/.test(field) || (wasQuoted && /^\s|\s$/.test(field));
  return must ? `"${field.replaceAll('"', '""')}"` : field;
}
