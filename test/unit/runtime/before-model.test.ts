import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import type { BeforeModelRequest, ToolDefinition } from '../../../src/protocol/schemas.ts';
import { beforeModel, RETRIEVE_TOOL_NAME, type SchemaReport } from '../../../src/runtime/before-model.ts';
import { retrieveBytes } from '../../../src/runtime/retrieve.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { markerFor, markersIn } from '../../../src/store/marker.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const runtimes: Runtime[] = [];
afterEach(() => {
  for (const runtime of runtimes.splice(0)) runtime.close();
});
const newRuntime = (env: Record<string, string> = {}) => {
  const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir(), ...env }));
  runtimes.push(runtime);
  return runtime;
};

/** Claude Code 2.1.332's real first request (test/fixtures/claude-code-requests/README.md). */
const captured = JSON.parse(readFileSync(join(FIXTURES_DIR, 'claude-code-requests', 'first-request-2.1.332-opus-5-5.json'), 'utf8')) as {
  body: { tools: ToolDefinition[]; messages: unknown[] };
};
const request = (input: Partial<BeforeModelRequest['input']> & { tools: ToolDefinition[] }, session = 's1'): BeforeModelRequest => ({
  protocol_version: 2,
  operation: 'before_model',
  attribution: { agent_id: 'a', session_id: session },
  input,
});
const run = (runtime: Runtime, req: BeforeModelRequest) => {
  const outcome = beforeModel(runtime, req);
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.result;
};

describe('beforeModel on Claude Code\'s captured first request', () => {
  it('reports the measured schema reduction and stashes every shortened original', () => {
    const runtime = newRuntime();
    const result = run(runtime, request({ tools: captured.body.tools, messages: captured.body.messages }));
    const report = result.schema_report as SchemaReport;
    expect(result.disposition).toBe('applied');
    expect(report.before_bytes).toBe(Buffer.byteLength(JSON.stringify(captured.body.tools)));
    expect(report.after_bytes).toBe(Buffer.byteLength(JSON.stringify(result.tools)));
    expect(report.after_bytes / report.before_bytes).toBeLessThan(0.75);
    expect(report.after_tokens).toBeLessThan(report.before_tokens);
    expect(result.tools.map((tool) => tool['name'])).toEqual(captured.body.tools.map((tool) => tool['name']));
    const keys = markersIn(JSON.stringify(result.tools));
    expect(keys.length).toBeGreaterThan(0);
    expect(result.visible_markers).toEqual([...keys].sort());
    expect(result.retrieve_tool).toMatchObject({ name: RETRIEVE_TOOL_NAME });
    for (const key of keys) {
      const got = retrieveBytes(runtime, markerFor(key), { sessionId: 's1', visibleMarkers: [], anySession: false });
      expect(got.ok).toBe(true);
      const original = JSON.parse(got.ok ? got.bytes.toString('utf8') : 'null') as ToolDefinition;
      expect(captured.body.tools).toContainEqual(original);
    }
  });

  it('gives a byte-identical answer to a second identical call (cache-safe)', () => {
    const runtime = newRuntime();
    const req = request({ tools: captured.body.tools, messages: captured.body.messages });
    const first = JSON.stringify(run(runtime, req));
    const second = JSON.stringify(run(runtime, req));
    expect(second).toBe(first);
    expect(JSON.stringify(run(newRuntime(), req))).toBe(first);
  });

  it('lossless mode needs no stash and keeps every description', () => {
    const result = run(newRuntime(), request({ tools: captured.body.tools, schema_compression: 'lossless' }));
    expect(result.disposition).toBe('applied');
    expect(result.visible_markers).toEqual([]);
    expect(result.retrieve_tool).toBeUndefined();
    result.tools.forEach((tool, index) => expect(tool['description']).toBe(captured.body.tools[index]?.['description']));
  });

  it('keeps required, enums, types and additionalProperties of every tool (validity unchanged)', () => {
    const result = run(newRuntime(), request({ tools: captured.body.tools }));
    // Descriptions, the default dialect and an empty `properties` do not decide validity; everything else must stay.
    const ignored = (key: string, value: unknown) => key === 'description' || key === '$schema' || (key === 'properties' && JSON.stringify(value) === '{}');
    const shape = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema, (key, value: unknown) => (ignored(key, value) ? undefined : value)));
    result.tools.forEach((tool, index) => expect(shape(tool['input_schema'])).toEqual(shape(captured.body.tools[index]?.['input_schema'])));
  });
});

describe('beforeModel', () => {
  it('fails fast on duplicate tool names', () => {
    const outcome = beforeModel(newRuntime(), request({ tools: [{ name: 'a', input_schema: { type: 'object' } }, { type: 'function', function: { name: 'a' } }] }));
    expect(outcome).toEqual({ ok: false, reason: 'duplicate tool name: a' });
  });

  it('passes everything through when TOKENLESS_DISABLED is set', () => {
    const result = run(newRuntime({ TOKENLESS_DISABLED: '1' }), request({ tools: captured.body.tools }));
    expect(result.disposition).toBe('passthrough');
    expect(result.tools).toEqual(captured.body.tools);
  });

  it('dry run records but returns the original tools', () => {
    const result = run(newRuntime({ TOKENLESS_DRY_RUN: '1' }), request({ tools: captured.body.tools }));
    expect(result.disposition).toBe('dry_run');
    expect(result.tools).toEqual(captured.body.tools);
  });

  it('publishes the retrieve tool in OpenAI form for OpenAI tools when a message shows a marker', () => {
    const marker = markerFor('0123456789abcdef01234567');
    const runtime = newRuntime();
    runtime.stash.recordShown('s1', ['0123456789abcdef01234567']);
    const result = run(runtime, request({ tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], messages: [{ role: 'tool', content: `cut ${marker}` }] }));
    expect(result.visible_markers).toEqual(['0123456789abcdef01234567']);
    expect(result.retrieve_tool).toMatchObject({ type: 'function', function: { name: RETRIEVE_TOOL_NAME } });
  });

  it('does not count a marker in the messages that this session was never shown (typed, or echoed from another session)', () => {
    const runtime = newRuntime();
    runtime.stash.recordShown('other-session', ['0123456789abcdef01234567']);
    const messages = [{ role: 'tool', content: `cat notes.txt: ${markerFor('0123456789abcdef01234567')}` }];
    const result = run(runtime, request({ tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], messages }));
    expect(result.visible_markers).toEqual([]);
    expect(result.retrieve_tool).toBeUndefined();
  });

  it('applies CAL tiers when asked and keeps history tools whole', () => {
    const messages = [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }] }];
    const result = run(newRuntime(), request({ tools: captured.body.tools, messages, tool_stubs: { query: 'thanks!' } }));
    expect(result.tool_tier).toBe(1);
    expect(result.history_protected).toEqual(['Bash']);
    const bash = result.tools.find((tool) => tool['name'] === 'Bash') as { input_schema: { properties: Record<string, unknown> } };
    expect(Object.keys(bash.input_schema.properties)).toContain('command');
  });
});
