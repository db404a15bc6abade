import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { piExtensionPath, planInstall, planUninstall } from '../../../src/harness/pi/install.ts';
import { EXTENSION_MARKER, PI_VIEW_MIN_BYTES, extensionSource } from '../../../src/harness/pi/extension-source.ts';
import { ROOT } from '../../helpers/root.ts';

const TARGET = { kind: 'command', wrapperCommand: "'/opt/syt/bin/tokenless'" } as const;

interface ToolResultEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: { readonly command?: string; readonly timeout?: number };
  readonly content: readonly { readonly type: string; readonly text?: string }[];
  readonly details?: { readonly truncation?: { readonly truncated: boolean }; readonly fullOutputPath?: string };
  readonly isError: boolean;
}
interface Ctx {
  readonly sessionManager: { getSessionId(): string };
  readonly signal?: AbortSignal;
}
type Handler = (event: object, ctx: Ctx) => unknown;

// The tool_result events Pi 0.73.1 sent a probe extension (test/fixtures/pi/README.md says which command each is).
const CAPTURED = readFileSync(join(ROOT, 'test/fixtures/pi/tool-results.jsonl'), 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line) as ToolResultEvent);
const [SMALL, SMALL_EXIT_3, LOG_EXIT_3, TRUNCATED, TIMED_OUT] = CAPTURED as [ToolResultEvent, ToolResultEvent, ToolResultEvent, ToolResultEvent, ToolResultEvent];
const CTX: Ctx = { sessionManager: { getSessionId: () => '01a23cf6-0dc6-7112-9525-d131e5e7ea40' } };

const scratch = (): string => mkdtempSync(join(tmpdir(), 'syt-pi-'));

/** The extension as Pi loads it: the written module's default export, called with an API that records its handlers. */
async function loadExtension(wrapperCommand: string): Promise<Map<string, Handler>> {
  const file = join(scratch(), 'save-your-tokens.mjs');
  writeFileSync(file, extensionSource(wrapperCommand));
  const module = (await import(pathToFileURL(file).href)) as { default: (pi: { on(event: string, handler: Handler): void }) => void };
  const handlers = new Map<string, Handler>();
  module.default({ on: (event, handler) => handlers.set(event, handler) });
  return handlers;
}

/** A wrapper standing in for `tokenless`: keeps the envelope it was sent in `sent`, prints `answer` (`; :` eats `hook post_tool`). */
function fakeEngine(answer: string): { wrapper: string; sent: string } {
  const sent = join(scratch(), 'envelope.json');
  return { wrapper: `cat > '${sent}'; printf '%s' '${answer}'; :`, sent };
}
const APPLIED = '{"result":{"disposition":"applied","output":"VIEW\\n"}}';

afterEach(() => {
  delete process.env['TOKENLESS_SESSION_ID'];
});

describe('pi install plans', () => {
  it('writes our extension, leaves it when unchanged, refuses a file that is not ours and an HTTP target', () => {
    const first = planInstall(null, TARGET);
    if (!first.ok || !first.changed) throw new Error('expected a new file');
    expect(first.text.startsWith(`${EXTENSION_MARKER}\n`)).toBe(true);
    expect(first.text).toContain(JSON.stringify(`${TARGET.wrapperCommand} hook post_tool`));
    expect(planInstall(first.text, TARGET)).toEqual({ ok: true, changed: false, reason: 'the extension is already installed' });
    expect(planInstall('export default function (pi) {}\n', TARGET).ok).toBe(false);
    expect(planInstall(null, { kind: 'http', baseUrl: 'http://127.0.0.1:1', token: 't' }).ok).toBe(false);
  });

  it('deletes only our extension', () => {
    expect(planUninstall(extensionSource(TARGET.wrapperCommand))).toEqual({ ok: true, action: 'delete' });
    expect(planUninstall(null)).toMatchObject({ ok: true, action: 'unchanged' });
    expect(planUninstall('// someone else\n').ok).toBe(false);
  });

  it("puts the user extension in Pi's agent dir ($PI_CODING_AGENT_DIR, ~ expanded, else ~/.pi/agent) and the project one in .pi/extensions", () => {
    expect(piExtensionPath('user', '/p', { HOME: '/h' })).toBe('/h/.pi/agent/extensions/save-your-tokens.js');
    expect(piExtensionPath('user', '/p', { HOME: '/h', PI_CODING_AGENT_DIR: '/a' })).toBe('/a/extensions/save-your-tokens.js');
    expect(piExtensionPath('user', '/p', { HOME: '/h', PI_CODING_AGENT_DIR: '~/pi' })).toBe('/h/pi/extensions/save-your-tokens.js');
    expect(piExtensionPath('user', '/p', { HOME: '/h', PI_CODING_AGENT_DIR: '' })).toBe('/h/.pi/agent/extensions/save-your-tokens.js');
    expect(piExtensionPath('project', '/p', {})).toBe('/p/.pi/extensions/save-your-tokens.js');
  });
});

describe('the pi extension', () => {
  it('registers tool_result and session_start, never tool_call (what every gate judges stays as the model asked)', async () => {
    expect([...(await loadExtension('true')).keys()].sort()).toEqual(['session_start', 'tool_result']);
  });

  it('leaves small results, a timed-out command and other tools alone without starting the engine', async () => {
    const engine = fakeEngine(APPLIED);
    const onResult = (await loadExtension(engine.wrapper)).get('tool_result');
    for (const event of [SMALL, SMALL_EXIT_3, TIMED_OUT, { ...LOG_EXIT_3, toolName: 'read' }]) {
      expect(await onResult?.(event, CTX)).toBeUndefined();
    }
    const justUnder = { ...SMALL, content: [{ type: 'text', text: 'y'.repeat(PI_VIEW_MIN_BYTES - 1) }] };
    expect(await onResult?.(justUnder, CTX)).toBeUndefined();
    expect(() => readFileSync(engine.sent)).toThrow();
  });

  it("replaces a large result with the engine's view, keeping Pi's exit line (isError is left as Pi set it)", async () => {
    const engine = fakeEngine(APPLIED);
    const onResult = (await loadExtension(engine.wrapper)).get('tool_result');
    expect(await onResult?.(LOG_EXIT_3, CTX)).toEqual({ content: [{ type: 'text', text: 'VIEW\n\n\nCommand exited with code 3' }] });
    const envelope = JSON.parse(readFileSync(engine.sent, 'utf8')) as { attribution: object; input: { content: string; command: string; status: string } };
    expect(envelope.attribution).toEqual({ agent_id: 'pi', session_id: '01a23cf6-0dc6-7112-9525-d131e5e7ea40', tool_use_id: 'call_2' });
    // The output as printed: Pi's exit line is not part of it.
    expect(envelope.input.content).toBe(`${'INFO request handled path=/api/item status=200\n'.repeat(300)}ERROR failed once\n`);
    expect(envelope.input).toMatchObject({ status: 'success', command: LOG_EXIT_3.input.command });
  });

  it("views the whole output of a command Pi cut, read from Pi's own full-output file", async () => {
    const full = join(scratch(), 'pi-bash-full.log');
    const seq = Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join('');
    writeFileSync(full, seq);
    const event = { ...TRUNCATED, details: { ...TRUNCATED.details, fullOutputPath: full } };
    const engine = fakeEngine(APPLIED);
    const onResult = (await loadExtension(engine.wrapper)).get('tool_result');
    expect(await onResult?.(event, CTX)).toEqual({ content: [{ type: 'text', text: 'VIEW\n' }], details: { fullOutputPath: full } });
    expect((JSON.parse(readFileSync(engine.sent, 'utf8')) as { input: { content: string } }).input.content).toBe(seq);
    // Pi's file gone: nothing to view from, the result stays as Pi made it.
    expect(await onResult?.({ ...event, details: { ...event.details, fullOutputPath: join(scratch(), 'gone.log') } }, CTX)).toBeUndefined();
  });

  it('keeps the result when the engine fails, declines or prints no JSON, and never views a retrieve again', async () => {
    for (const wrapper of ['exit 1; :', `printf '{"result":{"disposition":"no_savings","output":"VIEW"}}'; :`, "printf 'not json'; :"]) {
      expect(await (await loadExtension(wrapper)).get('tool_result')?.(LOG_EXIT_3, CTX)).toBeUndefined();
    }
    const engine = fakeEngine(APPLIED);
    const onResult = (await loadExtension(engine.wrapper)).get('tool_result');
    const retrieve = { ...LOG_EXIT_3, isError: false, content: [{ type: 'text', text: 'z'.repeat(4096) }] };
    for (const command of [`${engine.wrapper} retrieve 1`, 'tokenless retrieve 44387170908520689941816183725 > out.txt', 'cd x && syt retrieve 1']) {
      expect(await onResult?.({ ...retrieve, input: { command } }, CTX)).toBeUndefined();
    }
    expect(() => readFileSync(engine.sent)).toThrow();
  });

  it("names Pi's session in its own environment, which Pi's bash tool hands to every command", async () => {
    await (await loadExtension('true')).get('session_start')?.({ type: 'session_start', reason: 'startup' }, CTX);
    expect(process.env['TOKENLESS_SESSION_ID']).toBe('01a23cf6-0dc6-7112-9525-d131e5e7ea40');
  });
});
