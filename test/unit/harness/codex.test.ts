import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { decideApproval, NEVER_ASKS, type ApprovalProbe } from '../../../src/harness/codex/approval.ts';
import { trustCheck } from '../../../src/harness/codex/doctor.ts';
import { harness as codex } from '../../../src/harness/codex/harness.ts';
import { planInstall, planUninstall } from '../../../src/harness/codex/install.ts';
import { rulesDirectories } from '../../../src/harness/codex/settings.ts';
import { harnessForEvent, sessionFromEnv } from '../../../src/harness/registry.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tokenless-codex-unit-'));
  dirs.push(dir);
  return dir;
}

/** A PreToolUse event as Codex 0.169.0 sends it (captured with a logging hook). */
const event = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  session_id: '01a233b2-32b3-7380-a9bc-51911ae09cc0',
  turn_id: '01a233b2-32d3-70c2-9213-e509ae22dee1',
  transcript_path: '/home/u/.codex/sessions/rollout.jsonl',
  cwd: '/work',
  hook_event_name: 'PreToolUse',
  model: 'gpt-5',
  permission_mode: 'bypassPermissions',
  tool_name: 'Bash',
  tool_input: { command: 'ls -la' },
  tool_use_id: 'call_1',
  ...overrides,
});

const probe = (extra: Partial<ApprovalProbe> = {}): ApprovalProbe => ({ permissionMode: NEVER_ASKS, shell: '/bin/bash', nonEmptyRuleDirs: [], managedFiles: [], ...extra });

describe('registry', () => {
  it('routes Codex events (they carry turn_id) to codex, and leaves Claude Code and Gemini CLI theirs', () => {
    expect(harnessForEvent(event())?.name).toBe('codex');
    expect(harnessForEvent({ hook_event_name: 'PostToolUse', turn_id: 't' })?.name).toBe('codex');
    const claude = { ...event() };
    delete claude['turn_id'];
    expect(harnessForEvent(claude)?.name).toBe('claude-code');
    expect(harnessForEvent({ hook_event_name: 'BeforeTool' })?.name).toBe('gemini-cli');
    expect(harnessForEvent({ turn_id: 't' })).toBeNull();
  });

  it('finds the session of a command from CODEX_SESSION_ID, after our own variable', () => {
    expect(sessionFromEnv({ CODEX_SESSION_ID: 'c' })).toBe('c');
    expect(sessionFromEnv({ TOKENLESS_SESSION_ID: 'a', CODEX_SESSION_ID: 'c' })).toBe('a');
  });
});

describe('Codex approval', () => {
  it('allows a rewrite only where Codex never asks, with no rules and a POSIX shell', () => {
    expect(decideApproval(probe())).toEqual({ runsWithoutAsking: true });
    expect(decideApproval(probe({ shell: undefined }))).toEqual({ runsWithoutAsking: true });
    expect(decideApproval(probe({ shell: '/usr/bin/zsh' }))).toEqual({ runsWithoutAsking: true });
    for (const mode of ['default', 'acceptEdits', 'plan', 'dontAsk', undefined]) {
      expect(decideApproval(probe({ permissionMode: mode }))).toMatchObject({ runsWithoutAsking: false, reason: expect.stringMatching(/permission mode/) as string });
    }
    expect(decideApproval(probe({ shell: '/usr/bin/fish' }))).toMatchObject({ runsWithoutAsking: false, reason: expect.stringMatching(/not a POSIX shell/) as string });
    expect(decideApproval(probe({ nonEmptyRuleDirs: ['/h/.codex/rules'] }))).toMatchObject({ runsWithoutAsking: false, reason: expect.stringMatching(/exec-policy rules/) as string });
    expect(decideApproval(probe({ managedFiles: ['/etc/codex/requirements.toml'] }))).toMatchObject({ runsWithoutAsking: false });
  });

  it('looks for rules in the system, user and every project layer from / down to cwd', () => {
    const found = rulesDirectories('/a/b', { CODEX_HOME: '/h' });
    expect(found).toEqual(['/etc/codex/rules', '/h/rules', '/a/b/.codex/rules', '/a/.codex/rules', '/.codex/rules']);
    expect(rulesDirectories('/', { HOME: '/home/u' })).toEqual(['/etc/codex/rules', '/home/u/.codex/rules', '/.codex/rules']);
  });
});

describe('Codex PreToolUse answers', () => {
  const WRAPPER = "'/usr/bin/node' '/opt/cli.cjs'";
  const answer = async (raw: Record<string, unknown>, env: Record<string, string> = {}, config: Record<string, string> = {}) => {
    const home = tempDir();
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: join(home, 'data'), ...config }));
    try {
      return await codex.answer('pre_tool', raw, runtime, { wrapperCommand: WRAPPER, env: { HOME: home, CODEX_HOME: join(home, 'codex'), ...env } });
    } finally {
      runtime.close();
    }
  };

  it('rewrites a filterable command with "allow", keeping every other input field', async () => {
    const result = await answer(event({ cwd: tempDir(), tool_input: { command: 'ls -la', extra: 1 } }));
    expect(result).toMatchObject({ answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } } });
    const updated = (result as { answer: { hookSpecificOutput: { updatedInput: Record<string, unknown> } } }).answer.hookSpecificOutput.updatedInput;
    expect(updated['extra']).toBe(1);
    expect(updated['command']).toContain(`${WRAPPER} run -- ls -la`);
    expect(updated['command']).toContain('TOKENLESS_AGENT_ID=codex');
    expect(updated['command']).toContain('TOKENLESS_SESSION_ID=01a233b2-32b3-7380-a9bc-51911ae09cc0');
  });

  it('passes through outside bypassPermissions, where a rules file exists, for other tools and when disabled', async () => {
    expect(await answer(event({ cwd: tempDir(), permission_mode: 'default' }))).toMatchObject({ answer: null, note: expect.stringMatching(/^passthrough: permission mode default/) as string });
    const home = tempDir();
    mkdirSync(join(home, 'rules'));
    writeFileSync(join(home, 'rules', 'default.rules'), 'prefix_rule(pattern=["ls"], decision="allow")\n');
    expect(await answer(event({ cwd: tempDir() }), { CODEX_HOME: home })).toMatchObject({ answer: null, note: expect.stringMatching(/exec-policy rules/) as string });
    expect(await answer(event({ cwd: tempDir(), tool_name: 'apply_patch' }))).toEqual({ answer: null, note: '' });
    expect(await answer(event({ cwd: tempDir() }), {}, { TOKENLESS_DISABLED: '1' })).toEqual({ answer: null, note: 'passthrough: TOKENLESS_DISABLED is set' });
  });

  it('reports a malformed event or another lifecycle as an error', async () => {
    expect(await answer(event({ tool_use_id: 7 }))).toMatchObject({ error: expect.stringMatching(/^not a PreToolUse event/) as string });
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: join(tempDir(), 'data') }));
    try {
      expect(await codex.answer('post_tool', event(), runtime, { wrapperCommand: WRAPPER, env: {} })).toEqual({ error: 'lifecycle post_tool has no Codex hook of ours' });
    } finally {
      runtime.close();
    }
  });
});

describe('Codex install plans', () => {
  const target = { kind: 'command' as const, wrapperCommand: "'/usr/bin/node' '/opt/syt/dist/cli.cjs'" };

  it('adds one PreToolUse hook on Bash next to the user\'s hooks, is idempotent, and uninstalls to the exact bytes', () => {
    const original = '{\n    "hooks": {\n        "Stop": [{ "hooks": [{ "type": "command", "command": "/usr/local/bin/notify" }] }]\n    }\n}\n';
    const plan = planInstall(original, target);
    if (!plan.ok || !plan.changed) throw new Error('expected a change');
    expect(plan.backup).toBe('write');
    expect(JSON.parse(plan.text)).toEqual({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: '/usr/local/bin/notify' }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "'/usr/bin/node' '/opt/syt/dist/cli.cjs' hook pre_tool", timeout: 30 }] }],
      },
    });
    expect(plan.text).toMatch(/^ {4}"hooks"/m);
    expect(planInstall(plan.text, target)).toEqual({ ok: true, changed: false, reason: 'our hooks are already registered' });
    expect(planUninstall(plan.text, original)).toEqual({ ok: true, action: 'write', text: original, restoredBackup: true });
  });

  it('creates the file when missing and deletes it on uninstall; refuses a file that is not plain JSON', () => {
    const plan = planInstall(null, target);
    if (!plan.ok || !plan.changed) throw new Error('expected a change');
    expect(plan.backup).toBe('none');
    expect(planUninstall(plan.text, null)).toEqual({ ok: true, action: 'delete' });
    expect(planInstall('{ "hooks": [] }', target)).toMatchObject({ ok: false });
    expect(planUninstall('{}', null)).toMatchObject({ ok: true, action: 'unchanged' });
  });
});

describe('Codex hook trust', () => {
  it('warns until config.toml holds a trust entry for our hook file', () => {
    const home = tempDir();
    const hooks = join(home, 'hooks.json');
    expect(trustCheck(hooks, { CODEX_HOME: home })).toMatchObject({ status: 'warn', detail: expect.stringMatching(/\/hooks/) as string });
    writeFileSync(join(home, 'config.toml'), `[hooks.state."${hooks}:pre_tool_use:0:0"]\ntrusted_hash = "sha256:x"\n`);
    expect(trustCheck(hooks, { CODEX_HOME: home })).toMatchObject({ status: 'ok' });
  });
});
