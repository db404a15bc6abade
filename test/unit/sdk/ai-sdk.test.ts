import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenlessAiSdk } from '../../../src/sdk/ai-sdk/index.ts';
import { parseMarker, TokenlessSdk } from '../../../src/index.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';
import { lastMarker, MARKER, scriptedModel, toolResultsIn } from './ai-sdk-helpers.ts';

const temp = useTempDirs();
const open: TokenlessSdk[] = [];
afterEach(() => {
  for (const sdk of open.splice(0)) sdk.close();
});

/** 81 KB of `npm view express versions --json`: post_tool truncates it recoverably (one stash key). */
const VERSIONS = loadCorpusCase('data-npm-view-versions-json').stdout;
/** `grep -rn` output: lossless search-path sharing when declared an API response. */
const GREP = loadCorpusCase('search-grep-rn-many-hits-express').stdout;

const LONG_DESCRIPTION = `Look up a package in the npm registry. ${'Returns the metadata the registry holds for the package, including every published version, its dist-tags and maintainers. '.repeat(12)}`;

function setup(contracts: Parameters<typeof createTokenlessAiSdk>[0]['contracts'] = { npm_view: { origin: 'api_response' }, grep: { origin: 'api_response' } }) {
  const sdk = new TokenlessSdk({ dataDir: temp(), wrapperCommand: '/opt/tokenless' });
  open.push(sdk);
  return { sdk, tokenless: createTokenlessAiSdk({ sdk, agentId: 'ai-sdk-test', contracts }) };
}

const npmView = tool({
  description: LONG_DESCRIPTION,
  inputSchema: jsonSchema<{ name: string }>({ type: 'object', properties: { name: { type: 'string', description: 'The package name, e.g. express' } }, required: ['name'] }),
  execute: () => Promise.resolve(VERSIONS),
});
const grep = tool({
  description: 'Search files',
  inputSchema: jsonSchema<{ pattern: string }>({ type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] }),
  execute: () => Promise.resolve(GREP),
});

/** Call a tool, then retrieve the marker its compressed result showed, then answer. */
const RETRIEVE_SCRIPT = [
  { tool: 'npm_view', input: () => ({ name: 'express' }) },
  { tool: 'tokenless_retrieve', input: (call: Parameters<typeof lastMarker>[0]) => ({ marker: lastMarker(call) }) },
  { text: 'express has many versions' },
];

describe('ai-sdk adapter', () => {
  it('compresses a tool result entering the prompt, publishes retrieve, and retrieve returns the exact original (generateText)', async () => {
    const { tokenless } = setup();
    const conversation = tokenless.conversation('conv-1');
    const model = scriptedModel(RETRIEVE_SCRIPT);
    const result = await generateText({ model: conversation.wrap(model), tools: conversation.tools({ npm_view: npmView }), prompt: 'versions of express?', stopWhen: stepCountIs(5) });

    expect(result.text).toBe('express has many versions');
    expect(model.doGenerateCalls).toHaveLength(3);
    const [first, second, third] = model.doGenerateCalls;
    expect(first?.tools?.map((t) => t.name)).toEqual(['npm_view', 'tokenless_retrieve']);
    const seen = toolResultsIn(second)[0]?.text ?? '';
    expect(seen).toMatch(MARKER);
    expect(seen.length).toBeLessThan(VERSIONS.length / 10);
    // The host keeps the original for its own use; only the model's copy was shortened.
    expect(result.steps[0]?.toolResults[0]?.output).toBe(VERSIONS);
    const retrieved = toolResultsIn(third).find((r) => r.toolName === 'tokenless_retrieve');
    expect(retrieved?.text).toBe(VERSIONS);
    expect(conversation.visibleMarkers).toContain(parseMarker(MARKER.exec(seen)?.[0] ?? ''));
  });

  it('does the same through streamText', async () => {
    const { tokenless } = setup();
    const conversation = tokenless.conversation('conv-stream');
    const model = scriptedModel(RETRIEVE_SCRIPT);
    const result = streamText({ model: conversation.wrap(model), tools: conversation.tools({ npm_view: npmView }), prompt: 'versions of express?', stopWhen: stepCountIs(5) });
    expect(await result.text).toBe('express has many versions');
    expect(model.doStreamCalls).toHaveLength(3);
    expect(toolResultsIn(model.doStreamCalls[1])[0]?.text).toMatch(MARKER);
    expect(toolResultsIn(model.doStreamCalls[2]).find((r) => r.toolName === 'tokenless_retrieve')?.text).toBe(VERSIONS);
  });

  it('applies before_model to the tools the model sees, never to the schemas generateText validates against', async () => {
    const { tokenless } = setup();
    const conversation = tokenless.conversation('conv-schema');
    const model = scriptedModel([{ text: 'hi' }]);
    await generateText({ model: conversation.wrap(model), tools: conversation.tools({ npm_view: npmView }), prompt: 'hi' });
    const sent = model.doGenerateCalls[0]?.tools?.find((t) => t.name === 'npm_view');
    expect(sent?.type).toBe('function');
    expect(JSON.stringify(sent).length).toBeLessThan(JSON.stringify({ description: LONG_DESCRIPTION }).length);
    expect(conversation.visibleMarkers.length).toBeGreaterThan(0);
    expect(npmView.description).toBe(LONG_DESCRIPTION);
  });

  it('compresses a lossless result once, even though the prompt re-sends it on every step', async () => {
    const { sdk, tokenless } = setup();
    const conversation = tokenless.conversation('conv-grep');
    const model = scriptedModel([
      { tool: 'grep', input: () => ({ pattern: 'x' }) },
      { tool: 'grep', input: () => ({ pattern: 'y' }) },
      { text: 'found' },
    ]);
    await generateText({ model: conversation.wrap(model), tools: conversation.tools({ grep }), prompt: 'search', stopWhen: stepCountIs(5) });
    const third = toolResultsIn(model.doGenerateCalls[2]);
    expect(third).toHaveLength(2);
    for (const seen of third) {
      expect(seen.text.length).toBeLessThan(GREP.length);
      expect(seen.text).not.toMatch(MARKER);
    }
    expect(sdk.stats.list({ session: 'conv-grep' }).filter((row) => row.operation === 'search_path_sharing')).toHaveLength(2);
  });

  it('passes a tool without a contract through untouched', async () => {
    const { tokenless } = setup({});
    const conversation = tokenless.conversation('conv-none');
    const model = scriptedModel([{ tool: 'npm_view', input: () => ({ name: 'express' }) }, { text: 'ok' }]);
    await generateText({ model: conversation.wrap(model), tools: conversation.tools({ npm_view: npmView }), prompt: 'x', stopWhen: stepCountIs(3) });
    expect(toolResultsIn(model.doGenerateCalls[1])[0]?.text).toBe(VERSIONS);
  });

  it('rewrites the command argument of a tool whose contract names one, and leaves its output to the wrapper', async () => {
    const { tokenless } = setup({ bash: { origin: 'command_output', commandField: 'command' } });
    const conversation = tokenless.conversation('conv-bash');
    const received: string[] = [];
    const bash = tool({
      description: 'Run a shell command',
      inputSchema: jsonSchema<{ command: string }>({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }),
      execute: ({ command }) => {
        received.push(command);
        return Promise.resolve(VERSIONS);
      },
    });
    const model = scriptedModel([{ tool: 'bash', input: () => ({ command: 'git status' }) }, { text: 'ok' }]);
    const result = await generateText({ model: conversation.wrap(model), tools: conversation.tools({ bash }), prompt: 'x', stopWhen: stepCountIs(3) });
    expect(received[0]).toContain('/opt/tokenless run -- git status');
    // The model's own record of its call is unchanged; the wrapper's output is not compressed a second time.
    expect(result.steps[0]?.toolCalls[0]?.input).toEqual({ command: 'git status' });
    expect(toolResultsIn(model.doGenerateCalls[1])[0]?.text).toBe(VERSIONS);
  });

  it('refuses to retrieve a marker another conversation was shown', async () => {
    const { tokenless } = setup();
    const a = tokenless.conversation('conv-a');
    const modelA = scriptedModel([{ tool: 'npm_view', input: () => ({ name: 'express' }) }, { text: 'ok' }]);
    await generateText({ model: a.wrap(modelA), tools: a.tools({ npm_view: npmView }), prompt: 'x', stopWhen: stepCountIs(3) });
    const stolen = lastMarker(modelA.doGenerateCalls[1] ?? { prompt: [] });

    const b = tokenless.conversation('conv-b');
    const modelB = scriptedModel([{ tool: 'tokenless_retrieve', input: () => ({ marker: stolen }) }, { text: 'ok' }]);
    await generateText({ model: b.wrap(modelB), tools: b.tools({}), prompt: 'x', stopWhen: stepCountIs(3) });
    const answer = toolResultsIn(modelB.doGenerateCalls[1])[0]?.text ?? '';
    expect(answer).not.toBe(VERSIONS);
    expect(answer).toMatch(/not shown in session conv-b/);
    expect(b.visibleMarkers).toEqual([]);
  });
});
