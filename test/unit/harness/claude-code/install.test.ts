import { describe, expect, it } from 'vitest';
import { planInstall, planUninstall, type HookTarget, OUR_HOOK_COUNT } from '../../../../src/harness/claude-code/install.ts';
import { countOurs, isOurHook } from '../../../../src/harness/hook-settings.ts';

const COMMAND: HookTarget = { kind: 'command', wrapperCommand: '/usr/bin/node /opt/syt/dist/cli.js' };
const HTTP: HookTarget = { kind: 'http', baseUrl: 'http://127.0.0.1:47615', token: 'a'.repeat(64) };
const RICH = `{
    "permissions": {"allow": ["Bash(npm test:*)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/guard"}]}]
    },
    "model": "opus"
}
`;

function install(text: string | null, target: HookTarget = COMMAND): string {
  const plan = planInstall(text, target);
  if (!plan.ok || !plan.changed) throw new Error(JSON.stringify(plan));
  return plan.text;
}

describe('planInstall / planUninstall', () => {
  it.each([
    ['missing', null],
    ['empty', ''],
    ['an empty object', '{}\n'],
    ['rich', RICH],
  ])('on a %s file: installs once, changes nothing the second time, and uninstall gives the original back', (_name, original) => {
    const installed = install(original);
    expect(countOurs(JSON.parse(installed) as Record<string, unknown>)).toBe(OUR_HOOK_COUNT);
    expect(planInstall(installed, COMMAND)).toMatchObject({ ok: true, changed: false });
    const plan = planUninstall(installed, original);
    if (original === null) expect(plan).toEqual({ ok: true, action: 'delete' });
    else expect(plan).toEqual({ ok: true, action: 'write', text: original, restoredBackup: true });
  });

  it('appends our group after the user hooks and keeps every other key', () => {
    const settings = JSON.parse(install(RICH)) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] }; model: string; permissions: unknown };
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ allow: ['Bash(npm test:*)'] });
    expect(settings.hooks.PreToolUse.map((group) => group.hooks[0]?.command)).toEqual(['/usr/local/bin/guard', '/usr/bin/node /opt/syt/dist/cli.js hook pre_tool']);
    expect(install(RICH)).toMatch(/^ {4}"permissions"/m);
  });

  it('switching to HTTP hooks replaces the command hooks: one hook per event', () => {
    const both = install(install(RICH), HTTP);
    expect(countOurs(JSON.parse(both) as Record<string, unknown>)).toBe(OUR_HOOK_COUNT);
    expect(both).not.toContain('hook pre_tool');
    expect(both).toContain('"X-Tokenless-Token"');
    expect(planInstall(install(RICH), HTTP)).toMatchObject({ backup: 'keep' });
  });

  it('refuses a file that is not valid JSON', () => {
    expect(planInstall('{\n  // "model": "opus"\n}\n', COMMAND)).toMatchObject({ ok: false, error: expect.stringMatching(/not valid JSON/) as unknown });
    expect(planUninstall('{,}', null)).toMatchObject({ ok: false });
  });

  it('uninstall keeps changes made after init and only drops ours', () => {
    const edited = install(RICH).replace('"opus"', '"sonnet"');
    const plan = planUninstall(edited, RICH);
    expect(plan).toMatchObject({ ok: true, action: 'write', restoredBackup: false });
    if (plan.ok && plan.action === 'write') {
      expect(countOurs(JSON.parse(plan.text) as Record<string, unknown>)).toBe(0);
      expect(plan.text).toContain('"sonnet"');
      expect(plan.text).toContain('/usr/local/bin/guard');
    }
  });

  it.each([
    [{ type: 'command', command: "'/usr/bin/node' '/x y/dist/cli.js' hook pre_tool" }, true],
    [{ type: 'command', command: '/usr/local/bin/tokenless hook post_tool' }, true],
    [{ type: 'command', command: '/usr/local/bin/guard hook pre_tool' }, false],
    [{ type: 'http', url: 'http://127.0.0.1:1/tokenless/claude-code/pre_tool' }, true],
    [{ type: 'http', url: 'http://example.com/tokenless/claude-code/pre_tool' }, false],
  ])('isOurHook(%j) is %s', (entry, expected) => {
    expect(isOurHook(entry)).toBe(expected);
  });
});
