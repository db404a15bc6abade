/**
 * Read re-reads with the real Claude Code client (2.1.332) against the fake Anthropic server. Without our hooks the
 * client itself shows an identical Read in full every time (its binary has a "File unchanged since last read" stub,
 * but it is not used here): that is what makes the pointer worth having. With `syt init` hooks the second identical
 * Read is one pointer line, an Edit after it still succeeds, the changed file is shown as its changed lines only, an
 * Edit after that delta Read still succeeds (the client compares against the file on disk), a range inside the file
 * read whole is a pointer to those lines, and the SessionStart context that explains the retrieval line reaches the model.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRIEVAL_GUIDE } from '../../src/store/marker.ts';
import { runCli } from '../helpers/cli.ts';
import { startFakeAnthropic, type FakeRequest, type Script } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv, type SeenResult } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-reread: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');
const made: string[] = [];

const SOURCE = `${Array.from({ length: 40 }, (_, i) => `export const value${i} = compute(${i}, 'placeholder number ${i} of the module');`).join('\n')}\n`;

interface Outcome {
  readonly results: SeenResult[];
  readonly requests: FakeRequest[];
  readonly status: number | null;
  readonly stderr: string;
  readonly file: string;
}

async function session(withHooks: boolean): Promise<Outcome> {
  const root = mkdtempSync(join(tmpdir(), 'tokenless-reread-'));
  made.push(root);
  const dirs = sessionDirs(root);
  const file = join(dirs.work, 'module.js');
  writeFileSync(file, SOURCE);
  const read = (input: Record<string, unknown> = {}) => ({ tools: [{ name: 'Read', input: { file_path: file, ...input } }] });
  const script: Script = [
    read(),
    read(),
    { tools: [{ name: 'Edit', input: { file_path: file, old_string: "compute(7, 'placeholder number 7 of the module')", new_string: 'compute(7, "seven")' } }] },
    read(),
    read({ offset: 5, limit: 30 }),
    read({ offset: 5, limit: 30 }),
    { tools: [{ name: 'Edit', input: { file_path: file, old_string: 'compute(7, "seven")', new_string: 'compute(7, "VII")' } }] },
    read(),
    { text: 'done' },
  ];
  const server = await startFakeAnthropic(script);
  try {
    if (withHooks) {
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
    }
    const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, server.url), ['--dangerously-skip-permissions']);
    return { results: seenResults(server.requests), requests: server.requests, status: run.status, stderr: run.stderr, file: readFileSync(file, 'utf8') };
  } finally {
    await server.close();
  }
}

describe.skipIf(CLAUDE === null)('real Claude Code: identical Reads', () => {
  let baseline: Outcome;
  let ours: Outcome;
  beforeAll(async () => {
    [baseline, ours] = [await session(false), await session(true)];
  }, 300_000);
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('the client alone shows an identical Read in full again (it does not dedupe)', () => {
    expect(baseline.status, baseline.stderr).toBe(0);
    const [first, second] = baseline.results;
    expect(first?.content).toMatch(/^1\texport const value0 /);
    expect(second?.content).toBe(first?.content);
    expect(baseline.results[5]?.content).toBe(baseline.results[4]?.content);
  });

  it('with our hooks the second identical Read is one pointer line to the first, in Read\'s rendering', () => {
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.results.map((r) => r.tool)).toEqual(baseline.results.map((r) => r.tool));
    const [first, second] = ours.results;
    expect(first?.content).toBe(baseline.results[0]?.content);
    expect(second?.content).toMatch(/^1\t\[tokenless: same text as your earlier Read of this file and range \(tool call toolu_\w+\), still above in this conversation; this line is not file content\] \[tokenless retrieve [0-9]{29}\]$/);
    expect(second?.content.length).toBeLessThan((first?.content.length ?? 0) / 5);
  });

  it('an Edit after the pointed Read succeeds, and the changed file is shown as its changed line, numbered', () => {
    expect(ours.results[2]?.isError).toBe(false);
    expect(ours.results[2]?.content).toMatch(/has been updated successfully/);
    expect(baseline.results[3]?.content).toContain('compute(7, "seven")');
    const delta = ours.results[3]?.content ?? '';
    expect(delta).toMatch(/^1\t\[tokenless: this file changed since your earlier Read of it \(tool call toolu_\w+\)/);
    expect(delta).toMatch(/\[tokenless retrieve [0-9]{29}\]\n2\t@@ -8,1 \+8,1 @@\n3\t-8: export const value7 = compute\(7, 'placeholder number 7 of the module'\);\n4\t\+8: export const value7 = compute\(7, "seven"\);$/);
    expect(delta.length).toBeLessThan((baseline.results[3]?.content.length ?? 0) / 3);
  });

  it('an Edit after the delta Read succeeds, and the next Read is a delta against the last one', () => {
    expect(ours.results[6]?.isError).toBe(false);
    expect(ours.results[6]?.content).toMatch(/has been updated successfully/);
    expect(ours.file).toContain('compute(7, "VII")');
    expect(ours.results[7]?.content).toMatch(/\n3\t-8: export const value7 = compute\(7, "seven"\);\n4\t\+8: export const value7 = compute\(7, "VII"\);$/);
  });

  it('points a range read inside the file read whole at those lines, and a repeated one too', () => {
    expect(baseline.results[5]?.content).toBe(baseline.results[4]?.content);
    expect(ours.results[4]?.content).toMatch(/^5\t\[tokenless: same text as lines 5-34 of your earlier Read of this whole file/);
    expect(ours.results[5]?.content).toMatch(/^5\t\[tokenless: same text/);
  });

  it('the model is told once, at session start, what the retrieval line means', () => {
    const first = JSON.stringify(ours.requests.find((r) => r.body !== null)?.body?.messages ?? []);
    expect(first).toContain(JSON.stringify(RETRIEVAL_GUIDE).slice(1, -1));
    expect(JSON.stringify(baseline.requests.find((r) => r.body !== null)?.body?.messages ?? [])).not.toContain('[tokenless retrieve N]');
  });
});
