/**
 * Issue 30, item 19: the doctor's permissions check reads the project's recent transcripts through the bounded
 * reader: a FIFO named like one is passed over (not waited on) and a dangling link does not hide the others.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeDoctor } from '../../../src/harness/claude-code/doctor.ts';
import { FIXTURES_DIR } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const probes = { version: () => null, dataDir: () => ({ name: 'data-dir', status: 'ok' as const, detail: '' }), serverCheck: () => Promise.resolve({ name: 'http-server', status: 'ok' as const, detail: '' }) };

describe('claude-code doctor over hostile transcript folders', () => {
  it('reads the real transcript past a FIFO and a dangling link', async () => {
    const project = tempDir();
    const config = tempDir();
    const dir = join(config, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(FIXTURES_DIR, 'transcripts', 'claude-code', '1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), join(dir, 'real.jsonl'));
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    symlinkSync(join(dir, 'gone.jsonl'), join(dir, 'dangling.jsonl'));
    const checks = await claudeCodeDoctor(project, { CLAUDE_CONFIG_DIR: config, HOME: tempDir() }, probes);
    const permissions = checks.find((check) => check.name === 'permissions');
    expect(permissions?.detail).not.toMatch(/^no Claude Code transcripts found/);
  }, 10_000);
});
