import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { loadBudgetSettings, pickProfile } from '../../src/budget/settings.ts';
import { loadConfig } from '../../src/config/config.ts';
import { LISTING_HEADER, skillsReport } from '../../src/skills/budget.ts';
import { alwaysLoaded, costedSkills } from '../../src/skills/claude-code.ts';
import { renderSkills } from '../../src/skills/render.ts';
import { tokenCounter } from '../../src/tokens/count.ts';
import { estimateTokens } from '../../src/tokens/estimate.ts';
import { CliError, usageError } from '../errors.ts';
import { parseOptions } from '../options.ts';
import { programName, terminalWidth } from '../terminal.ts';

const Options = z.object({
  profile: z.optional(z.string()),
  contextWindow: z.optional(z.string().check(z.regex(/^[1-9]\d*$/u, 'a whole number of tokens, 1 or more'))),
  json: z.optional(z.boolean()),
});

/** `syt skills [DIR]`: every skill Claude Code would list in DIR, what it costs, and where it falls in the budget. */
export async function skillsCommand(dir: string, raw: unknown): Promise<void> {
  const command = `${programName()} skills`;
  const options = parseOptions(Options, raw, 'skills');
  const project = resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(project).isDirectory();
  } catch {
    throw new CliError(`${command}: no such directory: ${dir}`);
  }
  if (!isDir) throw usageError(`${command}: ${dir} is a file, not a project directory`);
  const settings = loadBudgetSettings(loadConfig().dataDir);
  const profile = pickProfile(settings, options.profile);
  if (profile === null) throw usageError(`${command}: unknown profile ${options.profile ?? settings.profileName} (chat, agentic, rag${Object.keys(settings.customProfiles).map((name) => `, ${name}`).join('')})`);
  const count = await tokenCounter();
  const contextWindow = options.contextWindow === undefined ? settings.contextWindow : Number(options.contextWindow);
  const costed = (by: (text: string) => number) => ({ always: alwaysLoaded(project, by), skills: costedSkills(project, process.env, by), loaded: [], profile, contextWindow });
  // Figures by o200k; each row's answer as the Skill-tool hook will give it, by the estimate it counts with.
  const report = skillsReport(costed(count), count(LISTING_HEADER), { input: costed(estimateTokens), headerTokens: estimateTokens(LISTING_HEADER) });
  process.stdout.write(options.json === true ? `${JSON.stringify({ dir: project, token_method: 'o200k', ...report })}\n` : `${renderSkills(report, terminalWidth())}\n`);
}
