import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../src/context/chunker.ts';
import { estimateTokens } from '../../../src/tokens/estimate.ts';

const options = { maxTokens: 60, idPrefix: 'doc', maxTriggers: 5 };
const rows = Array.from({ length: 30 }, (_, i) => `| option-${i} | sets the value of setting number ${i} |`);
const table = ['| name | meaning |', '| --- | --- |', ...rows].join('\n');

describe('structure-aware chunking', () => {
  it('syt chunk split a Markdown table into one chunk per row with blank lines between: each part is a whole table', () => {
    const chunks = chunkDocument(`# Options\n\n${table}\n`, options);
    const tables = chunks.filter((c) => c.content.includes('| option-'));
    expect(tables.length).toBeGreaterThan(1);
    expect(tables.length).toBeLessThan(rows.length);
    for (const chunk of tables) {
      expect(estimateTokens(chunk.content)).toBeLessThanOrEqual(options.maxTokens);
      const lines = chunk.content.replace(/^# Options\n\n/, '').split('\n');
      expect(lines.slice(0, 2)).toEqual(['| name | meaning |', '| --- | --- |']);
      expect(lines.every((l) => l.startsWith('|'))).toBe(true);
    }
    // Every row, once, in order.
    expect(tables.flatMap((c) => c.content.split('\n').filter((l) => l.startsWith('| option-')))).toEqual(rows);
  });

  it('keeps a table that fits whole in one chunk with the paragraph around it', () => {
    const doc = `# Small\n\nIntro line.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nAfter.\n`;
    const [chunk] = chunkDocument(doc, options);
    expect(chunk?.content).toBe('# Small\n\nIntro line.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\nAfter.');
  });

  it('never splits a code fence with blank lines in it, and reopens one too large for a chunk', () => {
    const small = '```js\nconst a = 1;\n\nconst b = 2;\n```';
    expect(chunkDocument(`# Code\n\n${small}\n`, { ...options, maxTokens: 40 }).map((c) => c.content)).toEqual([`# Code\n\n${small}`]);
    const big = ['~~~python', ...Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? '' : `value_${i} = compute(${i}, "argument")`)), '~~~'].join('\n');
    const parts = chunkDocument(`# Big\n\n${big}\n`, options).map((c) => c.content.replace(/^# Big\n\n/, ''));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.startsWith('~~~python\n')).toBe(true);
      expect(part.endsWith('\n~~~')).toBe(true);
    }
  });

  it('keeps a list whole, items with their continuation lines, and splits a long one between items', () => {
    const list = '- first item\n  continues here\n\n- second item\n- third item';
    expect(chunkDocument(`# List\n\n${list}\n\nDone.\n`, options)[0]?.content).toBe(`# List\n\n${list}\n\nDone.`);
    const long = Array.from({ length: 30 }, (_, i) => `${i + 1}. step ${i} does a thing\n   and explains why it matters`).join('\n');
    const parts = chunkDocument(`# Steps\n\n${long}\n`, options).map((c) => c.content.replace(/^# Steps\n\n/, ''));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part).toMatch(/^\d+\. step/);
      expect(part).toMatch(/why it matters$/);
      expect(part).not.toContain('\n\n');
    }
  });

  it('keeps YAML front matter whole: its comment lines are not headings', () => {
    const doc = '---\ntitle: Guide\n# owner: docs team\n\ntags: [a, b]\n---\n\n# Guide\n\nText.\n';
    const chunks = chunkDocument(doc, options);
    expect(chunks[0]?.content).toBe('---\ntitle: Guide\n# owner: docs team\n\ntags: [a, b]\n---');
    expect(chunks.map((c) => c.id)).toEqual(['doc-intro', 'doc-guide']);
  });

  it('rejects a budget below one token', () => {
    expect(() => chunkDocument('text', { ...options, maxTokens: 0 })).toThrow(/whole number of 1 or more, got 0/);
  });
});
