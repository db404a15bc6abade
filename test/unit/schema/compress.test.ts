import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compressTools, LOSSLESS_SCHEMA } from '../../../src/schema/compress.ts';
import { shortenProse } from '../../../src/schema/describe.ts';
import { pruneSchema } from '../../../src/schema/prune.ts';
import { markersIn } from '../../../src/store/marker.ts';

const prune = (schema: Record<string, unknown>) => pruneSchema(schema, { maxDescription: 0, shorten: shortenProse }).schema;

describe('pruneSchema', () => {
  it('drops keywords that cannot change validity and keeps every constraint', () => {
    const schema = {
      additionalProperties: false,
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $comment: 'for maintainers',
      type: 'object',
      required: ['file_path'],
      properties: {
        file_path: { title: 'File Path', type: ['string'], description: 'where', minLength: 0 },
        tags: { type: 'array', items: {}, uniqueItems: false, minItems: 0 },
        extra: { type: 'object', additionalProperties: true, properties: {}, required: [] },
        mode: { type: 'string', enum: ['a', 'b'], description: '' },
      },
    };
    expect(prune(schema)).toEqual({
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'where' },
        tags: { type: 'array' },
        extra: { type: 'object' },
        mode: { type: 'string', enum: ['a', 'b'] },
      },
      additionalProperties: false,
      required: ['file_path'],
    });
  });

  it('treats property names as names, not keywords', () => {
    const schema = { type: 'object', properties: { title: { type: 'string' }, $comment: { type: 'string' }, required: { type: 'boolean' } } };
    expect(prune(schema)).toEqual(schema);
  });

  it('never walks data: enum, const, default and examples values stay as given', () => {
    const schema = { type: 'object', default: { $comment: 'x', title: 'y' }, examples: [{ required: [] }], enum: [{ additionalProperties: true }] };
    expect(prune(schema)).toEqual(schema);
  });

  it('keeps default-valued keywords when unevaluatedProperties makes annotations matter', () => {
    const schema = { type: 'object', allOf: [{ properties: { a: { type: 'string' } }, additionalProperties: true }], unevaluatedProperties: false };
    expect(prune(schema)).toEqual({ type: 'object', allOf: [{ properties: { a: { type: 'string' } }, additionalProperties: true }], unevaluatedProperties: false });
  });

  it('keeps a $schema naming another dialect', () => {
    expect(prune({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })).toHaveProperty('$schema');
  });

  it('orders keywords canonically whatever order they came in', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(['type', 'description', 'properties', 'required', 'additionalProperties'], { minLength: 5, maxLength: 5 }), (order) => {
        const values: Record<string, unknown> = { type: 'object', description: 'd', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
        const shuffled = Object.fromEntries(order.map((key) => [key, values[key]]));
        expect(JSON.stringify(prune(shuffled))).toBe(JSON.stringify(prune(values)));
      }),
    );
  });
});

describe('shortenProse', () => {
  it.each([
    ['fits', 'short text', 100, 'short text'],
    ['whole paragraphs', 'First para.\n\nSecond para that is long enough.', 20, 'First para.\n…'],
    ['whole sentences', 'One. Two is longer. Three is longest of all.', 22, 'One. Two is longer. …'],
  ])('%s', (_name, text, max, expected) => {
    expect(shortenProse(text, max)).toBe(expected);
  });

  it('never exceeds the limit and is deterministic', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 8, max: 300 }), (text, max) => {
        const short = shortenProse(text, max);
        expect(short.length).toBeLessThanOrEqual(Math.max(max, text.length <= max ? text.length : 0));
        expect(shortenProse(text, max)).toBe(short);
      }),
    );
  });
});

describe('compressTools', () => {
  const long = 'Does a thing.\n\n' + 'Policy sentence about when to use it. '.repeat(60);
  const anthropic = { name: 'Thing', description: long, input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { x: { type: 'string' } }, required: ['x'] } };
  const openai = { type: 'function', function: { name: 'thing', description: long, parameters: { type: 'object', properties: {}, additionalProperties: true } } };

  it('shortens a long description behind one marker for the whole original tool', () => {
    const result = compressTools([anthropic]);
    const tool = result.tools[0] as { description: string };
    const keys = markersIn(tool.description);
    expect(keys).toHaveLength(1);
    expect(result.stash).toHaveLength(1);
    expect(Buffer.from(result.stash[0]!.bytes).toString('utf8')).toBe(JSON.stringify(anthropic));
    expect(result.stash[0]!.key).toBe(keys[0]);
  });

  it('handles the OpenAI dialect and keeps unknown fields', () => {
    const result = compressTools([{ ...openai, x_vendor: 1 }], LOSSLESS_SCHEMA);
    expect(result.tools[0]).toEqual({ type: 'function', function: { name: 'thing', description: long, parameters: { type: 'object' } }, x_vendor: 1 });
    expect(result.stash).toHaveLength(0);
  });

  it('passes server tools and already-minimal tools through untouched', () => {
    const server = { type: 'bash_20250124', name: 'bash' };
    const minimal = { name: 'm', input_schema: { type: 'object' } };
    const result = compressTools([server, minimal]);
    expect(result.tools[0]).toBe(server);
    expect(result.tools[1]).toBe(minimal);
  });

  it('is deterministic', () => {
    expect(JSON.stringify(compressTools([anthropic, openai]).tools)).toBe(JSON.stringify(compressTools([anthropic, openai]).tools));
  });
});
