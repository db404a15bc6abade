import { describe, expect, it } from 'vitest';
import { loadHarness } from '../../../src/harness/load.ts';
import { DEFAULT_HARNESS, HARNESSES, HARNESS_NAMES, SESSION_ENV, harnessByName, shellOutputCap } from '../../../src/harness/registry.ts';

describe('harness registry', () => {
  it.each(HARNESS_NAMES)('%s: its folder exports the harness its entry names', async (name) => {
    const harness = await loadHarness(harnessByName(name));
    expect(harness.name).toBe(name);
    expect(harness.title).not.toBe('');
  });

  it('derives the names, the default and the session variables from the entries, ours first', () => {
    expect(HARNESS_NAMES).toEqual(HARNESSES.map((entry) => entry.name));
    expect(HARNESS_NAMES).toContain(DEFAULT_HARNESS);
    expect(SESSION_ENV).toEqual(['TOKENLESS_SESSION_ID', 'CLAUDE_CODE_SESSION_ID']);
  });

  it('knows the shell output cap by transcript source; other sources keep output whole', () => {
    expect(shellOutputCap('claude-code')).toBe(30_000);
    expect(shellOutputCap('gemini-cli')).toBeNull();
    expect(shellOutputCap('aider')).toBeNull();
  });

  it('has no HTTP hooks or session events for a harness that declares none', async () => {
    const gemini = await loadHarness(harnessByName('gemini-cli'));
    expect(gemini.localSettingsPath).toBeNull();
    expect(gemini.answerSession).toBeNull();
    expect(gemini.planInstall(null, { kind: 'http', baseUrl: 'http://127.0.0.1:1', token: 't' })).toEqual({ ok: false, error: 'Gemini CLI has command hooks only' });
  });
});
