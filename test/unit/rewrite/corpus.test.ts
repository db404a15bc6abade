import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planRewrite } from '../../../src/rewrite/plan.ts';
import { staticArgv } from '../../../src/rewrite/static-argv.ts';
import { FIXTURES_DIR, loadCorpus } from '../../helpers/fixtures.ts';
import { ATTRIBUTION, checkPlan, WRAPPER } from './check-plan.ts';

/** Every Bash command line an agent ran in the captured transcripts. */
function transcriptCommands(): string[] {
  const dir = join(FIXTURES_DIR, 'transcripts', 'claude-code');
  const commands: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const input: unknown = Reflect.get(value, 'input');
      if (Reflect.get(value, 'name') === 'Bash' && typeof input === 'object' && input !== null) {
        const command: unknown = Reflect.get(input, 'command');
        if (typeof command === 'string') commands.push(command);
      }
      for (const key of Object.keys(value)) visit(Reflect.get(value, key));
    }
  };
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        visit(JSON.parse(line));
      } catch {
        // A torn last line is not a command.
      }
    }
  }
  return commands;
}

describe('planRewrite on real command lines', () => {
  const commands = [...new Set([...transcriptCommands(), ...loadCorpus().map((c) => c.command)])];
  const isWrappable = (): boolean => true;
  const options = { wrapperCommand: WRAPPER, attributionEnv: ATTRIBUTION, isWrappable, exclude: [] };

  it('finds commands to check', () => {
    expect(commands.length).toBeGreaterThan(50);
  });

  it('holds every plan invariant on each of them', () => {
    for (const command of commands) checkPlan(command, planRewrite(command, options), isWrappable);
  });

  it('reads a static argv from every single-command corpus case', () => {
    const single = loadCorpus().filter((c) => !/[|&;<>'"\\$*?[{~]/.test(c.command));
    expect(single.length).toBeGreaterThan(50);
    for (const c of single) expect(staticArgv(c.command), c.command).toEqual(c.command.split(/\s+/));
  });
});
