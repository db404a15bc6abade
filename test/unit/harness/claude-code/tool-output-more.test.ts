import { describe, expect, it } from 'vitest';
import { toolSlot } from '../../../../src/harness/claude-code/tool-output.ts';
import type { ToolSlot } from '../../../../src/harness/claude-code/tool-slot.ts';
import type { PostToolUseInput } from '../../../../src/harness/claude-code/schemas.ts';

const event = (tool_name: string, tool_response: unknown): PostToolUseInput => ({
  session_id: 's',
  hook_event_name: 'PostToolUse',
  tool_name,
  tool_input: {},
  tool_response,
  tool_use_id: 't',
});
const slot = (tool: string, response: unknown): ToolSlot => {
  const found = toolSlot(event(tool, response), () => 'other');
  if (typeof found === 'string') throw new Error(found);
  return found;
};

describe('PostToolUse slots beyond Bash, Grep and Read', () => {
  it('Glob: one filename per line of the view, every other field kept', () => {
    const response = { filenames: ['a/x.ts', 'a/y.ts'], numFiles: 2, durationMs: 3, truncated: false, totalMatches: 2 };
    const glob = slot('Glob', response);
    expect(glob.text).toBe('a/x.ts\na/y.ts');
    expect(glob.rebuild('a/\n  x.ts\n  y.ts')).toEqual({ ...response, filenames: ['a/', '  x.ts', '  y.ts'] });
  });

  it('WebFetch: the result text', () => {
    const response = { bytes: 10, code: 200, codeText: 'OK', result: '{"a": 1}', durationMs: 5, url: 'https://x' };
    const fetched = slot('WebFetch', response);
    expect(fetched.text).toBe('{"a": 1}');
    expect(fetched.rebuild('{"a":1}')).toEqual({ ...response, result: '{"a":1}' });
  });

  it('MCP: one text block or a string, replaced by a string', () => {
    expect(slot('mcp__docs__get', [{ type: 'text', text: 'hello' }]).text).toBe('hello');
    expect(slot('mcp__docs__get', 'hello').rebuild('hi')).toBe('hi');
    expect(toolSlot(event('mcp__docs__get', [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]), () => 'other')).toMatch(/single text block/);
    expect(toolSlot(event('mcp__docs__get', [{ type: 'image', data: 'x' }]), () => 'other')).toMatch(/single text block/);
  });

  it('refuses a Glob listing whose names hold newlines, and tools with no contract', () => {
    expect(toolSlot(event('Glob', { filenames: ['a\nb'], numFiles: 1, durationMs: 1, truncated: false }), () => 'other')).toMatch(/newline/);
    expect(toolSlot(event('TodoWrite', {}), () => 'other')).toMatch(/no declared contract/);
  });
});
