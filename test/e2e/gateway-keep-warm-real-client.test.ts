/**
 * Keep-warm with the real Claude Code client (issue 27, item 3): `claude -p` through `tokenless gateway --keep-warm`
 * to the fake Anthropic API, which accounts prompt-cache reads and writes as the API does (by TTL, on the gateway's
 * test clock). The session pauses for 20 simulated minutes while a tool runs: the gateway's clock moves on, its pings
 * refresh the entry, and the client's request after the pause reads the cache instead of writing it again. Checked:
 * the pings, each the request before the pause with only max_tokens and stream changed; the post-pause read; the
 * usage log marking the pings; and the client's SessionEnd, through our hook (`syt init`) and the gateway's endpoint,
 * stops the pings the last response started.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOCK_OFFSET_ENV, KEEP_WARM_TICK_ENV } from '../../commands/gateway.ts';
import { countBreakpoints, TTL_5M_MS } from '../../src/gateway/session-policy.ts';
import { runCli } from '../helpers/cli.ts';
import { startGateway } from '../helpers/gateway-process.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { startFakeAnthropic } from './claude/fake-anthropic.ts';
import { PromptCache } from './claude/fake-prompt-cache.ts';
import { claudeBinary, runClaude, sessionDirs, sessionEnv } from './claude/session.ts';

const tempDir = useTempDirs();
const CLAUDE = claudeBinary();
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

if (CLAUDE === null) console.warn('skipped: the Claude Code client is not installed (bash scripts/install-claude-code.sh)');

const MINUTE = 60_000;
const PAUSE = 20 * MINUTE;

describe.skipIf(CLAUDE === null)('gateway keep-warm with the real Claude Code client', () => {
  it('bridges a 20-minute pause with pings, and the request after it reads the cache', async () => {
    const dirs = sessionDirs(tempDir());
    const clockFile = join(dirs.root, 'clock-offset');
    writeFileSync(clockFile, '0');
    let offset = 0;
    const clock = (): number => Date.now() + offset;
    const cache = new PromptCache(clock);
    let pausedAt = 0;
    let moving: NodeJS.Timeout | undefined;
    const bash = (command: string) => ({ tools: [{ name: 'Bash', input: { command, description: command } }] });
    const upstream = await startFakeAnthropic(
      [
        bash('echo before'),
        () => {
          // While this turn's command sleeps, the clock runs 20 minutes ahead in 15-second steps (one per 25 ms). The
          // pings repeat this turn's request, so this runs again for each: the clock starts moving only once.
          if (moving === undefined) {
            pausedAt = clock();
            moving = setInterval(() => {
              if (offset >= PAUSE) return clearInterval(moving);
              offset += 15_000;
              writeFileSync(clockFile, String(offset));
            }, 25);
          }
          return bash('sleep 4; echo after');
        },
        { text: 'done' },
      ],
      {},
      cache,
    );
    cleanups.push(() => void upstream.close());
    cleanups.push(() => clearInterval(moving));
    const gateway = await startGateway(upstream.url, dirs.data, ['--keep-warm'], (child: ChildProcess) => cleanups.push(() => child.kill('SIGTERM')), {
      [CLOCK_OFFSET_ENV]: clockFile,
      [KEEP_WARM_TICK_ENV]: '10',
    });
    const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
    expect(init.status, init.stderr).toBe(0);
    const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, gateway), ['--dangerously-skip-permissions']);
    expect(run.status, run.stderr).toBe(0);

    const messages = upstream.requests.filter((r) => r.method === 'POST' && new URL(r.url, 'http://x').pathname === '/v1/messages');
    const isPing = (body: unknown): boolean => (body as { max_tokens?: unknown }).max_tokens === 1 && (body as { stream?: unknown }).stream === false;
    const main = messages.filter((r) => r.body !== null && (r.body.tools ?? []).some((tool) => tool.name === 'Bash'));
    const pings = main.filter((r) => isPing(r.body));
    const client = main.filter((r) => !isPing(r.body));
    expect(client.length).toBe(3);
    // The pings repeat the request answered with the sleeping command: the same prompt, the same breakpoints.
    const before = client[1]?.body as unknown as Record<string, unknown>;
    const strip = (body: unknown): string => JSON.stringify({ ...(body as object), max_tokens: null, stream: null });
    expect(pings.length).toBeGreaterThanOrEqual(3);
    for (const ping of pings) {
      expect(strip(ping.body)).toBe(strip(before));
      expect(countBreakpoints(ping.body)).toBe(countBreakpoints(before));
    }

    // The fake's cache accounting, in arrival order: the client's request after the pause came more than a TTL after
    // the one before it, and still read what the pings kept warm.
    const events = cache.events.filter((event) => event.maxTokens !== undefined);
    const after = events.filter((event) => event.maxTokens !== 1).at(-1);
    expect(after).toBeDefined();
    expect((after?.at ?? 0) - pausedAt).toBeGreaterThan(TTL_5M_MS);
    expect(after?.read).toBeGreaterThan(0);
    expect(after?.read).toBeGreaterThan(after?.write ?? 0);

    // The usage log marks every ping, and nothing the client sent.
    const log = readFileSync(join(dirs.data, 'usage.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { keep_warm?: boolean; status: number; session_id: string | null });
    expect(log.filter((row) => row.keep_warm === true).length).toBe(messages.filter((r) => isPing(r.body)).length);
    expect(log.filter((row) => row.keep_warm !== true).length).toBe(messages.length - messages.filter((r) => isPing(r.body)).length);

    // The client's SessionEnd reached the gateway through our hook: the pings the last response started never come,
    // however far the clock moves (without it, one would be due 4.5 minutes on).
    const sessionId = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    expect(log.filter((row) => row.keep_warm === true).every((row) => row.session_id === sessionId)).toBe(true);
    const sent = messages.length;
    offset += 60 * MINUTE;
    writeFileSync(clockFile, String(offset));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(upstream.requests.filter((r) => r.method === 'POST' && new URL(r.url, 'http://x').pathname === '/v1/messages').length).toBe(sent);
  }, 300_000);
});
