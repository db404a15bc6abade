/**
 * Issue 30, item 17: every gateway path that re-serialises a request body goes through one guard, so a body whose
 * JSON.stringify(JSON.parse(x)) would change a value is forwarded byte for byte as it came.
 */
import { describe, expect, it } from 'vitest';
import { parseBody, whatReserialisingChanges } from '../../../src/gateway/canonical-json.ts';
import { rewriteRequest } from '../../../src/gateway/rewrite.ts';

/** A tool whose schema the lossless rewrite shortens (a redundant keyword), so only the guard can stop it. */
const TOOL = { name: 'Lookup', description: 'Looks a thing up.', input_schema: { type: 'object', additionalProperties: true, properties: { id: { type: 'number', description: 'The id.' } } } };

function requestText(input: string): string {
  const body = JSON.stringify({ model: 'claude-sonnet-4-5', tools: [TOOL], messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'Lookup', input: { placeholder: true } }] }] });
  return body.replace('{"placeholder":true}', input);
}

describe('whatReserialisingChanges', () => {
  it.each([
    ['{"id":12345678901234567890}', 'number 12345678901234567890 would become 12345678901234567000'],
    ['{"w":1.50}', 'number 1.50 would become 1.5'],
    ['{"big":1e400}', 'number 1e400 would become null'],
    ['[-0]', 'number -0 would become 0'],
    ['{"a":1,"b":{"a":2},"a":3}', 'key "a" appears twice in one object'],
  ])('names what %s would lose', (text, change) => {
    expect(whatReserialisingChanges(text)).toBe(change);
  });

  it('finds nothing in text whose values all survive, whatever its spacing and escapes', () => {
    expect(whatReserialisingChanges('{ "a" : [1, -2.5, 1e-7, 0.1, "1.50 \\" 1e400"],\n "b": {"a": 1}, "c\\u0041": null }')).toBeNull();
  });
});

describe('parseBody', () => {
  it('marks JSON.stringify output canonical and anything else scanned', () => {
    expect(parseBody(Buffer.from('{"a":[1,2]}'))).toMatchObject({ canonical: true, unfaithful: null });
    expect(parseBody(Buffer.from('{ "a": [1, 2] }'))).toMatchObject({ canonical: false, unfaithful: null });
    expect(parseBody(Buffer.from('{"a":1.0}'))).toMatchObject({ canonical: false, unfaithful: 'number 1.0 would become 1' });
  });

  it('refuses what is not a JSON object in UTF-8', () => {
    expect(parseBody(Buffer.from('[1]'))).toBeNull();
    expect(parseBody(Buffer.from('{"a":'))).toBeNull();
    expect(parseBody(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff]), Buffer.from('"}')]))).toBeNull();
  });
});

describe('rewriteRequest (--schema lossless) behind the guard', () => {
  it('still shortens the tools of a body that re-serialises faithfully', () => {
    const original = Buffer.from(requestText('{"id":7,"w":1.5}'));
    const out = rewriteRequest(original, 'lossless');
    expect(out.savedBytes).toBeGreaterThan(0);
    expect(out.body.toString('utf8')).toContain('"input":{"id":7,"w":1.5}');
  });

  it('forwards the body untouched when a number would change', () => {
    const original = Buffer.from(requestText('{"id":12345678901234567890,"w":1.50,"big":1e400}'));
    const out = rewriteRequest(original, 'lossless');
    expect(out).toEqual({ body: original, savedBytes: 0 });
  });
});
