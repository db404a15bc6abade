/** The offline examples run (`npm run examples`) and print their savings, each recovering its original exactly. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/root.ts';

describe('examples/', () => {
  it('run offline and print the savings', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'examples', 'run-all.mjs')], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/tmp', NO_COLOR: '1' } });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const name of ['sdk-lifecycles', 'ai-sdk-agent', 'langchain-agent']) expect(run.stdout).toContain(`== examples/${name}.ts`);
    expect(run.stdout.match(/saved \d+, \d+%\)/g)).toHaveLength(3);
    expect(run.stdout).toContain('retrieve: byte-exact original');
    expect(run.stdout).toContain('retrieve gave the model the exact original: yes');
    expect(run.stdout).toContain('model: retrieved the exact original');
    expect(run.stdout).not.toContain('leak');
  });
});
