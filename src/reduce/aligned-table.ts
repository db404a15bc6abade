/**
 * Space-aligned columns (`docker ps`, `pip list`, `kubectl get`) as tab-separated cells: one algorithm for the
 * content compressor (`table_compact`, any tabular output) and the container filter. Column gutters are the runs of
 * at least two positions that are blank on every line, so a cell with one inner space (`Up 2 hours`), an empty cell
 * and a right-aligned column all come out whole. Null unless there are 2+ columns and `minLines`+ lines (3 when
 * the content alone says it is a table; a command known to print one may ask for fewer).
 */
export function alignedToTsv(text: string, minLines = 3): string | null {
  if (text.includes('\t')) return null;
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  if (lines.length < minLines || lines.some((l) => l.trim() === '' || l.includes('\r'))) return null;
  const width = Math.max(...lines.map((l) => l.length));
  const blank = new Array<boolean>(width).fill(true);
  for (const line of lines) {
    for (let c = 0; c < line.length; c++) if (line[c] !== ' ') blank[c] = false;
  }
  // Cut points: the start of every blank run of width >= 2 (ignoring any at the very start).
  const cuts: [number, number][] = [];
  for (let c = 0; c < width; ) {
    if (!blank[c]) {
      c++;
      continue;
    }
    let end = c;
    while (end < width && blank[end]) end++;
    if (end - c >= 2 && c > 0 && end < width) cuts.push([c, end]);
    c = end;
  }
  if (cuts.length === 0) return null;
  const rows = lines.map((line) => {
    const cells: string[] = [];
    let start = 0;
    for (const [from, to] of cuts) {
      cells.push(line.slice(start, from).trim());
      start = to;
    }
    cells.push(line.slice(start).trim());
    return cells;
  });
  // A first-line cell holding a run of spaces is two columns a stray line merged (its text crossed their gutter):
  // the cells under it would be read in the wrong column, so this is not a table we can read.
  if ((rows[0] ?? []).some((cell) => cell.includes('  '))) return null;
  return rows.map((cells) => cells.join('\t')).join('\n') + (endsWithNewline ? '\n' : '');
}
