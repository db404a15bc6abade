import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBudget } from '../../../src/budget/engine.ts';
import { overageResponse } from '../../../src/budget/ladder.ts';
import { BUILTIN_PROFILES } from '../../../src/budget/profiles.ts';
import { SkillLoader, SkillRegistry } from '../../../src/index.ts';
import { gateSkill, skillsReport, type SkillsBudgetInput } from '../../../src/skills/budget.ts';
import { claudeCodeSkills, skillsLoadedIn } from '../../../src/skills/claude-code.ts';
import { loadSkill, loadedSkills, unloadSkill } from '../../../src/skills/loader.ts';
import { discoverSkills, listingLine, loadedText, parseSkill } from '../../../src/skills/registry.ts';
import { renderSkills } from '../../../src/skills/render.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const skillFile = (dir: string, name: string, text: string): void => {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'SKILL.md'), text);
};

describe('skills registry: what Claude Code 2.1.332 lists and loads', () => {
  it('lists the folder name, the declared name when it differs, and description - when_to_use', () => {
    const skill = parseSkill('/s/deploy/SKILL.md', 'deploy', '---\nname: shipit\ndescription: "Deploy the app"\nwhen_to_use: before a release\n---\n# Deploy\nRun it.\n', 'skill', '/s/deploy');
    expect(listingLine(skill)).toBe('- deploy (shipit): Deploy the app - before a release');
    expect(loadedText(skill)).toBe('Base directory for this skill: /s/deploy\n\n# Deploy\nRun it.\n');
  });

  it('falls back to the first body line without # marks, and cuts descriptions to 1,536 characters with an ellipsis', () => {
    expect(parseSkill('a', 'a', '# Title\nFirst prose line.\n').description).toBe('Title');
    const long = parseSkill('b', 'b', `---\ndescription: ${'word '.repeat(600)}END\n---\nbody\n`).description;
    expect(long).toHaveLength(1_536);
    expect(long.endsWith('word …')).toBe(true);
  });

  it('skips a skill the model may not invoke', () => {
    expect(parseSkill('c', 'c', '---\ndescription: x\ndisable-model-invocation: true\n---\n').modelInvocable).toBe(false);
  });

  it('discovers SKILL.md folders and loose .md files; the first directory wins a name clash', () => {
    const one = tempDir();
    const two = tempDir();
    skillFile(one, 'debugging', '---\nname: debugging\ndescription: one\n---\n');
    writeFileSync(join(two, 'debugging.md'), 'two\n');
    writeFileSync(join(two, 'review.md'), 'Review code.\n');
    writeFileSync(join(two, 'notes.txt'), 'ignored\n');
    const skills = discoverSkills([one, two, join(one, 'missing')]);
    expect(skills.map((s) => [s.name, s.description, s.kind])).toEqual([['debugging', 'one', 'skill'], ['review', 'Review code.', 'command']]);
  });

  it('finds the user, project, command and enabled plugin skills, in the client listing order', () => {
    const home = tempDir();
    const project = tempDir();
    const config = join(home, '.claude');
    skillFile(join(config, 'skills'), 'userskill', '---\ndescription: user\n---\nu\n');
    skillFile(join(project, '.claude', 'skills'), 'projskill', '---\ndescription: project\n---\np\n');
    skillFile(join(project, '.claude', 'skills'), 'hidden', '---\ndescription: h\ndisable-model-invocation: true\n---\n');
    mkdirSync(join(project, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(project, '.claude', 'commands', 'mycmd.md'), '---\ndescription: A legacy command\n---\nDo it.\n');
    const installed = (name: string): string => join(config, 'plugins', 'cache', 'mkt', name, '1.0.0');
    skillFile(join(installed('myplug'), 'skills'), 'plugskill', '---\ndescription: plugin\n---\nb\n');
    skillFile(join(installed('offplug'), 'skills'), 'offskill', '---\ndescription: disabled\n---\nb\n');
    const entry = (name: string) => [{ scope: 'user', installPath: installed(name), version: '1.0.0' }];
    mkdirSync(join(config, 'plugins'), { recursive: true });
    writeFileSync(join(config, 'plugins', 'installed_plugins.json'), JSON.stringify({ version: 2, plugins: { 'myplug@mkt': entry('myplug'), 'offplug@mkt': entry('offplug') } }));
    writeFileSync(join(config, 'settings.json'), JSON.stringify({ enabledPlugins: { 'myplug@mkt': true, 'offplug@mkt': true } }));
    mkdirSync(join(project, '.claude'), { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'offplug@mkt': false } }));
    const found = claudeCodeSkills(project, { HOME: home });
    expect(found.map((f) => [f.skill.name, f.source])).toEqual([['userskill', 'user'], ['projskill', 'project'], ['mycmd', 'project'], ['myplug:plugskill', 'plugin']]);
  });

  it('reads which skills a transcript loaded: successful Skill calls of the main chain, once each', () => {
    const use = (id: string, skill: string, sidechain = false) => JSON.stringify({ isSidechain: sidechain, message: { content: [{ type: 'tool_use', id, name: 'Skill', input: { skill } }] } });
    const result = (id: string, isError = false) => JSON.stringify({ message: { content: [{ type: 'tool_result', tool_use_id: id, content: isError ? 'Unknown skill' : 'Launching skill', is_error: isError }] } });
    const transcript = [use('1', 'deploy'), result('1'), use('2', 'nope'), result('2', true), use('3', 'side', true), result('3'), use('4', 'deploy'), result('4'), 'not json'].join('\n');
    expect(skillsLoadedIn(transcript)).toEqual(['deploy']);
  });
});

describe('the seed loader: load answers with the overage level, refuses above 20% over', () => {
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
    expect(refused).toMatchObject({ loaded: false, level: 'reject' });
    expect(refused.state).toBe(full);
    expect(refused.message).toBe('refused to load skill huge (6000 tokens): the persistent layer would hold 30000 of 24000 tokens, 25% over budget (the limit is 20%); unload a skill or compact first');
    expect(loadSkill(full, 'small', 500)).toMatchObject({ loaded: true, level: 'warn' });
    expect(loadSkill(full, 'medium', 2_000)).toMatchObject({ loaded: true, level: 'compact' });
  });

  it('maps each level to the tiered response: pass, note, refuse', () => {
    expect((['within', 'warn', 'compact', 'reject'] as const).map(overageResponse)).toEqual(['pass', 'note', 'note', 'refuse']);
  });

  it('is exported from the SDK with the seed API: registry scanning directories, load returning the level, unload', () => {
    const dir = tempDir();
    skillFile(dir, 'debugging', '---\ndescription: Debug failing tests\n---\nWhen debugging, follow these steps.\n');
    const registry = new SkillRegistry().addScanDir(dir);
    expect(registry.scan().map((s) => s.name)).toEqual(['debugging']);
    const loader = new SkillLoader({ contextWindow: 200_000, profile: 'agentic' });
    expect(loader.load('debugging', registry.get('debugging')?.body ?? '', 1_200)).toBe('within');
    expect(loader.load('huge', 'x', 30_000)).toBe('reject');
    expect(loader.lastMessage).toMatch(/^refused to load skill huge/);
    expect(loader.loaded()).toEqual(['debugging']);
    expect(loader.budgetSummary().layers.persistent.used).toBe(1_200);
    expect(loader.unload('debugging')).toBe(true);
    expect(loader.loaded()).toEqual([]);
    expect(() => new SkillLoader({ profile: 'galaxy' })).toThrow(/unknown budget profile galaxy/);
  });
});

describe('the Skill-tool gate and syt skills figures', () => {
  const input = (overrides: Partial<SkillsBudgetInput> = {}): SkillsBudgetInput => ({
    always: [{ path: 'CLAUDE.md', tokens: 21_000, compactable: true }],
    skills: [
      { name: 'small', source: 'project', listedTokens: 10, bodyTokens: 500 },
      { name: 'medium', source: 'user', listedTokens: 10, bodyTokens: 3_000 },
      { name: 'huge', source: 'plugin', listedTokens: 10, bodyTokens: 9_000 },
    ],
    loaded: [],
    profile: BUILTIN_PROFILES.agentic,
    contextWindow: 200_000,
    ...overrides,
  });

  it('passes within budget, notes the budget up to 20% over, refuses above with the budget, what is loaded and what to compact', () => {
    expect(gateSkill(input(), 'small', 10, true)).toMatchObject({ response: 'pass', text: '' });
    const note = gateSkill(input({ loaded: ['medium'] }), 'small', 10, true);
    expect(note.response).toBe('note');
    expect(note.text).toMatch(/^\[syt\] Skill small \(~500 tokens\) puts the persistent layer of the context budget \(24,000 tokens: agentic profile, 200,000-token window\) at ~24,540 tokens, 2% over \(loads are refused above 20%\)\. In it: CLAUDE\.md ~21,000, the skill listing ~40 \(3 skills\), skill medium ~3,000\.$/);
    const refused = gateSkill(input({ loaded: ['medium'] }), 'huge', 10, false);
    expect(refused.response).toBe('refuse');
    expect(refused.text).toBe(
      'syt: skill huge was not loaded: its 9,000 tokens would put the persistent layer of the context budget (24,000 tokens: agentic profile, 200,000-token window) at 33,040 tokens, 38% over (loads are refused above 20%). Loaded now: CLAUDE.md 21,000, the skill listing 40 (3 skills), skill medium 3,000. Compact first: CLAUDE.md (`syt compact CLAUDE.md --dry-run` shows what folds); skills loaded earlier stay until a new session (/clear); then call the skill again.',
    );
  });

  it('does not send the model to compact a file when even folding it all away would leave the load refused', () => {
    const refused = gateSkill(input({ always: [{ path: 'CLAUDE.md', tokens: 2_000, compactable: true }], skills: [{ name: 'giant', source: 'project', listedTokens: 10, bodyTokens: 40_000 }] }), 'giant', 10, false);
    expect(refused.response).toBe('refuse');
    expect(refused.text).toMatch(/Compact first: even without CLAUDE\.md the layer would hold 40,020 tokens: start a new session \(\/clear\) without the skills loaded so far, or give the budget more room/);
  });

  it('lets the client answer an unknown or already loaded skill', () => {
    expect(gateSkill(input(), 'nope', 10, true).response).toBe('pass');
    expect(gateSkill(input({ always: [{ path: 'CLAUDE.md', tokens: 40_000, compactable: true }], loaded: ['huge'] }), 'huge', 10, true).response).toBe('pass');
  });

  it("shows the hook's answer by the hook's own counts, and says so where o200k would answer otherwise", () => {
    const exact = input({ always: [{ path: 'CLAUDE.md', tokens: 18_000, compactable: true }] });
    const report = skillsReport(exact, 10, { input: input(), headerTokens: 10 });
    expect(report.skills.map((s) => [s.name, s.if_loaded, s.if_loaded_counted])).toEqual([['small', 'within', 'within'], ['medium', 'warn', 'within'], ['huge', 'reject', 'compact']]);
    expect(renderSkills(report, 80).replace(/\s+/g, ' ')).toContain('by o200k counts the answer would be: medium fits, huge note+compact.');
  });

  it('reports each skill with its layer and what loading it alone would do, in a table that fits 80 columns', () => {
    const report = skillsReport(input(), 10);
    expect(report.skills.map((s) => [s.name, s.layer, s.if_loaded, s.response])).toEqual([
      ['small', 'persistent', 'within', 'pass'],
      ['medium', 'persistent', 'warn', 'note'],
      ['huge', 'persistent', 'reject', 'refuse'],
    ]);
    expect(report.layer).toMatchObject({ used: 21_040, budget: 24_000 });
    const text = renderSkills({ ...report, skills: [...report.skills, { ...report.skills[0]!, name: 'a-skill-with-a-very-long-name-that-must-be-cut-to-fit' }] }, 80);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(text).toContain('a-skill-with-a-very-long-nam… project');
    expect(text.split('\n')[3]).toMatch(/^huge\s+plugin\s+10\s+9,000 persistent refused$/);
  });
});
