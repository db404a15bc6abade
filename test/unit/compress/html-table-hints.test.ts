import { describe, expect, it } from 'vitest';
import { environmentHint } from '../../../src/compress/hints.ts';
import { extractHtml, htmlToText } from '../../../src/compress/html.ts';
import { compactCsv, compactTable } from '../../../src/compress/table.ts';
import { alignedToTsv } from '../../../src/reduce/aligned-table.ts';
import type { CompressInput } from '../../../src/compress/types.ts';
import { wholeOriginal } from './reconstruct.ts';

const input = (content: string, contentType: CompressInput['contentType']): CompressInput => ({ content, origin: 'api_response', toolName: 'WebFetch', contentType });
const options = { searchPathSharing: true };

describe('html', () => {
  const page = '<!DOCTYPE html><html><head><title>T</title><style>p{}</style></head><body><h1>Title</h1><script>x()</script>' +
    '<p>Read the <a href="https://example.com/docs">docs</a> &amp; more.</p><ul><li>one</li><li>two</li></ul></body></html>';

  it('keeps readable text and links, drops scripts and styles', () => {
    expect(htmlToText(page)).toBe('Title\nRead the docs (https://example.com/docs) & more.\none\ntwo');
  });

  it('stashes the page and names it', () => {
    const candidate = extractHtml(input(page, 'html'), options);
    expect(candidate?.recoverability).toBe('retrievable');
    expect(candidate && wholeOriginal(candidate)).toBe(page);
  });
});

describe('tables', () => {
  it('removes quotes CSV fields do not need, keeping those they do', () => {
    expect(compactCsv('"a","b c","d,e"\r\n"1","say ""hi""",""\r\n')).toBe('a,b c,"d,e"\r\n1,"say ""hi""",\r\n');
    expect(compactCsv('a, b\n1, 2\n')).toBe('a, b\n1, 2\n');
    expect(compactCsv('"unclosed,1\n2,3\n')).toBeNull();
  });

  it('turns space-aligned columns into tab-separated cells', () => {
    const text = 'NAME      READY   STATUS    AGE\nweb-1     1/1     Running   2d\ndb-0      0/1     Pending   5m\n';
    expect(alignedToTsv(text)).toBe('NAME\tREADY\tSTATUS\tAGE\nweb-1\t1/1\tRunning\t2d\ndb-0\t0/1\tPending\t5m\n');
    expect(compactTable(input(text, 'tabular'), options)?.operations).toEqual(['table_compact']);
  });
});

describe('environmentHint', () => {
  it.each([
    ['bash: line 1: rg: command not found', /`rg` is not installed/],
    ['zsh: command not found: jq', /`jq` is not installed/],
    ["Error: Cannot find module 'left-pad/index.js'", /Node package `left-pad`/],
    ["Error: Cannot find module './local'", /module path does not resolve/],
    ["ModuleNotFoundError: No module named 'numpy.linalg'", /Python module `numpy`/],
    ["Error: ENOENT: no such file or directory, open '/x/y.json'", /`\/x\/y.json` does not exist/],
    ['cat: notes.txt: No such file or directory', /`notes.txt` does not exist/],
    ['mkdir: cannot create directory /opt/x: Permission denied', /permission denied/],
  ])('%s', (text, hint) => {
    expect(environmentHint(text)).toMatch(hint);
    expect(environmentHint(text)?.split('\n')).toHaveLength(1);
  });

  it('says nothing about ordinary output', () => {
    expect(environmentHint('All 12 tests passed')).toBeNull();
  });
});
