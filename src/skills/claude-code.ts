/**
 * Where Claude Code finds the skills it lists: the user's (`$CLAUDE_CONFIG_DIR/skills`, default `~/.claude/skills`),
 * the project's (`.claude/skills`), the older commands folders (`commands/*.md`, listed the same way), and each
 * enabled plugin's (`<installPath>/skills`, `<installPath>/commands`, named `plugin:skill`), in the order 2.1.332
 * lists them. Plugins come from `plugins/installed_plugins.json` (version 2: `{plugins: {"name@marketplace":
 * [{installPath, scope, projectPath?}]}}`) and are counted only when a settings file has them in `enabledPlugins`.
 * The client's own built-in skills are not on disk and are not counted here.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as z from 'zod/mini';
import { claudeConfigDir } from '../harness/claude-code/paths.ts';
import { MCP_ESTIMATE, scanProject } from '../analyze/project-scan.ts';
import type { AlwaysLoaded, CostedSkill } from './budget.ts';
import { discoverSkills, listingLine, loadedText, type Skill } from './registry.ts';

export type SkillSource = 'project' | 'user' | 'plugin';

export interface FoundSkill {
  readonly skill: Skill;
  readonly source: SkillSource;
  /** The plugin's `name@marketplace`, for a plugin's skill. */
  readonly plugin: string | null;
}

const InstalledPlugins = z.looseObject({
  plugins: z.record(z.string(), z.array(z.looseObject({ installPath: z.string(), scope: z.optional(z.string()), projectPath: z.optional(z.string()) }))),
});
const EnabledPlugins = z.looseObject({ enabledPlugins: z.optional(z.record(z.string(), z.unknown())) });

type Env = Readonly<Record<string, string | undefined>>;

/** Every skill Claude Code would list for a session in `projectDir` (model-invocable ones only), in listing order. */
export function claudeCodeSkills(projectDir: string, env: Env): FoundSkill[] {
  const config = claudeConfigDir(env);
  const found: FoundSkill[] = [];
  const seen = new Set<string>();
  const add = (skills: readonly Skill[], source: SkillSource, plugin: string | null = null): void => {
    for (const skill of skills) {
      if (!skill.modelInvocable || seen.has(skill.name)) continue;
      seen.add(skill.name);
      found.push({ skill, source, plugin });
    }
  };
  const folders = (dir: string): Skill[] => discoverSkills([dir]).filter((s) => s.kind === 'skill');
  const commands = (dir: string, prefix = ''): Skill[] => discoverSkills([dir], prefix).filter((s) => s.kind === 'command');
  add(folders(join(config, 'skills')), 'user');
  add(folders(join(projectDir, '.claude', 'skills')), 'project');
  add(commands(join(projectDir, '.claude', 'commands')), 'project');
  add(commands(join(config, 'commands')), 'user');
  for (const plugin of enabledPlugins(projectDir, config)) {
    const prefix = `${plugin.id.split('@')[0] ?? plugin.id}:`;
    add(discoverSkills([join(plugin.installPath, 'skills')], prefix).filter((s) => s.kind === 'skill'), 'plugin', plugin.id);
    add(commands(join(plugin.installPath, 'commands'), prefix), 'plugin', plugin.id);
  }
  return found;
}

/** Installed plugins that some settings file enables (a later file's `false` turns an earlier `true` off). */
export function enabledPlugins(projectDir: string, config: string): { id: string; installPath: string }[] {
  const enabled = new Map<string, boolean>();
  for (const file of [join(config, 'settings.json'), join(projectDir, '.claude', 'settings.json'), join(projectDir, '.claude', 'settings.local.json')]) {
    const parsed = EnabledPlugins.safeParse(readJson(file));
    for (const [id, value] of Object.entries(parsed.data?.enabledPlugins ?? {})) enabled.set(id, value === true);
  }
  const installed = InstalledPlugins.safeParse(readJson(join(config, 'plugins', 'installed_plugins.json')));
  if (!installed.success) return [];
  const project = resolve(projectDir);
  return Object.entries(installed.data.plugins)
    .filter(([id]) => enabled.get(id) === true)
    .flatMap(([id, installs]) => {
      // A project-scoped install applies only in its project; a user-scoped one everywhere.
      const install = installs.find((i) => i.projectPath === undefined || resolve(i.projectPath) === project);
      return install === undefined ? [] : [{ id, installPath: install.installPath }];
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** The project's always-loaded persistent context files, as `syt analyze` finds them. */
export function alwaysLoaded(projectDir: string, count: (text: string) => number): AlwaysLoaded[] {
  return scanProject(projectDir)
    .filter((item) => item.loaded === 'always' && item.layer === 'persistent')
    .map((item) => ({
      path: item.mcpServer === undefined ? item.path : `${item.path}#${item.mcpServer}`,
      tokens: item.kind === 'mcp' ? MCP_ESTIMATE.toolsPerServer * MCP_ESTIMATE.tokensPerTool : count(item.text),
      compactable: item.kind === 'instructions' || item.kind === 'import',
    }));
}

/** Every skill Claude Code lists here, with its listing line and loaded body counted. */
export function costedSkills(projectDir: string, env: Readonly<Record<string, string | undefined>>, count: (text: string) => number): CostedSkill[] {
  return claudeCodeSkills(projectDir, env).map(({ skill, source }) => ({ name: skill.name, source, listedTokens: count(`${listingLine(skill)}\n`), bodyTokens: count(loadedText(skill)) }));
}

const Line = z.looseObject({
  isSidechain: z.optional(z.boolean()),
  message: z.optional(z.looseObject({ content: z.optional(z.unknown()) })),
});
const Block = z.looseObject({
  type: z.string(),
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  input: z.optional(z.looseObject({ skill: z.optional(z.string()) })),
  tool_use_id: z.optional(z.string()),
  is_error: z.optional(z.boolean()),
});

/**
 * The skills a Claude Code transcript shows loaded in its main conversation: every Skill call whose result was not
 * an error, each name once, in call order. Only lines that can matter are parsed (transcripts run to megabytes).
 */
export function skillsLoadedIn(transcript: string): string[] {
  const calls = new Map<string, string>();
  const loaded: string[] = [];
  for (const text of transcript.split('\n')) {
    if (!text.includes('"Skill"') && !(text.includes('"tool_result"') && calls.size > 0)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      continue;
    }
    const line = Line.safeParse(raw);
    if (!line.success || line.data.isSidechain === true || !Array.isArray(line.data.message?.content)) continue;
    for (const item of line.data.message.content) {
      const block = Block.safeParse(item);
      if (!block.success) continue;
      const { type, id, name, input, tool_use_id: resultFor, is_error: failed } = block.data;
      if (type === 'tool_use' && name === 'Skill' && id !== undefined && input?.skill !== undefined) calls.set(id, input.skill);
      const skill = resultFor === undefined ? undefined : calls.get(resultFor);
      if (type === 'tool_result' && skill !== undefined && failed !== true && !loaded.includes(skill)) loaded.push(skill);
    }
  }
  return loaded;
}
