/** The CLI's layout and wording helpers: table fitting, prose wrapping, option errors, program name, progress. */
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { describeOptionIssues } from '../../../commands/shared/options.ts';
import { progress } from '../../../commands/shared/progress.ts';
import { programName, terminalWidth } from '../../../commands/shared/terminal.ts';
import { fitTable, tableLine, type FitColumn } from '../../../commands/ui/fit.ts';
import { wrapText } from '../../../commands/ui/wrap.ts';
import { limitsItsInput } from '../../../src/runtime/agent-limited.ts';

const COLUMNS: FitColumn[] = [
  { header: 'command', align: 'left', max: 44, min: 12 },
  { header: 'before', align: 'right' },
  { header: 'after', align: 'right' },
  { header: 'recovery', align: 'left', optional: 1 },
];
const ROWS = [
  ['npx vitest run src/integration/very/long/path.test.ts', '14,551', '37', 'retrievable'],
  ['git status', '158', '85', 'retrievable'],
];

describe('fitTable', () => {
  it('keeps natural widths when they fit', () => {
    expect(fitTable(COLUMNS, ROWS, 120)).toEqual({ keep: [0, 1, 2, 3], widths: [44, 6, 5, 11] });
  });

  it('cuts names first, then drops optional columns, never numbers, and no line is wider than asked', () => {
    for (const width of [40, 50, 60, 80]) {
      const fitted = fitTable(COLUMNS, ROWS, width);
      for (const row of ROWS) {
        const line = tableLine(row, COLUMNS, fitted, width);
        expect([...line].length).toBeLessThanOrEqual(width);
        expect(line).toContain(row[1]);
      }
    }
    expect(fitTable(COLUMNS, ROWS, 60).keep).toEqual([0, 1, 2, 3]);
    expect(fitTable(COLUMNS, ROWS, 30).keep).toEqual([0, 1, 2]);
    expect(tableLine(ROWS[0] ?? [], COLUMNS, fitTable(COLUMNS, ROWS, 60), 60)).toMatch(/^npx vitest run src\/integration\/…  14,551/);
  });
});

describe('wrapText', () => {
  it('wraps between words with an indent and cuts a word longer than a line', () => {
    expect(wrapText('fail  hooks: no hooks registered: run syt init', 20, 6)).toBe('fail  hooks: no\n      hooks\n      registered:\n      run syt init');
    expect(wrapText('x'.repeat(25), 10)).toBe('xxxxxxxxxx\nxxxxxxxxxx\nxxxxx');
  });
});

describe('option errors', () => {
  it('name the option as typed, the value given and what is allowed', () => {
    const schema = z.object({ format: z.optional(z.enum(['table', 'json'])), contextWindow: z.optional(z.string().check(z.regex(/^\d+$/, 'a whole number of tokens'))) });
    const raw = { format: 'xml', contextWindow: '-5' };
    const parsed = schema.safeParse(raw);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(describeOptionIssues(parsed.error, raw)).toBe('--format "xml": expected one of table, json; --context-window "-5": expected a whole number of tokens');
  });

  it('use the name the program was invoked as', () => {
    expect(programName('/usr/local/bin/syt')).toBe('syt');
    expect(programName('/x/dist/cli.cjs')).toBe('tokenless');
    expect(programName('tokenless')).toBe('tokenless');
  });
});

describe('terminalWidth', () => {
  it('takes COLUMNS, else the terminal, else 80', () => {
    expect(terminalWidth({ COLUMNS: '120' }, { isTTY: true, columns: 200 })).toBe(120);
    expect(terminalWidth({}, { isTTY: true, columns: 200 })).toBe(200);
    expect(terminalWidth({}, { isTTY: false })).toBe(80);
    expect(terminalWidth({ COLUMNS: 'abc' }, {})).toBe(80);
  });
});

describe('limitsItsInput', () => {
  it('line selectors reading stdin are the agent limiting its own output', () => {
    for (const argv of [['head', '-2500'], ['head', '-n', '40'], ['tail', '-50'], ['grep', '-v', 'DEBUG'], ['sed', '-n', '1,20p'], ['sed', '-n', '-e', '5p']]) expect(limitsItsInput(argv), argv.join(' ')).toBe(true);
  });

  it('a file operand, a counting flag or a program that prints every line limits nothing', () => {
    for (const argv of [['head', '-n', '5', 'big.log'], ['grep', '-c', 'x'], ['sed', 's/a/b/'], ['sed', '-n', '1p', 'file'], ['sort'], ['cat'], ['npm', 'test']]) expect(limitsItsInput(argv), argv.join(' ')).toBe(false);
  });
});

describe('progress', () => {
  it('draws and erases a line on a terminal, and writes nothing elsewhere', () => {
    const written: string[] = [];
    const tty = { isTTY: true, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    let now = 0;
    const shown = progress('reading transcripts', tty, () => (now += 200));
    shown.update(1, 2000);
    shown.update(2000, 2000);
    shown.end();
    expect(written).toEqual(['\r\x1b[Kreading transcripts 1/2,000', '\r\x1b[Kreading transcripts 2,000/2,000', '\r\x1b[K']);
    const piped: string[] = [];
    const pipe = { isTTY: false, write: (text: string) => piped.push(text) } as unknown as NodeJS.WriteStream;
    const silent = progress('x', pipe);
    silent.update(1, 1);
    silent.end();
    expect(piped).toEqual([]);
  });

  it('with a quiet period, draws nothing for work that ends within it', () => {
    const written: string[] = [];
    const tty = { isTTY: true, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    let now = 0;
    const shown = progress('replaying sessions', tty, () => now, 1000);
    now = 999;
    shown.update(1, 3);
    expect(written).toEqual([]);
    now = 1000;
    shown.update(2, 3);
    shown.end();
    expect(written).toEqual(['\r\x1b[Kreplaying sessions 2/3', '\r\x1b[K']);
    const quick = progress('x', tty, () => 0, 1000);
    quick.update(1, 1);
    quick.end();
    expect(written).toHaveLength(2);
  });
});
