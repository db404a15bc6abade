/**
 * 50 simulated sessions in one process, one SDK, interleaving lifecycle calls at random await points: markers never
 * leak between sessions, and every session's answers equal what it gets when it runs alone (no shared mutable state).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createTokenlessAiSdk } from '../../../src/sdk/ai-sdk/index.ts';
import { markersIn, TokenlessSdk, TokenlessSession, ToolContracts } from '../../../src/index.ts';
import { ROOT } from '../../helpers/root.ts';
import { useTempDirs } from '../../helpers/temp.ts';
import { lastMarker, scriptedModel, toolResultsIn } from './ai-sdk-helpers.ts';

const temp = useTempDirs();
const open: TokenlessSdk[] = [];
afterEach(() => {
  for (const sdk of open.splice(0)) sdk.close();
});
const SESSIONS = 50;
const contracts = ToolContracts.from({ fetch: { origin: 'api_response' }, bash: { origin: 'command_output', commandField: 'command' } });

/** A JSON listing unique to one session and tool use, long enough that post_tool truncates it recoverably. */
const payload = (session: number, use: number): string =>
  JSON.stringify(Array.from({ length: 1500 }, (_, i) => `s${session}-u${use}-${i}.0.${(i * 7919) % 1000}`), null, 2);

/** A small deterministic generator, so a failing interleaving can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Yields to the event loop a random number of times: lets other sessions' calls run in between. */
async function jitter(next: () => number): Promise<void> {
  const turns = Math.floor(next() * 4);
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

interface SessionRun {
  readonly views: string[];
  readonly keys: string[];
  readonly visible: string[];
  readonly rewritten: unknown;
}

/** One session's life: tools offered, two tool results, a command rewritten, its own markers retrieved. */
async function runSession(sdk: TokenlessSdk, index: number, next: () => number): Promise<{ session: TokenlessSession; run: SessionRun }> {
  const session = new TokenlessSession({ sdk, agentId: 'agent', sessionId: `session-${index}`, contracts });
  const views: string[] = [];
  await jitter(next);
  await session.prepareTools([{ type: 'function', function: { name: 'fetch', description: `Fetch ${index}`, parameters: { type: 'object' } } }]);
  for (const use of [0, 1]) {
    await jitter(next);
    views.push(await session.toolResult('fetch', `s${index}-use-${use}`, payload(index, use)));
  }
  await jitter(next);
  const rewritten = await session.toolArguments('bash', `s${index}-bash`, { command: 'git status' });
  const keys = views.flatMap((view) => markersIn(view));
  for (const [use, key] of keys.entries()) {
    await jitter(next);
    expect(await session.retrieve(`<<tokenless:${key}>>`)).toBe(payload(index, use));
  }
  return { session, run: { views, keys, visible: session.visibleMarkers, rewritten } };
}

describe('TokenlessSdk under 50 concurrent sessions', () => {
  it('never leaks a marker between sessions and answers each as if it ran alone', async () => {
    const sdk = new TokenlessSdk({ dataDir: temp(), wrapperCommand: '/opt/tokenless' });
    open.push(sdk);
    const next = random(20_240_601);
    const interleaved = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => runSession(sdk, i, next)));

    for (const [i, { session, run }] of interleaved.entries()) {
      expect(run.keys).toHaveLength(2);
      expect(run.visible).toEqual([...run.keys].sort());
      expect(String((run.rewritten as { command: string }).command)).toContain(`TOKENLESS_SESSION_ID=session-${i}`);
      // Every other session's markers are refused, whatever this session claims to have seen.
      const other = interleaved[(i + 1) % SESSIONS]?.run.keys[0] ?? '';
      await expect(session.retrieve(`<<tokenless:${other}>>`)).rejects.toMatchObject({ code: 'operation_failed' });
      await expect(sdk.retrieve({ attribution: session.attribution, input: { marker: other, visible_markers: [] } })).rejects.toThrow(/not shown in session/);
    }
    const allKeys = interleaved.flatMap(({ run }) => run.keys);
    expect(new Set(allKeys).size).toBe(SESSIONS * 2);

    // The same sessions one after another in a fresh SDK: identical answers, so no call depended on another's state.
    const alone = new TokenlessSdk({ dataDir: temp(), wrapperCommand: '/opt/tokenless' });
    open.push(alone);
    for (let i = 0; i < SESSIONS; i++) {
      const { run } = await runSession(alone, i, () => 0);
      expect(run).toEqual(interleaved[i]?.run);
    }
  });

  it('keeps 50 concurrent AI SDK conversations apart through one adapter', async () => {
    const sdk = new TokenlessSdk({ dataDir: temp() });
    open.push(sdk);
    const tokenless = createTokenlessAiSdk({ sdk, agentId: 'agent', contracts: { fetch: { origin: 'api_response' } } });
    const runs = Array.from({ length: SESSIONS }, async (_, i) => {
      const conversation = tokenless.conversation(`conversation-${i}`);
      const fetch = tool({ description: 'Fetch', inputSchema: jsonSchema<{ q: string }>({ type: 'object', properties: { q: { type: 'string' } } }), execute: () => Promise.resolve(payload(i, 0)) });
      const model = scriptedModel([
        { tool: 'fetch', input: () => ({ q: 'x' }) },
        { tool: 'tokenless_retrieve', input: (call) => ({ marker: lastMarker(call) }) },
        { text: 'done' },
      ]);
      await generateText({ model: conversation.wrap(model), tools: conversation.tools({ fetch }), prompt: 'go', stopWhen: stepCountIs(4) });
      return { conversation, retrieved: toolResultsIn(model.doGenerateCalls[2]).find((r) => r.toolName === 'tokenless_retrieve')?.text };
    });
    const done = await Promise.all(runs);
    for (const [i, { conversation, retrieved }] of done.entries()) {
      expect(retrieved).toBe(payload(i, 0));
      expect(conversation.visibleMarkers).toHaveLength(1);
      const others = done.filter((_, j) => j !== i).flatMap((d) => d.conversation.visibleMarkers);
      expect(others).not.toContain(conversation.visibleMarkers[0]);
    }
  });

  it('keeps no mutable state at module level in the SDK or its adapters', () => {
    const dirs = ['src/sdk', 'src/sdk/ai-sdk', 'src/sdk/langchain'];
    for (const dir of dirs) {
      for (const file of readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.ts'))) {
        const text = readFileSync(join(ROOT, dir, file), 'utf8');
        expect(text, `${dir}/${file}`).not.toMatch(/^(export )?(let|var) /m);
        expect(text, `${dir}/${file}`).not.toMatch(/^(export )?const \w+ = new (Map|Set|WeakMap|Array)\b/m);
      }
    }
  });
});
