import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { opencodePluginPath, planInstall, planUninstall } from '../../../src/harness/opencode/install.ts';
import { DEFAULT_VIEW_MIN_BYTES } from '../../../src/config/view-threshold.ts';
import { PLUGIN_MARKER, pluginSource } from '../../../src/harness/opencode/plugin-source.ts';

const TARGET = { kind: 'command', wrapperCommand: "'/opt/syt/bin/tokenless'" } as const;

type After = (input: object, output: { title: string; output: string; metadata: object }) => Promise<void>;
type ShellEnv = (input: object, output: { env: Record<string, string> }) => Promise<void>;

/** The plugin as OpenCode loads it: the written module's exported function, called for its hooks. */
async function loadPlugin(wrapperCommand: string): Promise<{ after: After; shellEnv: ShellEnv }> {
  const file = join(mkdtempSync(join(tmpdir(), 'syt-opencode-')), 'save-your-tokens.mjs');
  writeFileSync(file, pluginSource(wrapperCommand));
  const module = (await import(pathToFileURL(file).href)) as { SaveYourTokens: () => Promise<Record<string, unknown>> };
  const hooks = await module.SaveYourTokens();
  return { after: hooks['tool.execute.after'] as After, shellEnv: hooks['shell.env'] as ShellEnv };
}

// Payload shapes as observed from OpenCode 1.18.33 (docs/agents/opencode.md).
const input = { tool: 'bash', sessionID: 'ses_1', callID: 'call_1', args: { command: 'make', description: 'build' } };
const big = 'x'.repeat(DEFAULT_VIEW_MIN_BYTES) + '\n';

describe('opencode install plans', () => {
  it('writes our plugin, leaves it when unchanged, refuses a file that is not ours and an HTTP target', () => {
    const first = planInstall(null, TARGET);
    expect(first.ok && first.changed && first.text.startsWith(`${PLUGIN_MARKER}\n`)).toBe(true);
    if (!first.ok || !first.changed) throw new Error('unreachable');
    expect(first.text).toContain(JSON.stringify(`${TARGET.wrapperCommand} hook post_tool`));
    expect(planInstall(first.text, TARGET)).toEqual({ ok: true, changed: false, reason: 'the plugin is already installed' });
    expect(planInstall('export const Mine = async () => ({});\n', TARGET).ok).toBe(false);
    expect(planInstall(null, { kind: 'http', baseUrl: 'http://127.0.0.1:1', token: 't' }).ok).toBe(false);
  });

  it('deletes only our plugin', () => {
    const text = pluginSource(TARGET.wrapperCommand);
    expect(planUninstall(text)).toEqual({ ok: true, action: 'delete' });
    expect(planUninstall(null)).toMatchObject({ ok: true, action: 'unchanged' });
    expect(planUninstall('// someone else\n').ok).toBe(false);
  });

  it('puts the user plugin under XDG_CONFIG_HOME, else ~/.config, and the project one under .opencode/plugins', () => {
    expect(opencodePluginPath('user', '/p', { XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/opencode/plugins/save-your-tokens.js');
    expect(opencodePluginPath('user', '/p', { HOME: '/h' })).toBe('/h/.config/opencode/plugins/save-your-tokens.js');
    expect(opencodePluginPath('project', '/p', {})).toBe('/p/.opencode/plugins/save-your-tokens.js');
  });
});

describe('the opencode plugin', () => {
  it('leaves output under the view threshold, and other tools, alone without starting the engine', async () => {
    // A wrapper that would fail the test if it ran: its answer replaces every output.
    const { after } = await loadPlugin(`printf '{"result":{"disposition":"applied","output":"VIEW"}}'; :`);
    const small = { title: 't', output: 'y'.repeat(DEFAULT_VIEW_MIN_BYTES - 1), metadata: { exit: 0 } };
    await after(input, small);
    expect(small.output).toBe('y'.repeat(DEFAULT_VIEW_MIN_BYTES - 1));
    const read = { title: 't', output: big, metadata: {} };
    await after({ ...input, tool: 'read' }, read);
    expect(read.output).toBe(big);
  });

  it("replaces a large bash output with the engine's view, and keeps it when the engine fails or declines", async () => {
    const applied = await loadPlugin(`printf '{"result":{"disposition":"applied","output":"VIEW"}}'; :`);
    const output = { title: 't', output: big, metadata: { exit: 3 } };
    await applied.after(input, output);
    expect(output).toEqual({ title: 't', output: 'VIEW', metadata: { exit: 3 } });
    for (const wrapper of ['exit 1; :', `printf '{"result":{"disposition":"no_savings","output":"VIEW"}}'; :`, "printf 'not json'; :"]) {
      const kept = { title: 't', output: big, metadata: {} };
      await (await loadPlugin(wrapper)).after(input, kept);
      expect(kept.output).toBe(big);
    }
  });

  it('sends the status the exit code says (metadata.exit), so the engine never views a failed command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'syt-opencode-status-'));
    const statuses: unknown[] = [];
    for (const [i, metadata] of [{ exit: 0 }, { exit: 3 }, {}].entries()) {
      const sent = join(dir, `sent-${i}.json`);
      await (await loadPlugin(`cat > '${sent}'; exit 1; :`)).after(input, { title: 't', output: big, metadata });
      statuses.push((JSON.parse(readFileSync(sent, 'utf8')) as { input: { status: unknown } }).input.status);
    }
    expect(statuses).toEqual(['success', 'error', 'error']);
  });

  it("names the session in the shell's environment, so a retrieve is authorised by the session shown the marker", async () => {
    const { shellEnv } = await loadPlugin('true');
    const output = { env: {} as Record<string, string> };
    await shellEnv({ cwd: '/p', sessionID: 'ses_1', callID: 'call_1' }, output);
    expect(output.env).toEqual({ TOKENLESS_SESSION_ID: 'ses_1' });
  });
});
