import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBudget } from '../../../src/budget/engine.ts';
import { BUILTIN_PROFILES } from '../../../src/budget/profiles.ts';
import { loadSkill, loadedSkills, unloadSkill } from '../../../src/skills/loader.ts';
import { discoverSkills, parseSkill } from '../../../src/skills/registry.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();

describe('skills registry', () => {
  it('reads name and description from front matter, falling back to the file', () => {
    expect(parseSkill('a/SKILL.md', 'a', '---\nname: debugging\ndescription: "Debug tests"\n---\n# Body\n')).toMatchObject({ name: 'debugging', description: 'Debug tests' });
    expect(parseSkill('b.md', 'b', '# Title\nFirst line.\n')).toMatchObject({ name: 'b', description: 'First line.' });
  });

  it('discovers SKILL.md folders and loose .md files; the first directory wins a name clash', () => {
    const one = tempDir();
    const two = tempDir();
    mkdirSync(join(one, 'debugging'));
    writeFileSync(join(one, 'debugging', 'SKILL.md'), '---\nname: debugging\ndescription: one\n---\n');
    writeFileSync(join(two, 'debugging.md'), 'two\n');
    writeFileSync(join(two, 'review.md'), 'Review code.\n');
    writeFileSync(join(two, 'notes.txt'), 'ignored\n');
    const skills = discoverSkills([one, two, join(one, 'missing')]);
    expect(skills.map((s) => [s.name, s.description])).toEqual([['debugging', 'one'], ['review', 'Review code.']]);
  });
});

describe('budget-aware loading', () => {
  const empty = createBudget(200_000, BUILTIN_PROFILES.agentic);

  it('loads within budget and unloads to free the tokens', () => {
    const loaded = loadSkill(empty, 'debugging', 1_200);
    expect(loaded).toMatchObject({ loaded: true, level: 'within' });
    expect(loadedSkills(loaded.state)).toEqual(['debugging']);
    expect(loadSkill(loaded.state, 'debugging', 1_200).message).toMatch(/already loaded/);
    const unloaded = unloadSkill(loaded.state, 'debugging');
    expect(unloaded).toMatchObject({ unloaded: true, freed: 1_200 });
    expect(unloadSkill(unloaded.state, 'debugging').unloaded).toBe(false);
  });

  it('refuses a load above the reject level and says why', () => {
    const full = loadSkill(empty, 'base', 24_000).state;
    const refused = loadSkill(full, 'huge', 6_000);
    expect(refused.loaded).toBe(false);
    expect(refused.level).toBe('reject');
    expect(refused.state).toBe(full);
    expect(refused.message).toBe('refused to load skill huge (6000 tokens): the persistent layer would hold 30000 of 24000 tokens, 25% over budget (the limit is 20%); unload a skill or compact first');
    expect(loadSkill(full, 'small', 500)).toMatchObject({ loaded: true, level: 'warn' });
  });
});
