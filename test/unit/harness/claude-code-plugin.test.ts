// The Claude Code plugin (.claude-plugin/marketplace.json + plugins/save-your-tokens/) must register exactly the hooks
// `syt init --harness claude-code` installs: its hooks.json is checked against the same install plan, so they cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ourGroups } from '../../../src/harness/claude-code/install.ts';

const ROOT = join(import.meta.dirname, '../../..');
const readJson = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;

describe('the Claude Code plugin', () => {
  it('registers the hooks syt init installs, calling tokenless on PATH', () => {
    const expected = Object.fromEntries(Object.entries(ourGroups({ kind: 'command', wrapperCommand: 'tokenless' })).map(([event, group]) => [event, [group]]));
    expect(readJson('plugins/save-your-tokens/hooks/hooks.json')['hooks']).toEqual(expected);
  });

  it('is listed by the marketplace under the plugin folder, with the package version', () => {
    const marketplace = readJson('.claude-plugin/marketplace.json');
    const plugin = readJson('plugins/save-your-tokens/.claude-plugin/plugin.json');
    expect(marketplace['plugins']).toEqual([expect.objectContaining({ name: plugin['name'], source: './plugins/save-your-tokens' })]);
    expect(plugin['version']).toBe(readJson('package.json')['version']);
  });
});
