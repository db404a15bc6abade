import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askReason } from '../../../src/harness/claude-code/answer.ts';
import { decideBashPermission } from '../../../src/harness/claude-code/permissions.ts';
import { claudeCodeDoctor } from '../../../src/harness/claude-code/doctor.ts';
import type { DoctorProbes } from '../../../src/harness/types.ts';
import { adviseAllowRule } from '../../../src/permissions/allow-advice.ts';

const DANGEROUS = [
  'git push origin main',
  'git push --force',
  'git commit -m wip',
  'git reset --hard HEAD~1',
  'git clone https://github.com/a/b',
  'npm publish',
  'npm install left-pad',
  'pnpm add react',
  'cargo install ripgrep',
  'go get example.com/x',
  'pip install requests',
  'rm -rf build',
  'curl https://example.com',
  'gh pr merge 12',
  'npx some-package',
  'node scripts/deploy.js',
  'python3 -c "import os"',
  'npm run deploy',
  'make install',
  'make',
];

const RUNNERS: readonly (readonly [string, string])[] = [
  ['npm test', 'Bash(npm test:*)'],
  ['npm run build', 'Bash(npm run build:*)'],
  ['npm run test:unit', 'Bash(npm run test:unit:*)'],
  ['pnpm lint', 'Bash(pnpm lint:*)'],
  ['cargo test --all', 'Bash(cargo test:*)'],
  ['go test ./...', 'Bash(go test:*)'],
  ['pytest tests/unit', 'Bash(pytest:*)'],
  ['npx vitest run', 'Bash(npx vitest:*)'],
  ['npx tsc --noEmit', 'Bash(npx tsc:*)'],
  ['make test', 'Bash(make test:*)'],
];

const argv = (command: string): string[] => command.split(' ');

describe('allow advice: only test and build runs get a rule', () => {
  it.each(DANGEROUS)('withholds a rule for %s and says why', (command) => {
    const advice = adviseAllowRule(argv(command));
    expect(advice.suggest).toBe(false);
    if (!advice.suggest) expect(advice.why).toMatch(/\w{4}/u);
  });

  it.each(RUNNERS)('suggests the narrow rule for %s', (command, expected) => {
    expect(adviseAllowRule(argv(command))).toEqual({ suggest: true, rule: expected });
  });

  it('the permission dialog never tells the person to allow git push (doctor suggests Bash(git push:*) regression)', () => {
    const decision = decideBashPermission('git push origin main', { rules: { allow: [], deny: [], ask: [] }, projectDir: '/p', unknownRules: null, mode: 'default' });
    expect(decision.verdict).toBe('asks');
    expect(askReason(decision.allowAdvice)).not.toContain('Bash(');
    const test = decideBashPermission('npm test', { rules: { allow: [], deny: [], ask: [] }, projectDir: '/p', unknownRules: null, mode: 'default' });
    expect(askReason(test.allowAdvice)).toContain('"Bash(npm test:*)"');
  });
});

describe('syt doctor permissions advice', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A transcript in which the agent ran each command three times. */
  function project(commands: readonly string[]): { project: string; env: Record<string, string> } {
    dir = mkdtempSync(join(tmpdir(), 'syt-doctor-advice-'));
    const project = join(dir, 'project');
    mkdirSync(project);
    const claude = join(dir, 'claude');
    const transcripts = join(claude, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(transcripts, { recursive: true });
    const lines = commands.flatMap((command, i) =>
      [0, 1, 2].flatMap((n) => [
        { type: 'assistant', sessionId: 's', message: { id: `m${i}-${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${i}-${n}`, name: 'Bash', input: { command } }], usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: 'user', sessionId: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}-${n}`, content: 'ok' }] } },
      ]),
    );
    writeFileSync(join(transcripts, 's.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n'));
    return { project, env: { CLAUDE_CONFIG_DIR: claude, HOME: dir } };
  }

  const probes: DoctorProbes = {
    version: () => '2.1.332 (Claude Code)',
    dataDir: () => ({ name: 'data-dir', status: 'ok', detail: 'ok' }),
    serverCheck: () => Promise.resolve({ name: 'http-server', status: 'ok', detail: 'ok' }),
  };

  it('never suggests allowing git push, npm publish, rm, curl or gh pr merge, and says why (doctor suggests Bash(git push:*) regression)', async () => {
    const { project: cwd, env } = project(['git push origin main', 'npm publish', 'rm -rf dist', 'curl -s https://example.com', 'gh pr merge 3', 'git commit -m x', 'npm test']);
    const checks = await claudeCodeDoctor(cwd, env, probes);
    const detail = checks.find((check) => check.name === 'permissions')?.detail ?? '';
    expect(detail).toContain('"Bash(npm test:*)" to permissions.allow');
    const [suggested = ''] = detail.split('no rule suggested');
    for (const unsafe of ['git push', 'npm publish', 'rm', 'curl', 'gh', 'git commit']) expect(suggested).not.toContain(`"Bash(${unsafe}`);
    // The rule named is what was typed (issue 30 item 6), withheld all the same.
    expect(detail).toMatch(/no rule suggested for .*"Bash\(git push origin main:\*\)" \(it publishes to a remote\)/u);
    expect(detail).toContain('"Bash(git commit:*)" (it changes the repository history)');
  });
});
