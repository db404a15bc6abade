import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReplaySandbox } from '../../../src/replay/sandbox.ts';
import { viewedArgv, viewShellCall } from '../../../src/replay/shell-views.ts';
import { ROOT } from '../../helpers/root.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { DEFAULT_VIEW_MIN_BYTES } from '../../../src/config/view-threshold.ts';

const report = readFileSync(join(ROOT, 'test/fixtures/recognise/cargo-test-fail/stdout.txt'));

describe('shell calls through the run view', () => {
  it('names the line by its one printing command, else by nothing', () => {
    expect(viewedArgv('cd apps/x && cargo test --offline')).toEqual(['cargo', 'test', '--offline']);
    expect(viewedArgv('find . -name "*.ts" | head -20')).toEqual(['sh', '-c', 'find . -name "*.ts" | head -20']);
    expect(viewedArgv('./scripts/ci.sh')).toEqual(['./scripts/ci.sh']);
  });

  it('views a report an unknown script printed by its content, and its marker retrieves the bytes', () => {
    const sandbox = openReplaySandbox();
    try {
      const shown = `Exit code 101\n${report.toString('utf8')}`;
      const view = viewShellCall(sandbox.runtime, { id: 't1', line: './scripts/ci.sh', shown, stdout: report, stderr: Buffer.alloc(0), exitCode: 101, header: 'Exit code 101\n' }, 's1', (text) => text.length, DEFAULT_VIEW_MIN_BYTES);
      expect(view).toMatchObject({ choice: 'content', filter: 'cargo-test', failed: true, retrievedExactly: true });
      expect(view.after).toBeLessThan(view.before);
    } finally {
      sandbox.close();
    }
  });

  it('leaves a Claude Code output under the threshold raw (its output is a file), and views it on a pipe (Codex)', () => {
    const sandbox = openReplaySandbox();
    try {
      const small = Buffer.from(loadCorpusCase('git-status-untracked-all-express').stdout);
      expect(small.byteLength).toBeLessThan(DEFAULT_VIEW_MIN_BYTES);
      const call = { id: 't2', line: 'git status -u', shown: small.toString('utf8'), stdout: small, stderr: Buffer.alloc(0), exitCode: 0, header: '' };
      expect(viewShellCall(sandbox.runtime, call, 's1', (text) => text.length, DEFAULT_VIEW_MIN_BYTES)).toMatchObject({ choice: 'raw', filter: null, after: small.length });
      const piped = viewShellCall(sandbox.runtime, { ...call, id: 't3' }, 's1', (text) => text.length, null);
      expect(piped).toMatchObject({ choice: 'name', filter: 'git-status', retrievedExactly: true });
      expect(piped.after).toBeLessThan(piped.before);
    } finally {
      sandbox.close();
    }
  });
});
