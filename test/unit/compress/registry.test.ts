import { describe, expect, it } from 'vitest';
import { classifyContent } from '../../../src/compress/classify.ts';
import { parseJsonContent } from '../../../src/compress/json-scan.ts';
import { candidatesFor } from '../../../src/compress/registry.ts';
import type { CompressInput, ContentOrigin } from '../../../src/compress/types.ts';
import { loadCorpus, loadCorpusCase } from '../../helpers/fixtures.ts';
import { markersMatchStash, reconstructJsonDocument, reconstructJsonLines, wholeOriginal } from './reconstruct.ts';

const on = { searchPathSharing: true };
const off = { searchPathSharing: false };
const request = (content: string, origin: ContentOrigin, toolName = 'Bash'): CompressInput => ({
  content,
  origin,
  toolName,
  contentType: classifyContent(content),
});
const operations = (input: CompressInput, options = on): string[] => candidatesFor(input, options).flatMap((c) => c.operations);

describe('candidatesFor routing', () => {
  const listing = loadCorpusCase('search-rg-n-express').stdout;
  const json = loadCorpusCase('data-npm-view-express-json').stdout;

  it('offers search-path sharing for API responses only, and only when enabled', () => {
    expect(operations(request(listing, 'api_response'))).toEqual(['search_path_sharing']);
    expect(operations(request(listing, 'api_response'), off)).toEqual([]);
    expect(operations(request(listing, 'command_output'))).toEqual([]);
  });

  it('gives the Grep tool search-path sharing and nothing else', () => {
    expect(operations(request(listing, 'api_response', 'Grep'))).toEqual(['search_path_sharing']);
    expect(operations(request(json, 'api_response', 'Grep'))).toEqual([]);
  });

  it('never touches file content', () => {
    expect(candidatesFor(request(json, 'file_content', 'Read'), on)).toEqual([]);
    expect(candidatesFor(request(listing, 'file_content', 'Read'), on)).toEqual([]);
  });

  it('runs the JSON compressors on JSON', () => {
    expect(operations(request(json, 'command_output'))).toEqual(expect.arrayContaining(['json_compact', 'json_truncate']));
  });
});

describe('candidatesFor on every corpus output', () => {
  const cases = loadCorpus().flatMap((c) => [
    { id: `${c.id}.stdout`, text: c.stdout },
    { id: `${c.id}.stderr`, text: c.stderr },
  ]);

  it('keeps every lossy candidate recoverable and every lossless one byte-shorter', () => {
    for (const { id, text } of cases) {
      if (text === '') continue;
      for (const candidate of candidatesFor(request(text, 'api_response', 'fetch'), on)) {
        const where = `${id}: ${candidate.operations.join('+')}`;
        expect(markersMatchStash(candidate), where).toBe(true);
        if (candidate.recoverability === 'lossless') {
          expect(candidate.stash, where).toEqual([]);
          if (!candidate.operations.includes('toon')) {
            expect(Buffer.byteLength(candidate.output), where).toBeLessThan(Buffer.byteLength(text));
          }
        } else if (candidate.operations.includes('json_truncate')) {
          const parsed = parseJsonContent(text);
          if (parsed?.kind === 'document') {
            expect(JSON.stringify(reconstructJsonDocument(candidate)), where).toBe(JSON.stringify(parsed.value));
          } else {
            expect(reconstructJsonLines(candidate), where).toEqual(parsed?.values);
          }
        } else {
          expect(wholeOriginal(candidate), where).toBe(text);
        }
      }
    }
  });
});
