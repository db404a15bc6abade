/**
 * Compaction on real context files (test/fixtures/compact/, sources and licences in SOURCES.md): instruction files
 * (CLAUDE.md, AGENTS.md) lose nothing, whatever words their headings use; changelogs and progress files fold only
 * checked items, released entries and older dated entries, and every fold restores byte-exact.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planCompaction, restoreText } from '../../../src/compact/fold.ts';
import { ROOT } from '../../helpers/root.ts';

const DIR = join(ROOT, 'test', 'fixtures', 'compact');
const read = (name: string): string => readFileSync(join(DIR, name), 'utf8');
const ALL = { finished: true, staleSections: true } as const;

const INSTRUCTIONS = ['howmanyhours.CLAUDE.md', 'devflow.CLAUDE.md', 'openclaw.CLAUDE.md', 'openclaw.AGENTS.md', 'pydantic-ai.AGENTS.md', 'agentv.AGENTS.md'];
const LOGS = ['howmanyhours.CHANGELOG.md', 'devflow.CHANGELOG.md', 'context-evaluator.CHANGELOG.md', 'pyjamaz.TODO.md'];

describe('compaction folds only what is finished (real files)', () => {
  it.each(INSTRUCTIONS)('folds nothing of the live instructions in %s (compact folds a "history" section regression)', (name) => {
    expect(planCompaction(read(name), ALL).folds.map((fold) => fold.original.slice(0, 60))).toEqual([]);
  });

  it.each(LOGS)('in %s every fold is a checked run, a checked-only section or a dated entry, with no open item, and restores', (name) => {
    const text = read(name);
    const plan = planCompaction(text, ALL);
    for (const fold of plan.folds) {
      expect(fold.original).not.toMatch(/^\s*(?:[-*+]|\d+[.)])\s+\[ \]/mu);
      expect(fold.reason).toMatch(/checked|changelog entry|dated log entry/u);
    }
    const stash = new Map(plan.entries.map((entry) => [entry.key, Buffer.from(entry.bytes).toString('utf8')]));
    expect(restoreText(plan.output, (key) => stash.get(key) ?? null).output).toBe(text);
  });

  it('folds every released entry of a changelog and keeps [Unreleased]', () => {
    const text = read('devflow.CHANGELOG.md');
    const releases = text.split('\n').filter((line) => /^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/u.test(line));
    const plan = planCompaction(text, ALL);
    expect(plan.folds.map((fold) => fold.kind)).toEqual(releases.map(() => 'dated'));
    expect(plan.folds[0]?.reason).toBe('a released changelog entry (2026-01-16), no open item');
    // Too short to be worth a marker: "- Initial release" stays as it is.
    expect(planCompaction(read('howmanyhours.CHANGELOG.md'), ALL).folds).toEqual([]);
  });

  it('folds the checked runs of a roadmap and keeps the phases that still have open boxes', () => {
    const text = read('pyjamaz.TODO.md');
    const plan = planCompaction(text, ALL);
    expect(plan.folds.filter((fold) => fold.kind === 'finished').length).toBeGreaterThan(2);
    const open = text.split('\n').filter((line) => /^\s*- \[ \]/u.test(line));
    for (const line of open) expect(plan.output).toContain(line);
  });
});

describe('compaction never folds a section because of a word in its heading', () => {
  it.each([
    ['## History hygiene\n\nSquash before the first push; never add a follow-up scrub commit, the original stays reachable.\n'],
    ['## Changelog\nAfter making changes, update CHANGELOG.md under [Unreleased], one line per change, before committing.\n'],
    ['## Done criteria\n- Tests pass on Node 20 and 22\n- The README names the new command and its flags in full\n'],
    ['## Completed migrations\nNever edit a completed migration file; add a new one that alters the schema instead.\n'],
  ])('keeps %j', (text) => {
    expect(planCompaction(text, ALL).folds).toEqual([]);
  });

  it('folds a section whose every item is checked, saying so', () => {
    const text = '## Sprint 1\n- [x] Readers for Claude Code transcripts\n- [x] Replay through the filters\n  - with the recorded outputs\n\n## Next\n- [ ] Wire the hooks\n';
    const plan = planCompaction(text, ALL);
    expect(plan.folds.map((fold) => [fold.kind, fold.reason])).toEqual([['section', 'every item in it (2) is checked ([x])']]);
    expect(plan.output).toContain('- [ ] Wire the hooks');
  });

  it('keeps a checked item whose subtasks are still open', () => {
    const text = '- [x] Ship the parser\n  - [ ] fuzz it\n- [x] Ship the printer\n- [x] Ship the docs\n';
    const plan = planCompaction(text, ALL);
    expect(plan.output).toContain('- [x] Ship the parser\n  - [ ] fuzz it\n');
    expect(plan.folds.map((fold) => fold.lines)).toEqual([2]);
  });

  it('never reads a checked box or heading inside a code fence', () => {
    const text = '## Checklist format\n```markdown\n- [x] done item\n- [x] another done item, written like this in the notes file\n# Not a heading\n```\nUse it in progress.md.\n';
    expect(planCompaction(text, ALL).folds).toEqual([]);
  });

  it('keeps the newest dated log entry and folds the older ones', () => {
    const text = '# Progress\n## 2025-09-24 Agent: Codex\n- Completed: the PRD and the plan, reviewed with the team in one long session.\n- Issues: none.\n## 2025-09-25 Agent: Codex\n- Next: start phase 1, the profile screen, once the plan is approved.\n';
    const plan = planCompaction(text, ALL);
    expect(plan.folds.map((fold) => fold.reason)).toEqual(['a dated log entry (2025-09-24) older than the newest, no open item']);
    expect(plan.output).toContain('- Next: start phase 1');
  });
});
