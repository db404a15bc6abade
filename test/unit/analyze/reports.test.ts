import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLabel, transcriptReport } from '../../../src/analyze/log-report.ts';
import { projectReport } from '../../../src/analyze/project-report.ts';
import { importsIn, scanProject } from '../../../src/analyze/project-scan.ts';
import { BUILTIN_PROFILES } from '../../../src/budget/profiles.ts';
import { tokenCounter } from '../../../src/tokens/count.ts';
import { readClaudeCodeTranscript } from '../../../src/transcript/claude-code-turns.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';

const PROJECT = join(FIXTURES_DIR, 'projects', 'budget-demo');
const REAL = join(FIXTURES_DIR, 'transcripts', 'claude-code', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');

describe('project scan and report', () => {
  it('finds instruction files, imports, skills, commands, MCP servers and progress notes', () => {
    const found = scanProject(PROJECT);
    expect(found.map((i) => `${i.kind}:${i.path}${i.mcpServer !== undefined ? `#${i.mcpServer}` : ''}`).sort()).toEqual([
      'command:.claude/commands/review.md',
      'import:docs/architecture.md',
      'import:progress.md',
      'instructions:AGENTS.md',
      'instructions:CLAUDE.md',
      'mcp:.mcp.json#filesystem',
      'mcp:.mcp.json#github',
      'skill:.claude/skills/debugging/SKILL.md',
    ]);
    expect(found.find((i) => i.path === 'progress.md')?.layer).toBe('session');
  });

  it('takes @path imports but not e-mail addresses or code spans', () => {
    expect(importsIn('See @docs/a.md and `@not/this.md`, mail me@example.com, @./b.md\n```\n@c.md\n```')).toEqual(['docs/a.md', './b.md']);
  });

  it('counts with o200k, estimates MCP schemas and gives concrete advice', async () => {
    const count = await tokenCounter();
    const report = projectReport(PROJECT, scanProject(PROJECT), count, BUILTIN_PROFILES.agentic, 200_000);
    const claude = report.items.find((i) => i.path === 'CLAUDE.md');
    expect(claude?.tokens).toBe(count(readFileSync(join(PROJECT, 'CLAUDE.md'), 'utf8')));
    expect(report.items.filter((i) => i.estimated).map((i) => i.tokens)).toEqual([4_000, 4_000]);
    expect(report.layers.find((l) => l.layer === 'persistent')?.budget).toBe(24_000);
    expect(report.advice.some((a) => a.startsWith('progress.md:') && a.includes('syt compact progress.md'))).toBe(true);
    expect(report.advice.some((a) => a.includes('2 MCP servers (filesystem, github)'))).toBe(true);
  });
});

describe('transcript report', () => {
  it('sums context, cache share and what fills the context', async () => {
    const count = await tokenCounter();
    const transcript = readClaudeCodeTranscript(readFileSync(REAL, 'utf8'), 'real');
    const report = transcriptReport(transcript, count);
    expect(report.totals.cumulative_context).toBe(transcript.requests.reduce((s, r) => s + r.contextTokens, 0));
    expect(report.totals.cache_hit_share).toBeGreaterThan(0.9);
    expect(report.fills.by_tool[0]?.name).toBe('Read');
    expect(report.fills.repeated_reads[0]).toMatchObject({ reads: 3 });
    expect(report.fills.prefix_tokens_inferred).toBeGreaterThan(10_000);
  });

  it.each([
    ['git status -s', 'git status'],
    ['timeout 60 npm run build', 'npm run'],
    ['cd app && ls -la', 'ls'], ['cd app && npm test 2>&1 | tail', 'npm test'],
    ['/usr/bin/find . -name x', 'find'],
  ])('labels %s as %s', (command, label) => {
    expect(commandLabel(command)).toBe(label);
  });
});
