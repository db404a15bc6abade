/**
 * Python tracebacks of failing tests (pytest's long, short and native styles, unittest), reduced to what locates and
 * explains each failure: every location line, every failing line (pytest's `>` line), every exception line (`E …`,
 * `KeyError: 2`) and every test name stay. What goes: caret/tilde underlines (the failing line is already shown),
 * pytest's source context around the failing line (it is in the file the location names), and the code of a frame
 * already shown for an earlier failure (its location line stays). A long run where one bug fails thirty tests then
 * shows the shared frames once.
 */

const CARET = /^\s*[~^]*\^[~^]*\s*$/;
const NATIVE_FRAME = /^(\s*)File "[^"]+", line \d+, in \S/;
const SHORT_FRAME = /^\S+\.py:\d+: in \S/;
/** pytest long style ends each frame with `path:N: ` or `path:N: ErrorType`. */
const LONG_LOCATION = /^\S+:\d+:(?: .*)?$/;
const LONG_BOUNDARY = /^(?:_ ){3,}_?\s*$|^_{3,} .+ _{3,}$|^(?:During handling of the above exception|The above exception was the direct cause)/;

export function isCaretLine(line: string): boolean {
  return CARET.test(line);
}

/** Folds the tracebacks in a failure report (the FAILURES section of pytest, unittest's ERROR/FAIL blocks). */
export function foldTracebacks(lines: readonly string[]): string[] {
  const seen = new Set<string>();
  return foldRepeatedTails(foldFrames(foldLongFrames(lines, seen), seen));
}

const PYTEST_HEADER = /^_{3,} (\S.*?) _{3,}$/;
const UNITTEST_RULE = /^={20,}$/;
const UNITTEST_TITLE = /^(?:ERROR|FAIL): (\S.*)$/;
/** The exception a traceback ends with: pytest's `E …` lines, or Python's `KeyError: 2`. */
const EXCEPTION = /^E(?:\s|$)|^[\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure)\b/;
/** pytest's long style closes a traceback with the location of the raise and the exception's type. */
const RAISED_AT = /^\S+:\d+: [\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure)\w*$/;
/** A shared tail shorter than this is cheaper shown than referred to. */
const TAIL_MIN = 3;

/**
 * One bug often fails many tests through the same frames. When a failure's traceback ends with the same lines (up
 * to its exception) as a failure shown in full before it, those lines become `[… N lines as in <test>]`; the
 * failure's own exception lines, its header and the frames that differ stay.
 */
function foldRepeatedTails(lines: readonly string[]): string[] {
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (PYTEST_HEADER.test(line) || (UNITTEST_RULE.test(line) && UNITTEST_TITLE.test(lines[i + 1] ?? ''))) starts.push(i);
  });
  if (starts.length < 2) return [...lines];
  const out = lines.slice(0, starts[0]);
  const shown: Array<{ name: string; core: string[] }> = [];
  starts.forEach((start, k) => {
    const block = lines.slice(start, starts[k + 1] ?? lines.length);
    const headerLength = PYTEST_HEADER.test(block[0] ?? '') ? 1 : 3;
    const name = PYTEST_HEADER.exec(block[0] ?? '')?.[1] ?? UNITTEST_TITLE.exec(block[1] ?? '')?.[1] ?? '';
    let end = block.length;
    while (end > headerLength && /^$|^\s+$/.test(block[end - 1] ?? '')) end--;
    while (end > headerLength && (EXCEPTION.test(block[end - 1] ?? '') || RAISED_AT.test(block[end - 1] ?? ''))) end--;
    // The last block also carries the run's closing lines; only a block that ends at its exception is compared.
    const core = block.slice(headerLength, end).map((l) => l.replace(/ at 0x[0-9a-f]+/g, ''));
    let best: { name: string; length: number } | null = null;
    for (const previous of shown) {
      let length = 0;
      while (length < core.length && length < previous.core.length && core[core.length - 1 - length] === previous.core[previous.core.length - 1 - length]) length++;
      if (length >= TAIL_MIN && (best === null || length > best.length)) best = { name: previous.name, length };
    }
    if (best === null) {
      shown.push({ name, core });
      out.push(...block);
      return;
    }
    out.push(...block.slice(0, end - best.length), `  [… ${best.length} lines as in ${best.name}]`, ...block.slice(end));
  });
  return out;
}

/** pytest's long style: a frame is the text between boundaries that holds a `>` line. */
function foldLongFrames(lines: readonly string[], seen: Set<string>): string[] {
  const out: string[] = [];
  let chunk: string[] = [];
  const flush = (): void => {
    out.push(...reduceLongFrame(chunk, seen));
    chunk = [];
  };
  for (const line of lines) {
    if (LONG_BOUNDARY.test(line)) {
      flush();
      out.push(/^(?:_ ){3,}/.test(line) ? '_ _ _' : line);
      continue;
    }
    chunk.push(line);
    if (LONG_LOCATION.test(line) && chunk.some((l) => l.startsWith('>'))) flush();
  }
  flush();
  return out;
}

function reduceLongFrame(chunk: readonly string[], seen: Set<string>): string[] {
  const failing = chunk.findIndex((l) => l.startsWith('>'));
  if (failing < 0) return [...chunk];
  // The arguments are part of the frame's identity (other values, other failure); object addresses are not.
  const key = chunk
    .filter((l, i) => l.startsWith('>') || LONG_LOCATION.test(l) || (i < failing && /^\w[\w.]* = /.test(l)))
    .map((l) => l.replace(/ at 0x[0-9a-f]+/g, ''))
    .join('\n');
  const repeated = seen.has(key);
  seen.add(key);
  return chunk.filter((line, i) => {
    if (line.startsWith('E ') || line === 'E' || LONG_LOCATION.test(line)) return true;
    if (repeated) return false;
    if (line.startsWith('>')) return true;
    // Arguments of the frame (`self = …`, `key = 2`) before the source: the values the failure saw.
    if (i < failing && /^\w[\w.]* = /.test(line)) return true;
    // Lines of the statement that continue the failing line (before the first E line), without underlines.
    return i > failing && line.trim() !== '' && !isCaretLine(line) && !chunk.slice(failing + 1, i).some((l) => l.startsWith('E'));
  });
}

/** Native (`File "p", line N, in f`) and short (`p:N: in f`) frames: location first, code after. */
function foldFrames(lines: readonly string[], seen: Set<string>): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const native = NATIVE_FRAME.exec(line);
    if (native === null && !SHORT_FRAME.test(line)) {
      if (!isCaretLine(line)) out.push(line);
      i++;
      continue;
    }
    const indent = native === null ? 0 : (native[1] ?? '').length;
    let j = i + 1;
    const code: string[] = [];
    while (j < lines.length) {
      const body = lines[j] ?? '';
      const bodyIndent = body.length - body.trimStart().length;
      if (body.trim() === '' || bodyIndent <= indent || NATIVE_FRAME.test(body) || SHORT_FRAME.test(body)) break;
      if (!isCaretLine(body)) code.push(body);
      j++;
    }
    const key = [line.trim(), ...code.map((c) => c.trim())].join('\n');
    out.push(line);
    if (!seen.has(key)) out.push(...code);
    seen.add(key);
    i = j;
  }
  return out;
}
