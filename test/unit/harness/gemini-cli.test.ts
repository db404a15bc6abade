import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { decideApproval, geminiArgv, readFlags, type ApprovalProbe } from '../../../src/harness/gemini-cli/approval.ts';
import { retrieveWithSession, rewriteForGeminiShell, wrapsABuiltin } from '../../../src/harness/gemini-cli/harness.ts';
import { planInstall, planUninstall } from '../../../src/harness/gemini-cli/install.ts';
import { harnessForEvent, sessionFromEnv } from '../../../src/harness/registry.ts';

const GEMINI = ['/usr/bin/node', '/cache/node_modules/@google/gemini-cli/bundle/gemini.js'];
const probe = (args: string[], extra: Partial<ApprovalProbe> = {}): ApprovalProbe => ({
  ancestors: [['/bin/bash', '-c', "'/n' '/c.cjs' hook pre_tool"], [...GEMINI, ...args]],
  settings: new Map(),
  nonEmptyRuleDirs: [],
  ...extra,
});

describe('registry', () => {
  it('routes Gemini CLI events to gemini-cli, other hook events to claude-code, envelopes to none', () => {
    expect(harnessForEvent({ hook_event_name: 'BeforeTool' })?.name).toBe('gemini-cli');
    expect(harnessForEvent({ hook_event_name: 'PreToolUse' })?.name).toBe('claude-code');
    // Shared by both dialects: stays Claude Code's, as before the seam.
    expect(harnessForEvent({ hook_event_name: 'SessionStart' })?.name).toBe('claude-code');
    expect(harnessForEvent({ hook_event_name: 42 })?.name).toBe('claude-code');
    expect(harnessForEvent({ protocol_version: 2 })).toBeNull();
  });

  it('finds the session of a command from our variable first, then the harness variables', () => {
    expect(sessionFromEnv({ TOKENLESS_SESSION_ID: 'a', CLAUDE_CODE_SESSION_ID: 'b' })).toBe('a');
    expect(sessionFromEnv({ CLAUDE_CODE_SESSION_ID: 'b' })).toBe('b');
    // Gemini CLI sets no such variable for its shell commands (its hook gets GEMINI_SESSION_ID; commands do not).
    expect(sessionFromEnv({ GEMINI_SESSION_ID: 'c' })).toBeNull();
  });
});

describe('Gemini CLI approval', () => {
  it('allows a rewrite only in a headless YOLO run with no rules of the user', () => {
    expect(decideApproval(probe(['-p', 'hi', '--approval-mode', 'yolo']))).toEqual({ runsWithoutAsking: true });
    expect(decideApproval(probe(['--yolo', '--prompt=hi']))).toEqual({ runsWithoutAsking: true });
    expect(decideApproval(probe(['-y', '-p', 'x', '-m', 'gemini-2.5-flash']))).toEqual({ runsWithoutAsking: true });
  });

  it('is unsure in the default mode, interactively, with rules, or without the process', () => {
    const no = (p: ApprovalProbe): string => {
      const verdict = decideApproval(p);
      return verdict.runsWithoutAsking ? 'allowed' : verdict.reason;
    };
    expect(no(probe(['-p', 'hi']))).toMatch(/not started in YOLO/);
    expect(no(probe(['-p', 'hi', '--approval-mode', 'default', '--yolo']))).toMatch(/not started in YOLO/);
    expect(no(probe(['--yolo']))).toMatch(/interactive/);
    expect(no(probe(['--yolo', '-p', 'x', '--allowed-tools', 'run_shell_command(ls)']))).toMatch(/--allowed-tools/);
    // A prompt that says "--yolo" is a value, not a flag.
    expect(no(probe(['-p', '--yolo']))).toMatch(/not started in YOLO/);
    expect(no(probe(['--yolo', '-p', 'x'], { settings: new Map([['/h/.gemini/settings.json', { tools: { exclude: ['rm'] } }]]) }))).toMatch(/tools\.exclude/);
    expect(no(probe(['--yolo', '-p', 'x'], { settings: new Map([['/h/.gemini/settings.json', 'not plain JSON']]) }))).toMatch(/not plain JSON/);
    expect(no(probe(['--yolo', '-p', 'x'], { nonEmptyRuleDirs: ['/h/.gemini/policies'] }))).toMatch(/policies/);
    expect(no({ ancestors: null, settings: new Map(), nonEmptyRuleDirs: [] })).toMatch(/cannot be read/);
    expect(no({ ancestors: [['/bin/bash']], settings: new Map(), nonEmptyRuleDirs: [] })).toMatch(/no Gemini CLI process/);
  });

  it('finds the client by its bundle or its bin name', () => {
    expect(geminiArgv([['/usr/local/bin/gemini', '-p', 'x']])).toEqual(['-p', 'x']);
    expect(geminiArgv([['node', '/x/prompt-about-gemini', '-p']])).toBeNull();
    expect(readFlags(['--approval-mode=yolo', '-p', 'x'])).toEqual({ yolo: true, headless: true, rules: null });
  });
});

describe('retrieve under the asking session', () => {
  it('prefixes the session to one simple retrieve of ours, and nothing else', () => {
    expect(retrieveWithSession("tokenless retrieve '123'", 's-1', "'/n' '/c.cjs'")).toBe("TOKENLESS_SESSION_ID=s-1 tokenless retrieve '123'");
    expect(retrieveWithSession("'/n' '/c.cjs' retrieve 12 --lines 1-5", 's', "'/n' '/c.cjs'")).toBe("TOKENLESS_SESSION_ID=s '/n' '/c.cjs' retrieve 12 --lines 1-5");
    expect(retrieveWithSession('syt retrieve 1', "a b'c", 'w')).toBe(`TOKENLESS_SESSION_ID='a b'\\''c' syt retrieve 1`);
    expect(retrieveWithSession('tokenless retrieve 1 | head', 's', 'w')).toBeNull();
    expect(retrieveWithSession('tokenless retrieve $(cat f)', 's', 'w')).toBeNull();
    expect(retrieveWithSession('echo tokenless retrieve 1', 's', 'w')).toBeNull();
    expect(retrieveWithSession('TOKENLESS_SESSION_ID=x tokenless retrieve 1', 's', 'w')).toBeNull();
  });
});

describe('Gemini CLI install plans', () => {
  const target = { kind: 'command' as const, wrapperCommand: "'/usr/bin/node' '/opt/syt/dist/cli.cjs'" };
  const original = '{\n    "general": { "vimMode": true },\n    "hooks": { "BeforeTool": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "lint" }] }] }\n}\n';

  it('adds one BeforeTool hook, keeps the rest, is idempotent, and uninstalls to the exact bytes', () => {
    const plan = planInstall(original, target);
    if (!plan.ok || !plan.changed) throw new Error('expected a change');
    expect(plan.backup).toBe('write');
    const settings = JSON.parse(plan.text) as { general: unknown; hooks: { BeforeTool: { matcher: string; hooks: { command: string; timeout: number }[] }[] } };
    expect(settings.general).toEqual({ vimMode: true });
    expect(settings.hooks.BeforeTool.map((g) => g.matcher)).toEqual(['write_file', 'run_shell_command']);
    expect(settings.hooks.BeforeTool[1]?.hooks[0]).toMatchObject({ command: "'/usr/bin/node' '/opt/syt/dist/cli.cjs' hook pre_tool", timeout: 30000 });
    expect(plan.text).toMatch(/^ {4}"general"/m);
    expect(planInstall(plan.text, target)).toEqual({ ok: true, changed: false, reason: 'our hooks are already registered' });
    expect(planUninstall(plan.text, original)).toEqual({ ok: true, action: 'write', text: original, restoredBackup: true });
  });

  it('creates and deletes a file that only holds our hook; refuses a commented file', () => {
    const plan = planInstall(null, target);
    if (!plan.ok || !plan.changed) throw new Error('expected a change');
    expect(plan.backup).toBe('none');
    expect(planUninstall(plan.text, null)).toEqual({ ok: true, action: 'delete' });
    expect(planInstall('{ // mine\n}', target)).toMatchObject({ ok: false });
    expect(planUninstall(original, null)).toMatchObject({ ok: true, action: 'unchanged' });
  });
});

describe('the rewrite for Gemini CLI\'s shell', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const rewrite = async (command: string, env: Record<string, string> = {}, extra: Record<string, unknown> = {}): Promise<string | null> => {
    const dir = mkdtempSync(join(tmpdir(), 'tokenless-gemini-unit-'));
    dirs.push(dir);
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dir }));
    try {
      const event = { session_id: 's-1', hook_event_name: 'BeforeTool' as const, tool_name: 'run_shell_command', tool_input: { command, ...extra } };
      return await rewriteForGeminiShell(command, event, runtime, { wrapperCommand: "'/usr/bin/node' '/opt/cli.cjs'", env });
    } finally {
      runtime.close();
    }
  };

  it('wraps a program without the $(command -v) guard Gemini CLI would block', async () => {
    const line = await rewrite('git status');
    expect(line).toContain("'/usr/bin/node' '/opt/cli.cjs' run -- git status");
    expect(line).toContain('TOKENLESS_SESSION_ID=s-1');
    expect(line).not.toMatch(/\$\(|`/);
    expect(line).toContain('TOKENLESS_HOLD_MS=10000');
  });

  it('lets a background call keep the short hold: Gemini CLI returns it to the model after 200 ms', async () => {
    const line = await rewrite('git status', {}, { is_background: true });
    expect(line).toContain('run -- git status');
    expect(line).not.toContain('TOKENLESS_HOLD_MS');
  });

  it('rewrites nothing where the shell could resolve the name otherwise', async () => {
    expect(await rewrite('git status', { BASH_FUNC_git: '() { echo mine; }' })).toBeNull();
    expect(await rewrite('git status', { BASH_ENV: '/home/u/.bashrc' })).toBeNull();
  });

  it('never wraps a name bash runs as a builtin or keyword', () => {
    const wrap = (source: string, viewArgv: string[]) => ({ source, start: 0, end: source.length, action: 'wrap' as const, reason: '', viewArgv });
    expect(wrapsABuiltin([wrap('git status', ['git', 'status'])])).toBe(false);
    expect(wrapsABuiltin([wrap('X=1 printf %s a', ['printf'])])).toBe(true);
    expect(wrapsABuiltin([wrap('time npm test', ['npm', 'test'])])).toBe(true);
    expect(wrapsABuiltin([{ ...wrap('echo a', ['echo']), action: 'keep' as const }])).toBe(false);
  });
});
