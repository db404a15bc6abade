import { describe, expect, it } from 'vitest';
import { cleanLog, foldLines, foldLog } from '../../../src/compress/log.ts';
import { cleanTerminalText } from '../../../src/reduce/terminal.ts';
import type { CompressInput } from '../../../src/compress/types.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { markersMatchStash, wholeOriginal } from './reconstruct.ts';

const input = (content: string): CompressInput => ({ content, origin: 'command_output', toolName: 'Bash', contentType: 'build_log' });
const options = { searchPathSharing: true };

describe('cleanTerminalText', () => {
  it('removes colour and OSC escapes and keeps the last state of carriage-return progress', () => {
    expect(cleanTerminalText('\x1b[31merror\x1b[0m done\n')).toBe('error done\n');
    expect(cleanTerminalText('\x1b]0;title\x07text')).toBe('text');
    expect(cleanTerminalText('get 10%\rget 50%\rget 100%\nnext\r\n')).toBe('get 100%\nnext\r\n');
  });

  it('makes the real ANSI-coloured morgan log plain, stashing the original: colour cannot be put back', () => {
    const original = loadCorpusCase('logs-server-error-example-express').stdout;
    const candidate = cleanLog(input(original), options);
    expect(candidate?.output.startsWith('GET / 500 8.099 ms - 21\nGET /next 500 1.012 ms - 21\nGET / 500 1.080 ms - 21\nGET /missing 404 1.442 ms - 146\nGET /next 500 0.547 ms - 21\n[tokenless: ')).toBe(true);
    expect(candidate?.recoverability).toBe('retrievable');
    expect(candidate && wholeOriginal(candidate)).toBe(original);
  });
});

describe('foldLines', () => {
  it('folds identical runs with ×N and number-only variations to first, count, last', () => {
    const lines = ['start', 'tick', 'tick', 'tick', 'item 1 ok', 'item 2 ok', 'item 3 ok', 'item 4 ok', 'item 5 ok', 'end'];
    expect(foldLines(lines)).toEqual({ lines: ['start', 'tick (×3)', 'item 1 ok', '… 3 similar lines …', 'item 5 ok', 'end'], folded: 5 });
  });

  it('never folds error or warning lines', () => {
    const lines = ['ERROR x', 'ERROR x', 'warning: 1', 'warning: 2', 'warning: 3', 'warning: 4'];
    expect(foldLines(lines)).toEqual({ lines, folded: 0 });
  });
});

describe('foldLog', () => {
  it('stashes the whole original and names it once', () => {
    const text = `${'\x1b[32mpoll 1\x1b[0m\n'.repeat(3)}${Array.from({ length: 30 }, (_, i) => `fetched chunk ${i} in ${i * 3} ms`).join('\n')}\nerror: failed at 31\n`;
    const candidate = foldLog(input(text), options);
    expect(candidate?.operations).toEqual(['ansi_strip', 'log_fold']);
    expect(candidate?.recoverability).toBe('retrievable');
    expect(candidate?.output).toContain('error: failed at 31');
    expect(candidate && markersMatchStash(candidate)).toBe(true);
    expect(candidate && wholeOriginal(candidate)).toBe(text);
  });

  it('returns null when nothing repeats', () => {
    expect(foldLog(input('a\nb\nc\n'), options)).toBeNull();
  });
});
