import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const capturePath = join(FIXTURES_DIR, 'claude-code-requests', 'first-request-2.1.332-opus-5-5.json');
const body = (JSON.parse(readFileSync(capturePath, 'utf8')) as { body: { tools: unknown[]; messages: unknown[] } }).body;
const envelope = (session: string) =>
  JSON.stringify({ protocol_version: 2, operation: 'before_model', attribution: { agent_id: 'claude-code', session_id: session }, input: { tools: body.tools, messages: body.messages } });

interface Answer {
  result: { disposition: string; tools: unknown[]; visible_markers: string[]; retrieve_tool?: unknown; schema_report: { before_bytes: number; after_bytes: number } };
}

describe('tokenless hook before_model (built CLI)', () => {
  it('compresses Claude Code\'s captured tools, answers a second identical call byte-identically, and the markers retrieve', () => {
    const env = { TOKENLESS_DATA_DIR: tempDir() };
    const first = runCli(['hook', 'before_model'], { input: envelope('sess-a'), env });
    expect(first.status).toBe(0);
    const answer = JSON.parse(first.stdout) as Answer;
    expect(answer.result.disposition).toBe('applied');
    expect(answer.result.schema_report.after_bytes).toBeLessThan(answer.result.schema_report.before_bytes);
    const second = runCli(['hook', 'before_model'], { input: envelope('sess-a'), env });
    expect(second.stdoutBytes.equals(first.stdoutBytes)).toBe(true);
    const key = answer.result.visible_markers[0]!;
    const own = runCli(['retrieve', `<<tokenless:${key}>>`, '--session', 'sess-a'], { env });
    expect(own.status).toBe(0);
    expect(body.tools).toContainEqual(JSON.parse(own.stdout));
    expect(runCli(['retrieve', key, '--session', 'other'], { env }).status).toBe(1);
  });

  it('fails fast (exit 1) on duplicate tool names', () => {
    const input = JSON.stringify({ protocol_version: 2, operation: 'before_model', attribution: { agent_id: 'a', session_id: 's' }, input: { tools: [{ name: 'x', input_schema: {} }, { name: 'x', input_schema: {} }] } });
    const result = runCli(['hook', 'before_model'], { input, env: { TOKENLESS_DATA_DIR: tempDir() } });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('duplicate tool name: x');
  });
});

describe('context commands', () => {
  it('syt schema reports the reduction on a captured request', () => {
    const result = runCli(['schema', capturePath, '--json']);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { tools: number; before_bytes: number; after_bytes: number; token_method: string };
    expect(report.tools).toBe(14);
    expect(report.after_bytes).toBeLessThan(report.before_bytes);
    expect(report.token_method).toBe('estimated');
  });

  it('syt plan shows at most 4 breakpoints for Anthropic and degradations for OpenAI', () => {
    const anthropic = JSON.parse(runCli(['plan', capturePath, '--json']).stdout) as { plan: { anthropic: { breakpoints: unknown[] } } };
    expect(anthropic.plan.anthropic.breakpoints.length).toBeLessThanOrEqual(4);
    const openai = JSON.parse(runCli(['plan', capturePath, '--engine', 'openai', '--rpm', '40', '--json']).stdout) as { plan: { routing: { field: string; shards: number }; degradations: Array<{ feature: string }> } };
    expect(openai.plan.routing).toMatchObject({ field: 'prompt_cache_key', shards: 4 });
    expect(openai.plan.degradations.map((d) => d.feature)).toEqual(['breakpoints']);
    expect(runCli(['plan', capturePath, '--engine', 'nope']).status).toBe(2);
  });

  it('syt chunk and syt select: chunk a document, then select in two-zone order', () => {
    const dir = tempDir();
    const doc = join(dir, 'guide.md');
    writeFileSync(doc, '# Guide\nIntro.\n\n## Billing\nInvoices are sent monthly.\n\n## Deploy\nDeploy with the pipeline.\n');
    const chunks = join(dir, 'chunks');
    expect(runCli(['chunk', doc, '--out', chunks]).status).toBe(0);
    mkdirSync(chunks, { recursive: true });
    writeFileSync(join(chunks, 'identity.json'), JSON.stringify({ id: 'identity', mandatory: true, content: 'You are helpful.' }));
    const result = JSON.parse(runCli(['select', 'how', 'do', 'invoices', 'and', 'deploy', 'work', '--chunks', chunks, '--json']).stdout) as { zone1: string[]; zone2: string[]; text: string };
    expect(result.zone1).toEqual(['identity']);
    expect(result.zone2).toEqual(['guide-guide-billing', 'guide-guide-deploy']);
    expect(result.text.startsWith('<chunk id="identity">')).toBe(true);
    expect(runCli(['select', 'x', '--chunks', join(dir, 'missing')]).status).toBe(1);
  });
});
