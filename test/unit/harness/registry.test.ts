import { describe, expect, it } from 'vitest';
import { loadHarness } from '../../../src/harness/load.ts';
import { DEFAULT_HARNESS, HARNESSES, HARNESS_NAMES, SESSION_ENV, harnessByName } from '../../../src/harness/registry.ts';

describe('harness registry', () => {
  it.each(HARNESS_NAMES)('%s: its folder exports the harness its entry names', async (name) => {
    const harness = await loadHarness(harnessByName(name));
    expect(harness.name).toBe(name);
    expect(harness.title).not.toBe('');
  });

  it('derives the names, the default and the session variables from the entries, ours first', () => {
    expect(HARNESS_NAMES).toEqual(HARNESSES.map((entry) => entry.name));
    expect(HARNESS_NAMES).toContain(DEFAULT_HARNESS);
    expect(SESSION_ENV).toEqual(['TOKENLESS_SESSION_ID', 'CODEX_SESSION_ID', 'COPILOT_AGENT_SESSION_ID', 'CLAUDE_CODE_SESSION_ID']);
  });


  it.each([
    ['gemini-cli', 'Gemini CLI has command hooks only'],
    ['codex', 'Codex CLI has command hooks only'],
    ['copilot', 'Copilot CLI runs command hooks only (drop --http)'],
  ] as const)('%s: no HTTP hooks, session events or legacy files; its project file names machine paths, so git ignores it', async (name, error) => {
    const harness = await loadHarness(harnessByName(name));
    expect(harness.httpHooks).toBe(false);
    expect(harness.answerSession).toBeNull();
    expect(harness.privateProjectSettings).toBe(true);
    expect(harness.legacySettingsPaths('project', '/p')).toEqual([]);
    expect(harness.nextSteps('/p/file.json', 'command', 'project', 'syt').join('\n')).toContain(`syt doctor --harness ${name}`);
    expect((await harness.installer()).planInstall(null, { kind: 'http', baseUrl: 'http://127.0.0.1:1', token: 't' })).toEqual({ ok: false, error });
  });

  it('claude-code: HTTP hooks, and a project file of its own that git ignores, beside the 0.1 one', async () => {
    const harness = await loadHarness(harnessByName('claude-code'));
    expect(harness.httpHooks).toBe(true);
    // A project's HTTP hooks carry the token: only a harness whose project file stays private may have them.
    expect(harness.privateProjectSettings).toBe(true);
    expect(harness.settingsPath('project', '/p', {})).toBe('/p/.claude/settings.local.json');
    expect(harness.legacySettingsPaths('project', '/p')).toEqual(['/p/.claude/settings.json']);
    expect(harness.legacySettingsPaths('user', '/p')).toEqual([]);
  });
});
