import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../../src/protocol/parse.ts';
import { LIFECYCLES, PostToolResult, PreToolResult, type Lifecycle } from '../../../src/protocol/schemas.ts';

const attribution = { agent_id: 'agent', session_id: 's1', tool_use_id: 't1' };
const validInputs: Record<Lifecycle, unknown> = {
  before_model: { tools: [{ type: 'function', function: { name: 'a', parameters: {} } }], messages: [] },
  pre_tool: { tool_name: 'Bash', arguments: { command: 'git status' }, command_field: 'command' },
  post_tool: { tool_name: 'Bash', status: 'success', origin: 'command_output', content: 'x' },
  retrieve: { marker: '<<tokenless:0123456789abcdef01234567>>', visible_markers: [] },
};
const envelope = (operation: Lifecycle, extra: Record<string, unknown> = {}) => ({
  protocol_version: 2,
  operation,
  attribution,
  input: validInputs[operation],
  ...extra,
});

describe('parseRequest', () => {
  it.each(LIFECYCLES)('accepts a valid %s envelope', (lifecycle) => {
    expect(parseRequest(lifecycle, envelope(lifecycle)).ok).toBe(true);
  });

  it.each(LIFECYCLES)('rejects a %s envelope with the wrong protocol version', (lifecycle) => {
    const outcome = parseRequest(lifecycle, envelope(lifecycle, { protocol_version: 1 }));
    expect(outcome).toMatchObject({ ok: false });
  });

  it.each(LIFECYCLES)('rejects a %s envelope without attribution', (lifecycle) => {
    const { attribution: _dropped, ...rest } = envelope(lifecycle);
    const outcome = parseRequest(lifecycle, rest);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason).toContain('attribution');
  });

  it.each(LIFECYCLES)('rejects a %s envelope whose session id is empty', (lifecycle) => {
    const outcome = parseRequest(lifecycle, envelope(lifecycle, { attribution: { ...attribution, session_id: '' } }));
    expect(outcome.ok).toBe(false);
  });

  it.each(LIFECYCLES)('rejects a %s envelope sent to another lifecycle', (lifecycle) => {
    const other = LIFECYCLES.find((candidate) => candidate !== lifecycle) ?? 'retrieve';
    expect(parseRequest(other, envelope(lifecycle)).ok).toBe(false);
  });

  it.each(['pre_tool', 'post_tool'] as const)('requires tool_use_id for %s', (lifecycle) => {
    const outcome = parseRequest(lifecycle, envelope(lifecycle, { attribution: { agent_id: 'a', session_id: 's' } }));
    expect(outcome).toEqual({ ok: false, reason: `attribution.tool_use_id: required for ${lifecycle}` });
  });

  it('does not require tool_use_id for a post_tool retrieve result', () => {
    const request = envelope('post_tool', {
      attribution: { agent_id: 'a', session_id: 's' },
      input: { tool_name: 'Bash', status: 'success', origin: 'command_output', content: 'x', result_kind: 'retrieve' },
    });
    expect(parseRequest('post_tool', request).ok).toBe(true);
  });

  it.each([
    ['post_tool', { tool_name: 'Bash', status: 'exploded', origin: 'command_output', content: 'x' }, 'input.status'],
    ['post_tool', { tool_name: 'Bash', status: 'success', origin: 'guessed', content: 'x' }, 'input.origin'],
    ['post_tool', { tool_name: 'Bash', status: 'success', origin: 'command_output' }, 'input.content'],
    ['pre_tool', { tool_name: 'Bash', arguments: 'git status' }, 'input.arguments'],
    ['retrieve', { marker: 'x' }, 'input.visible_markers'],
    ['before_model', { tools: 'none' }, 'input.tools'],
  ] as const)('names the offending field of a bad %s input', (lifecycle, input, field) => {
    const outcome = parseRequest(lifecycle, envelope(lifecycle, { input }));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.reason).toContain(field);
  });
});

describe('result schemas', () => {
  it('require a disposition', () => {
    expect(PreToolResult.safeParse({ action: 'passthrough' }).success).toBe(false);
    expect(PreToolResult.safeParse({ disposition: 'passthrough', action: 'passthrough' }).success).toBe(true);
  });

  it('reject an unknown disposition', () => {
    const result = {
      disposition: 'maybe',
      output: '',
      content_type: 'json',
      applied_operations: [],
      recoverability: 'lossless',
      before_tokens: 0,
      after_tokens: 0,
      stash_keys: [],
      visible_markers: [],
    };
    expect(PostToolResult.safeParse(result).success).toBe(false);
    expect(PostToolResult.safeParse({ ...result, disposition: 'no_savings' }).success).toBe(true);
  });
});
