/**
 * The gateway's policies with the real Claude Code client (issue 16, item 3): `claude -p` with ANTHROPIC_BASE_URL at
 * a recorder that keeps what the client sent, then `tokenless gateway` (its defaults: folds on), then the fake
 * Anthropic server. A scripted multi-turn session prints a large result, works on for four more turns, pauses (two
 * simulated hours, longer than any cache TTL: the gateway's test clock is moved forward), then retrieves what the
 * gateway folded. Checked: the session completes; every forwarded request is the client's request with only folded
 * results changed, none before the pause, the same fold in every request after it; at most four breakpoints; every
 * folded result retrieves byte-exact, from the stash and through the agent's own `tokenless retrieve`. A second
 * session runs with `--tool-tiers on` (off by default): the stubs are decided at the first request and identical in
 * every request, each stub's retrieval line gives back the client's definition, and nothing else changes.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOCK_OFFSET_ENV } from '../../commands/gateway.ts';
import { countBreakpoints } from '../../src/gateway/session-policy.ts';
import { parseMarker } from '../../src/store/marker.ts';
import { StashStore } from '../../src/store/stash.ts';
import { startGateway } from '../helpers/gateway-process.ts';
import { useTempDirs } from '../helpers/temp.ts';
import { startFakeAnthropic, type MessagesBody } from './claude/fake-anthropic.ts';
import { claudeBinary, resultText, runClaude, sessionDirs, sessionEnv } from './claude/session.ts';

const tempDir = useTempDirs();
const CLAUDE = claudeBinary();
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

if (CLAUDE === null) console.warn('skipped: the Claude Code client is not installed (bash scripts/install-claude-code.sh)');

const TWO_HOURS = 2 * 60 * 60_000;
const RETRIEVE = /\[tokenless retrieve ([0-9]{29})\]/;

/** A pass-through proxy that keeps every request body the client sent, in arrival order. */
async function recorder(target: string): Promise<{ url: string; bodies: Buffer[] }> {
  const bodies: Buffer[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      if (req.method === 'POST' && isMessages(req.url ?? '')) bodies.push(body);
      const headers = { ...req.headers, host: new URL(target).host, 'content-length': String(body.length) };
      const up = http.request(new URL(req.url ?? '/', target), { method: req.method, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

const isMessages = (url: string) => new URL(url, 'http://x').pathname === '/v1/messages';
type Block = Record<string, unknown>;
const blocks = (body: MessagesBody): Block[] => body.messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : []));
const results = (body: MessagesBody) => new Map(blocks(body).filter((b) => b['type'] === 'tool_result').map((b) => [String(b['tool_use_id']), b]));
const isMain = (body: MessagesBody | null): body is MessagesBody => body !== null && (body.tools ?? []).some((tool) => tool.name === 'Bash');

describe.skipIf(CLAUDE === null)('gateway policies with the real Claude Code client', () => {
  it('folds a stale result after a simulated pause, changes nothing else, and the agent retrieves it byte-exact', async () => {
    const dirs = sessionDirs(tempDir());
    const clockFile = join(dirs.root, 'clock-offset');
    writeFileSync(clockFile, '0');
    const bash = (command: string) => ({ tools: [{ name: 'Bash', input: { command, description: command } }] });
    const upstream = await startFakeAnthropic([
      bash('seq 1 3000'),
      bash('echo step-1'),
      bash('echo step-2'),
      bash('echo step-3'),
      () => {
        // Answered before the pause: the next request reaches the gateway two hours later by its clock.
        writeFileSync(clockFile, String(TWO_HOURS));
        return bash('echo step-4');
      },
      (body) => {
        const marker = RETRIEVE.exec(JSON.stringify(body.messages))?.[0];
        return marker === undefined ? { text: 'no marker' } : bash(`tokenless retrieve '${marker}'`);
      },
      { text: 'done' },
    ]);
    cleanups.push(() => void upstream.close());
    const gateway = await startGateway(upstream.url, dirs.data, [], (child: ChildProcess) => cleanups.push(() => child.kill('SIGTERM')), { [CLOCK_OFFSET_ENV]: clockFile });
    const client = await recorder(gateway);
    const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, client.url), ['--dangerously-skip-permissions']);
    expect(run.status, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { is_error: boolean }).is_error).toBe(false);

    const forwarded = upstream.requests.filter((r) => r.method === 'POST' && isMessages(r.url)).map((r) => r.body);
    const sent = client.bodies.map((b) => JSON.parse(b.toString('utf8')) as MessagesBody);
    expect(forwarded.length).toBe(sent.length);
    const mainForwarded = forwarded.filter(isMain);
    const mainSent = sent.filter(isMain);
    expect(mainForwarded.length).toBe(7);
    expect(mainSent.length).toBe(7);

    const original = [...results(mainSent[6] as MessagesBody).values()].map((b) => resultText(b['content']));
    const big = original[0] ?? '';
    expect(big.split('\n').length).toBeGreaterThanOrEqual(3000);
    const stash = StashStore.open(dirs.data);
    cleanups.push(() => stash.close());
    mainForwarded.forEach((out, i) => {
      const input = mainSent[i] as MessagesBody;
      expect(countBreakpoints(out)).toBeLessThanOrEqual(4);
      expect(countBreakpoints(out)).toBe(countBreakpoints(input));
      // The client's request with each folded result's content replaced is exactly what went out.
      const folded = [...results(out)].filter(([, b]) => RETRIEVE.test(resultText(b['content'])));
      const expected = JSON.parse(JSON.stringify(input)) as MessagesBody;
      for (const [id] of folded) {
        const block = results(expected).get(id);
        if (block !== undefined) block['content'] = results(out).get(id)?.['content'];
      }
      expect(out).toEqual(expected);
      // Before the pause nothing is folded; from the request after it on, the big result is, the same way each time.
      expect(folded.length).toBe(i < 5 ? 0 : 1);
      for (const [id, block] of folded) {
        const key = parseMarker(RETRIEVE.exec(resultText(block['content']))?.[0] ?? '');
        const got = stash.get(key ?? '');
        expect(got.ok && got.bytes.toString('utf8')).toBe(resultText(results(input).get(id)?.['content']));
        expect(block).toEqual(results(mainForwarded[5] as MessagesBody).get(id));
      }
    });
    // The agent's own `tokenless retrieve` (its last tool call) printed the folded result back exactly.
    expect(original.at(-1)).toBe(big);

    const log = readFileSync(join(dirs.data, 'usage.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { policy?: { folded_now: number; cold: boolean } });
    expect(log.filter((row) => (row.policy?.folded_now ?? 0) > 0).length).toBe(1);
  }, 300_000);

  it('with --tool-tiers on: unused non-core tools are stubs from the first request, byte-identical in every request, each retrievable', async () => {
    const dirs = sessionDirs(tempDir());
    const upstream = await startFakeAnthropic([{ tools: [{ name: 'Bash', input: { command: 'echo tiers', description: 'echo' } }] }, { text: 'done' }]);
    cleanups.push(() => void upstream.close());
    const gateway = await startGateway(upstream.url, dirs.data, ['--tool-tiers', 'on'], (child: ChildProcess) => cleanups.push(() => child.kill('SIGTERM')));
    const client = await recorder(gateway);
    const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, client.url), ['--dangerously-skip-permissions']);
    expect(run.status, run.stderr).toBe(0);

    const forwarded = upstream.requests.filter((r) => r.method === 'POST' && isMessages(r.url)).map((r) => r.body).filter(isMain);
    const sent = client.bodies.map((b) => JSON.parse(b.toString('utf8')) as MessagesBody).filter(isMain);
    expect(forwarded.length).toBe(2);
    const tools = forwarded.map((body) => JSON.stringify(body.tools));
    expect(new Set(tools).size).toBe(1);
    const stash = StashStore.open(dirs.data);
    cleanups.push(() => stash.close());
    const original = (sent[0]?.tools ?? []) as unknown as Block[];
    const out = (forwarded[0]?.tools ?? []) as unknown as Block[];
    expect(out.map((t) => t['name'])).toEqual(original.map((t) => t['name']));
    let stubs = 0;
    out.forEach((tool, i) => {
      const description = tool['description'];
      const marker = typeof description === 'string' ? RETRIEVE.exec(description)?.[0] : undefined;
      if (marker === undefined) {
        expect(tool).toEqual(original[i]);
        return;
      }
      stubs += 1;
      expect(['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep']).not.toContain(tool['name']);
      expect(tool['input_schema']).toEqual({ type: 'object' });
      const got = stash.get(parseMarker(marker) ?? '');
      expect(got.ok && (JSON.parse(got.bytes.toString('utf8')) as unknown)).toEqual(original[i]);
    });
    expect(stubs).toBeGreaterThan(0);
    // Messages and everything but the tools went out as the client sent them.
    forwarded.forEach((body, i) => expect({ ...body, tools: null }).toEqual({ ...sent[i], tools: null }));
  }, 300_000);
});
