/**
 * The real Claude Code client (2.1.332) with the hooks `syt init` installs, against a fake model that calls three
 * skills: one that fits the context budget loads as usual, one that puts the persistent layer a little over loads
 * with a note of the budget, one that would put it far over is denied by our PreToolUse hook on the Skill tool, with
 * the reason the model then sees. One session, a few seconds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { startFakeAnthropic } from './claude/fake-anthropic.ts';
import { claudeBinary, runClaude, seenResults, sessionDirs, sessionEnv, type SeenResult } from './claude/session.ts';

const CLAUDE = claudeBinary();
if (CLAUDE === null) console.warn('claude-code-skills-real: Claude Code is not installed; run `bash scripts/install-claude-code.sh` (skipping)');

let root = '';
let results: SeenResult[] = [];
let status: number | null = null;
let stderr = '';
let lastRequest = '';

describe.skipIf(CLAUDE === null)('real Claude Code: the Skill-tool hook applies the budget', () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'tokenless-claude-skills-'));
    const dirs = sessionDirs(root);
    // A 40,000-token window: the persistent layer holds 4,800 tokens; CLAUDE.md takes about 3,000 of them (estimated).
    mkdirSync(dirs.data, { recursive: true });
    writeFileSync(join(dirs.data, 'config.json'), JSON.stringify({ budget: { context_window: 40_000 } }));
    writeFileSync(join(dirs.work, 'CLAUDE.md'), 'Run the tests before every commit and keep modules small.\n'.repeat(250));
    const skill = (name: string, description: string, body: string): void => {
      mkdirSync(join(dirs.work, '.claude', 'skills', name), { recursive: true });
      writeFileSync(join(dirs.work, '.claude', 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}`);
    };
    skill('greet', 'Greets the user', 'Say hello to the user.\n');
    // About 1,860 estimated tokens: with CLAUDE.md, the listing and greet, the layer ends about 3% over (a note).
    skill('release', 'Prepares a release', 'Check the release notes and the version number.\n'.repeat(168));
    skill('deploy', 'Deploys the app', 'Run the deploy script with the right flags, then check the health endpoint twice.\n'.repeat(70));
    const server = await startFakeAnthropic([
      { tools: [{ name: 'Skill', input: { skill: 'greet' } }] },
      { tools: [{ name: 'Skill', input: { skill: 'release' } }] },
      { tools: [{ name: 'Skill', input: { skill: 'deploy' } }] },
      { text: 'done' },
    ]);
    try {
      const init = runCli(['init'], { cwd: dirs.work, env: { HOME: dirs.home, CLAUDE_CONFIG_DIR: join(dirs.home, '.claude'), TOKENLESS_DATA_DIR: dirs.data } });
      expect(init.status, init.stderr).toBe(0);
      const run = await runClaude(CLAUDE ?? '', dirs, sessionEnv(dirs, server.url), ['--dangerously-skip-permissions']);
      status = run.status;
      stderr = run.stderr;
      results = seenResults(server.requests);
      lastRequest = JSON.stringify(server.requests.filter((request) => request.body !== null).at(-1)?.body ?? {});
    } finally {
      await server.close();
    }
  }, 200_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('loads the skill that fits, as without our hooks', () => {
    expect(status, stderr).toBe(0);
    expect(results.map((r) => [r.tool, r.input['skill']])).toEqual([['Skill', 'greet'], ['Skill', 'release'], ['Skill', 'deploy']]);
    expect(results[0]).toMatchObject({ isError: false, content: 'Launching skill: greet' });
    expect(lastRequest).not.toContain('[syt] Skill greet');
  });

  it('loads the skill slightly over budget and tells the model the budget', () => {
    expect(results[1]).toMatchObject({ isError: false, content: 'Launching skill: release' });
    expect(lastRequest).toMatch(/\[syt\] Skill release \(~[\d,]+ tokens\) puts the persistent layer of the context budget \(4,800 tokens: agentic profile, 40,000-token window\) at ~[\d,]+ tokens, \d% over/);
  });

  it('denies the skill over budget with a reason naming the budget, what is loaded and what to compact first', () => {
    const denied = results[2];
    expect(denied?.isError).toBe(true);
    expect(denied?.content).toContain('syt: skill deploy was not loaded: its ~');
    expect(denied?.content).toMatch(/the persistent layer of the context budget \(4,800 tokens: agentic profile, 40,000-token window\) at ~[\d,]+ tokens, \d+% over \(loads are refused above 20%\)/);
    expect(denied?.content).toMatch(/Loaded now: CLAUDE\.md ~[\d,]+, the skill listing ~\d+ \(3 skills\), skill release ~[\d,]+, skill greet ~\d+\./);
    expect(denied?.content).toContain('Compact first: CLAUDE.md (`syt compact CLAUDE.md --dry-run` shows what folds)');
  });
});
