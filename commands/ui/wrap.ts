/** Word-wraps prose for the terminal's width: continuation lines are indented, a word longer than a line is cut. */
export function wrapText(text: string, width: number, indent = 0): string {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const room = width - (lines.length === 0 ? 0 : indent);
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line);
      line = '';
    }
    line = line === '' ? word : `${line} ${word}`;
    while (line.length > width - (lines.length === 0 ? 0 : indent)) {
      const limit = width - (lines.length === 0 ? 0 : indent);
      lines.push(line.slice(0, limit));
      line = line.slice(limit);
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines.map((text, i) => (i === 0 ? text : `${pad}${text}`)).join('\n');
}
