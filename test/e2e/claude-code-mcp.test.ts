/**
 * An MCP tool's result through the real Claude Code client (2.1.332): with `syt init`'s hooks, PostToolUse replaces a
 * pretty-printed JSON result with a shorter view in the shape the client accepts for MCP tools (a string), and the
 * model sees it; without hooks it sees the original. The data is a real `npm view --json` document from the corpus.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR, loadCorpusCase } from '../helpers/fixtures.ts';
import { startFakeAnthropic } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-mcp: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const DOCUMENT = loadCorpusCase('data-npm-view-express-json').stdout;
const TOOL = 'mcp__docs__document';

async function session(withHooks: boolean): Promise<{ content: string; status: number | null; stderr: string }> {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-mcp-'));
  made.push(root);
  const dirs = sessionDirs(root);
  writeFileSync(join(root, 'document.json'), DOCUMENT);
  const config = { mcpServers: { docs: { command: process.execPath, args: [join(FIXTURES_DIR, 'mcp', 'json-server.mjs'), join(root, 'document.json')] } } };
  writeFileSync(join(root, 'mcp.json'), JSON.stringify(config));
  const server = await startFakeAnthropic([{ tools: [{ name: TOOL, input: {} }] }, { text: 'done' }], {});
  try {
    if (withHooks) {
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
    }
    const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, server.url), ['--mcp-config', join(root, 'mcp.json'), '--allowedTools', TOOL]);
    const result = seenResults(server.requests).find((seen) => seen.tool === TOOL);
    return { content: result?.content ?? '', status: run.status, stderr: run.stderr };
  } finally {
    await server.close();
  }
}

describe.skipIf(CLAUDE === null)('real Claude Code: an MCP tool result', () => {
  it('reaches the model shorter with our hooks, and holds the same JSON', async () => {
    const baseline = await session(false);
    const ours = await session(true);
    expect(baseline.status, baseline.stderr).toBe(0);
    expect(ours.status, ours.stderr).toBe(0);
    expect(JSON.parse(baseline.content)).toEqual(JSON.parse(DOCUMENT));
    expect(ours.content.length).toBeGreaterThan(0);
    expect(ours.content.length).toBeLessThan(baseline.content.length * 0.9);
    // The view is either the same JSON without its whitespace, or a lossy view that names its retrieval marker.
    const sameJson = (() => {
      try {
        return JSON.stringify(JSON.parse(ours.content)) === JSON.stringify(JSON.parse(DOCUMENT));
      } catch {
        return false;
      }
    })();
    expect(sameJson || /tokenless/.test(ours.content), ours.content.slice(0, 2000)).toBe(true);
  }, 300_000);
});
