/**
 * Record streams shown by their shape: JSON Lines as a schema with a few sample records and the record count, CSV
 * and TSV as the header, a few sample rows and the row count. Both are retrievable views (the whole original is
 * stashed and named in the last line); the runtime adopts them only when they pay for that line.
 */
import type { Candidate } from '../reduce/candidate.ts';
import { fieldCount } from './classify.ts';
import { parseJsonCached } from './json-scan.ts';
import { withWholeOriginal } from './view.ts';

/** Fewer records than this are shown whole: a schema would not be shorter than the records. */
const MIN_RECORDS = 8;
const HEAD_SAMPLES = 2;
const TAIL_SAMPLES = 1;
/** A sample record longer than this is cut; the whole record is in the stash. */
const SAMPLE_CHARS = 400;
/** Keys listed in the schema; more are counted. */
const MAX_KEYS = 40;
/** A string field with at most this many distinct values lists them with their counts. */
const MAX_ENUM_VALUES = 6;
const MAX_ENUM_CHARS = 40;

interface FieldStats {
  present: number;
  readonly types: Map<string, number>;
  /** Distinct short string values and their counts; null once there are too many to list. */
  values: Map<string, number> | null;
}

/** Lines before the first record that may be kept as printed (a warning, a banner). */
const MAX_LEADING_LINES = 3;

/**
 * The records of a JSON Lines text, with what stands around them: up to three leading lines that are not JSON, and
 * a last line cut short (`head -c`, a capture that stopped), both shown as printed.
 */
function splitRecords(content: string): { before: string; records: string; after: string } | null {
  let start = 0;
  for (let skipped = 0; skipped <= MAX_LEADING_LINES; skipped++) {
    const ch = content.slice(start).trimStart()[0];
    if (ch === '{' || ch === '[') break;
    const newline = content.indexOf('\n', start);
    if (newline < 0 || skipped === MAX_LEADING_LINES) return null;
    start = newline + 1;
  }
  const body = content.slice(start);
  if (parseJsonCached(body)?.kind === 'lines') return { before: content.slice(0, start), records: body, after: '' };
  const lastNewline = body.trimEnd().lastIndexOf('\n');
  if (lastNewline < 0) return null;
  return { before: content.slice(0, start), records: body.slice(0, lastNewline + 1), after: body.slice(lastNewline + 1) };
}

/** Operation `jsonl_schema`: a stream of JSON records as its fields, first and last records and the count. */
export function jsonLinesView(content: string): Candidate | null {
  const split = splitRecords(content);
  if (split === null) return null;
  const parsed = parseJsonCached(split.records);
  if (parsed?.kind !== 'lines' || parsed.values.length < MIN_RECORDS) return null;
  const { values, scans } = parsed;
  const fields = new Map<string, FieldStats>();
  let objects = 0;
  for (const value of values) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    objects++;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let stats = fields.get(key);
      if (stats === undefined) {
        stats = { present: 0, types: new Map(), values: new Map() };
        fields.set(key, stats);
      }
      stats.present++;
      const type = typeOf(child);
      stats.types.set(type, (stats.types.get(type) ?? 0) + 1);
      if (stats.values !== null) {
        if (typeof child === 'string' && child.length <= MAX_ENUM_CHARS) {
          stats.values.set(child, (stats.values.get(child) ?? 0) + 1);
          if (stats.values.size > MAX_ENUM_VALUES) stats.values = null;
        } else {
          stats.values = null;
        }
      }
    }
  }
  const count = values.length;
  const lines = split.before === '' ? [] : [split.before.replace(/\n$/, '')];
  lines.push(`[JSON Lines: ${count} records${objects < count ? `, ${objects} of them objects` : ''}]`);
  if (fields.size > 0) lines.push(`fields: ${schemaText(fields, objects)}`);
  const sample = (i: number): string => {
    const text = scans[i]?.minified ?? '';
    return text.length <= SAMPLE_CHARS ? text : `${text.slice(0, SAMPLE_CHARS)}… (+${text.length - SAMPLE_CHARS} chars)`;
  };
  for (let i = 0; i < HEAD_SAMPLES; i++) lines.push(`record ${i + 1}: ${sample(i)}`);
  lines.push(`… ${count - HEAD_SAMPLES - TAIL_SAMPLES} more records …`);
  for (let i = count - TAIL_SAMPLES; i < count; i++) lines.push(`record ${i + 1}: ${sample(i)}`);
  if (split.after.trim() !== '') {
    const cut = split.after.trimEnd();
    lines.push(`cut short after record ${count}: ${cut.length <= SAMPLE_CHARS ? cut : `${cut.slice(0, SAMPLE_CHARS)}… (+${cut.length - SAMPLE_CHARS} chars)`}`);
  }
  return withWholeOriginal(content, `${lines.join('\n')}\n`, ['jsonl_schema'], `${count} JSON records summarised`);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function schemaText(fields: ReadonlyMap<string, FieldStats>, objects: number): string {
  const parts: string[] = [];
  for (const [key, stats] of [...fields].slice(0, MAX_KEYS)) {
    const types = [...stats.types.keys()].join('|');
    const enumText =
      stats.values !== null && stats.values.size > 0 && stats.values.size < objects
        ? ` ${[...stats.values].map(([v, n]) => `${JSON.stringify(v)}×${n}`).join(' ')}`
        : '';
    const presence = stats.present < objects ? ` in ${stats.present}` : '';
    parts.push(`${key}: ${types}${presence}${enumText}`);
  }
  if (fields.size > MAX_KEYS) parts.push(`… ${fields.size - MAX_KEYS} more keys`);
  return parts.join(', ');
}

const HEAD_ROWS = 5;
const TAIL_ROWS = 2;
/** Share of the rows after the header that must have the header's field count. */
const MIN_CONSISTENT = 0.9;
/** Leading lines (a warning, a title) that may stand before the header and are kept as printed. */
const MAX_PREAMBLE = 3;

/**
 * Operation `table_sample`: CSV or TSV as its header, the first and last rows and the row count. Any lines before
 * the header are kept; a last row cut short (`head -c`) is just a row. Null unless one delimiter gives most lines
 * the same field count (2 or more).
 */
export function tableSampleView(content: string): Candidate | null {
  const body = content.endsWith('\n') ? content.slice(0, -1) : content;
  const lines = body.split('\n');
  for (const delimiter of [',', '\t', ';']) {
    const table = findTable(lines, delimiter);
    if (table === null) continue;
    const { header, columns } = table;
    const rows = lines.length - header - 1;
    if (rows <= HEAD_ROWS + TAIL_ROWS + 1) return null;
    const kept = [...lines.slice(0, header + 1 + HEAD_ROWS), `… ${rows - HEAD_ROWS - TAIL_ROWS} more rows …`, ...lines.slice(lines.length - TAIL_ROWS)];
    const name = delimiter === '\t' ? 'TSV' : 'CSV';
    return withWholeOriginal(content, `${kept.join('\n')}\n`, ['table_sample'], `${name} of ${rows} rows × ${columns} columns, ${rows - HEAD_ROWS - TAIL_ROWS} rows elided`);
  }
  return null;
}

function findTable(lines: readonly string[], delimiter: string): { header: number; columns: number } | null {
  for (let header = 0; header <= MAX_PREAMBLE && header < lines.length; header++) {
    const columns = fieldCount(lines[header] as string, delimiter);
    if (columns < 2) continue;
    const rows = lines.slice(header + 1);
    if (rows.length === 0) return null;
    const same = rows.filter((line) => fieldCount(line, delimiter) === columns).length;
    // The last line may be cut short by `head -c` or a truncated capture.
    if (same >= Math.max(1, rows.length - 1) * MIN_CONSISTENT) return { header, columns };
  }
  return null;
}

