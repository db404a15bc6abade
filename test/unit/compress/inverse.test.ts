import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyContent } from '../../../src/compress/classify.ts';
import { invertView, prettyJson, quoteEveryField } from '../../../src/compress/inverse.ts';
import { routeContent } from '../../../src/compress/policy.ts';
import { candidatesFor } from '../../../src/compress/registry.ts';
import { compactTable } from '../../../src/compress/table.ts';
import { loadCorpus } from '../../helpers/fixtures.ts';
import { contentCases } from './content-cases.ts';

const options = { searchPathSharing: true };

/** Every candidate the content compressors propose for `text`, under every origin that gets any. */
function allCandidates(text: string) {
  const contentType = classifyContent(text);
  return [
    ...candidatesFor({ content: text, origin: 'api_response', toolName: 'fetch', contentType }, options),
    ...candidatesFor({ content: text, origin: 'command_output', toolName: 'Bash', contentType }, options),
    ...routeContent(text, { origin: 'command_output', toolName: 'Bash', commands: [] }, options).candidates,
  ];
}

const texts = [
  ...loadCorpus().flatMap((c) => [c.stdout, c.stderr]),
  ...contentCases().map((c) => c.stdout),
].filter((t) => t !== '');
const variants = texts.flatMap((t) => [t, t.replace(/\n/g, '\r\n'), `${t.trimEnd()}\n\n`, t.trimEnd()]);

describe('every view called lossless has a documented inverse that gives the original bytes back', () => {
  it('on every corpus and fresh output, and their CRLF / trailing-newline variants', () => {
    let lossless = 0;
    for (const text of variants) {
      for (const candidate of allCandidates(text)) {
        if (candidate.recoverability !== 'lossless') continue;
        lossless++;
        expect(invertView(candidate.output, candidate.operations), candidate.operations.join('+')).toBe(text);
      }
    }
    // The property is not vacuous: lossless views are still proposed where their inverse holds.
    expect(lossless).toBeGreaterThan(10);
  });

  it('on generated JSON in every layout (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 1, 2, 4, '\t'), fc.constantFrom('', '\n', '\n\n', '\r\n'), (value, indent, end) => {
        const text = JSON.stringify(value, null, indent) + end;
        for (const candidate of allCandidates(text)) {
          if (candidate.recoverability === 'lossless') expect(invertView(candidate.output, candidate.operations)).toBe(text);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('on generated CSV, quoted every way (property)', () => {
    const field = fc.string({ maxLength: 8 }).map((s) => s.replace(/[\r\n]/g, ''));
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 3, maxLength: 3 }), { minLength: 3, maxLength: 12 }), fc.constantFrom('all', 'some', 'none'), (rows, quoting) => {
        const text = rows.map((row) => row.map((f, i) => (quoting === 'all' || (quoting === 'some' && i === 0) || /[",]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',')).join('\n') + '\n';
        for (const candidate of allCandidates(text)) {
          if (candidate.recoverability === 'lossless') expect(invertView(candidate.output, candidate.operations)).toBe(text);
          // A CSV that quoted every field is the one layout csv_compact can undo: it must be called lossless.
          else if (quoting === 'all' && candidate.operations.join() === 'csv_compact') expect.fail(`csv_compact of an all-quoted CSV is ${candidate.recoverability}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('re-labels table_compact: column padding cannot be rebuilt from tabs', () => {
    const text = 'NAME     READY   STATUS    AGE\nweb-1    1/1     Running   3d\ncache-0  1/1     Running   12h\n';
    const candidate = compactTable({ content: text, origin: 'command_output', toolName: 'Bash', contentType: 'tabular' }, options);
    expect(candidate?.operations).toEqual(['table_compact']);
    expect(candidate?.recoverability).toBe('retrievable');
  });

  it('inverts the building blocks exactly', () => {
    expect(prettyJson('{"a":[1,{"b":[]},{}],"c":"x,y:{z}"}', '  ')).toBe(JSON.stringify({ a: [1, { b: [] }, {}], c: 'x,y:{z}' }, null, 2));
    expect(quoteEveryField('a,"b,c",""\n"x""y",z,\n')).toBe('"a","b,c",""\n"x""y","z",""\n');
    expect(invertView('x', ['no_such_operation'])).toBeNull();
  });
});
