/**
 * A Vercel AI SDK agent (generateText with tools, then streamText) against the `ai` package's mock model: the tool
 * result is compressed before it enters the prompt, the model calls the retrieve tool for the original. Offline.
 */
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createTokenlessAiSdk } from '../src/sdk/ai-sdk/index.ts';
import { TokenlessSdk } from '../src/index.ts';
import { scriptedModel } from './mock-model.ts';
import { grepHits, print, printSavings, tempDataDir, versionsJson } from './shared.ts';

const data = tempDataDir();
const sdk = new TokenlessSdk({ dataDir: data.dir });
try {
  const tokenless = createTokenlessAiSdk({ sdk, agentId: 'example-ai-sdk', contracts: { npm_view: { origin: 'api_response' }, search: { origin: 'api_response' } } });
  const tools = {
    npm_view: tool({ description: 'Versions of an npm package', inputSchema: jsonSchema<{ name: string }>({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }), execute: ({ name }) => Promise.resolve(versionsJson(name)) }),
    search: tool({ description: 'Search the code', inputSchema: jsonSchema<{ pattern: string }>({ type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] }), execute: () => Promise.resolve(grepHits()) }),
  };

  const conversation = tokenless.conversation('ai-sdk-generate');
  const model = scriptedModel();
  const result = await generateText({ model: conversation.wrap(model), tools: conversation.tools(tools), prompt: 'Which express versions exist?', stopWhen: stepCountIs(6) });
  print(`generateText: "${result.text}" after ${result.steps.length} steps; the model saw ${model.sentToolResultChars} characters of tool results for ${versionsJson('express').length + grepHits().length} produced`);
  print(`  visible markers in this conversation: ${conversation.visibleMarkers.join(', ')}`);
  print(`  retrieve gave the model the exact original: ${model.retrievedExact ? 'yes' : 'no'}`);

  const streaming = tokenless.conversation('ai-sdk-stream');
  const streamModel = scriptedModel();
  const stream = streamText({ model: streaming.wrap(streamModel), tools: streaming.tools(tools), prompt: 'Same, streaming.', stopWhen: stepCountIs(6) });
  print(`streamText: "${await stream.text}"; this conversation saved ${streaming.session.savedTokens} estimated tokens`);
  printSavings('savings (both conversations)', sdk);
} finally {
  sdk.close();
  data.remove();
}
