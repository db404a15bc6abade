import { describe, expect, it } from 'vitest';
import { selectTools, toolsUsedIn } from '../../../src/schema/stubs.ts';

const tool = (name: string) => ({ name, description: `${name} does things. More detail here.\nSecond line.`, input_schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } });
const tools = [tool('Bash'), tool('Read'), tool('Grep'), tool('WebFetch')];
const names = (list: readonly unknown[]) => list.map((t) => (t as { name: string }).name);

describe('selectTools', () => {
  it('tier 0: a short conversational turn with no tool history gets no tools', () => {
    const selection = selectTools(tools, { query: 'thanks, that looks great!' });
    expect(selection.tier).toBe(0);
    expect(selection.tools).toEqual([]);
    expect(selection.omitted).toEqual(['Bash', 'Read', 'Grep', 'WebFetch']);
  });

  it('tier 1: no tool named, core tools as stubs, the rest omitted', () => {
    const selection = selectTools(tools, { query: 'please fix the failing build in the parser module', coreTools: ['Bash', 'Read'] });
    expect(selection.tier).toBe(1);
    expect(names(selection.tools)).toEqual(['Bash', 'Read']);
    expect(selection.stubbed).toEqual(['Bash', 'Read']);
    expect((selection.tools[0] as { input_schema: unknown }).input_schema).toEqual({ type: 'object' });
  });

  it('tier 2: a named or triggered tool gets its full schema, the others stubs', () => {
    const selection = selectTools(tools, { query: 'fetch https://example.com for me', triggers: { WebFetch: ['fetch', 'url'] } });
    expect(selection.tier).toBe(2);
    expect(selection.full).toEqual(['WebFetch']);
    expect(selection.tools[3]).toBe(tools[3]);
    expect(selection.stubbed).toEqual(['Bash', 'Read', 'Grep']);
  });

  it('keeps every tool already used in the history whole, in every tier', () => {
    const messages = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Grep', input: { a: 'x' } }] },
      { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'Read', arguments: '{}' } }] },
    ];
    for (const query of ['ok thanks', 'refactor the module', 'run bash please']) {
      const selection = selectTools(tools, { query, messages });
      expect(selection.tier).not.toBe(0);
      expect(selection.historyProtected).toEqual(['Read', 'Grep']);
      expect(selection.tools).toContain(tools[1]);
      expect(selection.tools).toContain(tools[2]);
    }
  });

  it('reads Anthropic and OpenAI history', () => {
    expect([...toolsUsedIn([{ content: [{ type: 'tool_use', name: 'A' }] }, { tool_calls: [{ function: { name: 'B' } }] }, 'junk'])]).toEqual(['A', 'B']);
  });
});
