import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { harness as copilot } from '../../../src/harness/copilot/harness.ts';
import { hooksFile, ourHookCommands, planInstall, planUninstall } from '../../../src/harness/copilot/install.ts';
import { copilotHooksPath } from '../../../src/harness/copilot/settings.ts';
import { harnessForEvent, sessionFromEnv } from '../../../src/harness/registry.ts';
import { ROOT } from '../../helpers/root.ts';

// What Copilot CLI 1.0.102 sent a capturing hook (test/fixtures/copilot/README.md says which command each is).
const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(join(ROOT, 'test/fixtures/copilot', file), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const POST = lines('post-tool-use.jsonl');
const PRE = lines('pre-tool-use.jsonl');
const [SMALL, , LOG_EXIT_3] = POST as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
const WRAPPER = "'/opt/syt/bin/tokenless'";
const CONTEXT = { wrapperCommand: WRAPPER, env: {} };

const runtime = (): Runtime => new Runtime(loadConfig({ TOKENLESS_DATA_DIR: join(mkdtempSync(join(tmpdir(), 'syt-copilot-')), 'data') }));
const textOf = (event: Record<string, unknown>): string => (event['toolResult'] as { textResultForLlm: string }).textResultForLlm;

describe('Copilot CLI harness', () => {
  it('recognises every captured event as Copilot\'s, and its shell\'s session variable names the session', () => {
    for (const event of [...PRE, ...POST]) expect(harnessForEvent(event)?.name).toBe('copilot');
    expect(harnessForEvent({ hook_event_name: 'PostToolUse', toolName: 'Bash', toolArgs: {}, sessionId: 's' })?.name).toBe('claude-code');
    expect(sessionFromEnv({ COPILOT_AGENT_SESSION_ID: 'abc' })).toBe('abc');
  });

  it('replaces a large result with the view, its exit line kept, and leaves small ones alone', async () => {
    const rt = runtime();
    try {
      const answer = await copilot.answer('post_tool', LOG_EXIT_3, rt, CONTEXT);
      const text = (answer as { answer: { modifiedResult: { resultType: string; textResultForLlm: string } } }).answer.modifiedResult;
      expect(text.resultType).toBe('success');
      expect(text.textResultForLlm).toContain('299 repeated lines folded');
      expect(text.textResultForLlm).toMatch(/ERROR failed once\n[\s\S]*\n<shellId: 2 completed with exit code 3>$/);
      expect(text.textResultForLlm.length).toBeLessThan(textOf(LOG_EXIT_3).length / 10);
      expect(await copilot.answer('post_tool', SMALL, rt, CONTEXT)).toEqual({ answer: null, note: '' });
    } finally {
      rt.close();
    }
  });

  it('reads toolArgs given as a JSON string, and never touches failures, retrieves, other tools or pre_tool', async () => {
    const rt = runtime();
    try {
      const asString = { ...LOG_EXIT_3, toolArgs: JSON.stringify(LOG_EXIT_3['toolArgs']) };
      expect((await copilot.answer('post_tool', asString, rt, CONTEXT)) as { answer: unknown }).toHaveProperty('answer.modifiedResult');
      const failure = { ...LOG_EXIT_3, toolResult: { resultType: 'failure', textResultForLlm: textOf(LOG_EXIT_3) } };
      expect(await copilot.answer('post_tool', failure, rt, CONTEXT)).toMatchObject({ answer: null });
      const retrieve = { ...LOG_EXIT_3, toolArgs: { command: `${WRAPPER} retrieve 1234` } };
      expect(await copilot.answer('post_tool', retrieve, rt, CONTEXT)).toMatchObject({ answer: null });
      expect(await copilot.answer('post_tool', { ...LOG_EXIT_3, toolName: 'view' }, rt, CONTEXT)).toMatchObject({ answer: null });
      const noExitLine = { ...LOG_EXIT_3, toolResult: { resultType: 'success', textResultForLlm: textOf(LOG_EXIT_3).replace(/<shellId[^>]*>$/, '') } };
      expect(await copilot.answer('post_tool', noExitLine, rt, CONTEXT)).toMatchObject({ answer: null });
      expect(await copilot.answer('pre_tool', PRE[2] ?? {}, rt, CONTEXT)).toMatchObject({ answer: null });
      expect(await copilot.answer('post_tool', { ...LOG_EXIT_3, toolResult: 'x' }, rt, CONTEXT)).toHaveProperty('error');
    } finally {
      rt.close();
    }
  });

  it('installs one hooks file of its own: idempotent, refuses a file that is not ours, and uninstall deletes only ours', () => {
    const target = { kind: 'command', wrapperCommand: WRAPPER } as const;
    const text = hooksFile(WRAPPER);
    expect(JSON.parse(text)).toEqual({ version: 1, hooks: { postToolUse: [{ type: 'command', bash: `${WRAPPER} hook post_tool`, timeoutSec: 30 }] } });
    expect(planInstall(null, target)).toEqual({ ok: true, changed: true, text, backup: 'none' });
    expect(planInstall(text, target)).toMatchObject({ ok: true, changed: false });
    const foreign = JSON.stringify({ version: 1, hooks: { postToolUse: [{ type: 'command', bash: 'echo mine' }] } });
    expect(ourHookCommands(foreign)).toBeNull();
    expect(planInstall(foreign, target)).toMatchObject({ ok: false });
    expect(planUninstall(foreign)).toMatchObject({ ok: false });
    expect(planUninstall(text)).toEqual({ ok: true, action: 'delete' });
    expect(copilotHooksPath('user', '/p', { HOME: '/h' })).toBe('/h/.copilot/hooks/save-your-tokens.json');
    expect(copilotHooksPath('user', '/p', { HOME: '/h', COPILOT_HOME: '/c' })).toBe('/c/hooks/save-your-tokens.json');
  });
});
