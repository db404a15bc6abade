import { describe, expect, it } from 'vitest';
import { foldKeys, planCompaction, restoreText } from '../../../src/compact/fold.ts';
import { foldDiff, isContextFile, ladderCompaction } from '../../../src/compact/policy.ts';

const notes = [
  '# Progress',
  '',
  '- [x] Set up the repository and CI',
  '  - GitHub Actions runs typecheck and lint on every pull request.',
  '- [x] Write the budget engine',
  '- [ ] Wire the hooks',
  '',
  '## Done',
  'Sprint one shipped the readers, the replay and the Ink views after two rounds of review.',
  '',
  '## Next',
  'Keep it short.',
  '',
].join('\n');

const restoreFrom = (entries: readonly { key: string; bytes: Uint8Array }[]) => (key: string) => {
  const entry = entries.find((e) => e.key === key);
  return entry === undefined ? null : Buffer.from(entry.bytes).toString('utf8');
};

describe('planCompaction', () => {
  it('folds finished items, keeping open items, headings and prose under a "Done" heading', () => {
    const plan = planCompaction(notes, { finished: true, staleSections: true });
    expect(plan.folds.map((f) => f.kind)).toEqual(['finished']);
    expect(plan.output).toContain('## Done\nSprint one shipped');
    expect(plan.output).toContain('- [ ] Wire the hooks');
    expect(plan.output).toContain('## Done\n');
    expect(plan.output).toContain('## Next\nKeep it short.');
    expect(plan.output).toMatch(/- \[x\] syt: 2 finished items folded \("Set up the repository and CI", "Write the budget engine"\) <<tokenless:[0-9]{29}>>\n/);
    expect(foldKeys(plan.output)).toEqual(plan.entries.map((e) => e.key));
  });

  it('restores byte-exact, also without a final newline and with CRLF', () => {
    for (const text of [notes, notes.trimEnd(), notes.replaceAll('\n', '\r\n')]) {
      const plan = planCompaction(text, { finished: true, staleSections: true });
      expect(plan.folds.length).toBeGreaterThan(0);
      expect(restoreText(plan.output, restoreFrom(plan.entries))).toEqual({ output: text, restored: plan.folds.length, missing: [] });
    }
  });

  it('keeps edits made after compaction and reports missing originals', () => {
    const plan = planCompaction(notes, { finished: true, staleSections: false });
    const edited = `${plan.output}- [ ] new task\n`;
    expect(restoreText(edited, restoreFrom(plan.entries)).output).toBe(`${notes}- [ ] new task\n`);
    expect(restoreText(plan.output, () => null).missing).toHaveLength(1);
  });

  it('does nothing when options are off or nothing is finished', () => {
    expect(planCompaction(notes, { finished: false, staleSections: false }).folds).toEqual([]);
    expect(planCompaction('- [ ] a\n- [ ] b\n', { finished: true, staleSections: true }).folds).toEqual([]);
  });

  it('never folds a fold line again', () => {
    const once = planCompaction(notes, { finished: true, staleSections: true });
    expect(planCompaction(once.output, { finished: true, staleSections: true }).folds).toEqual([]);
  });
});

describe('policy', () => {
  it.each([
    ['progress.md', true],
    ['docs/TODO.txt', true],
    ['.cursorrules', true],
    ['src/index.ts', false],
    ['main.py', false],
    ['package.json', false],
  ])('%s is a context file: %s', (path, expected) => {
    expect(isContextFile(path)).toBe(expected);
  });

  it('folds more as the ladder climbs, persistent files last', () => {
    expect(ladderCompaction(null, 'session')).toBeNull();
    expect(ladderCompaction('drop_stale_ephemeral', 'session')).toEqual({ finished: true, staleSections: false });
    expect(ladderCompaction('summarize_ephemeral', 'session')).toEqual({ finished: true, staleSections: true });
    expect(ladderCompaction('summarize_ephemeral', 'persistent')).toBeNull();
    expect(ladderCompaction('force_trim_persistent', 'persistent')).toEqual({ finished: true, staleSections: true });
  });

  it('shows a diff of each fold', () => {
    const plan = planCompaction(notes, { finished: true, staleSections: false });
    const diff = foldDiff('progress.md', plan.folds);
    expect(diff).toContain('@@ line 3, 3 lines folded: 2 checked items ([x]), none open @@');
    expect(diff).toContain('-- [x] Write the budget engine');
    expect(diff).toMatch(/\+- \[x\] syt: 2 finished items folded/);
  });
});
