import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerClaudeCodeEvent } from '../../../../src/harness/claude-code/answer.ts';
import { ourGroups } from '../../../../src/harness/claude-code/install.ts';
import { loadConfig } from '../../../../src/config/config.ts';
import { Runtime } from '../../../../src/runtime/runtime.ts';
import { useTempDirs } from '../../../helpers/temp.ts';

const tempDir = useTempDirs();

/** A project whose CLAUDE.md nearly fills a 40,000-token window's persistent layer (4,800 tokens), with two skills. */
function setup(): { project: string; home: string; runtime: Runtime; transcript: string } {
  const project = tempDir();
  const home = tempDir();
  const data = tempDir();
  writeFileSync(join(data, 'config.json'), JSON.stringify({ budget: { context_window: 40_000 } }));
  writeFileSync(join(project, 'CLAUDE.md'), 'Keep modules small and run the tests before each commit.\n'.repeat(380));
  const skill = (name: string, body: string): void => {
    mkdirSync(join(project, '.claude', 'skills', name), { recursive: true });
    writeFileSync(join(project, '.claude', 'skills', name, 'SKILL.md'), `---\ndescription: ${name} things\n---\n${body}`);
  };
  skill('tiny', 'Say hello.\n');
  skill('mid', 'Check the release notes and the version number.\n'.repeat(30));
  skill('huge', 'Run the deploy script with the right flags, then check the health endpoint.\n'.repeat(200));
  const transcript = join(project, 'session.jsonl');
  writeFileSync(transcript, '');
  return { project, home, runtime: new Runtime(loadConfig({ TOKENLESS_DATA_DIR: data })), transcript };
}

const event = (skill: string, cwd: string, transcript: string) => ({
  session_id: 's1',
  transcript_path: transcript,
  cwd,
  hook_event_name: 'PreToolUse',
  permission_mode: 'default',
  tool_name: 'Skill',
  tool_input: { skill },
  tool_use_id: 'toolu_1',
});

describe('PreToolUse on the Skill tool', () => {
  it('passes a skill within budget, notes one that puts the layer slightly over, denies one far over', async () => {
    const { project, home, runtime, transcript } = setup();
    const answer = async (skill: string) => answerClaudeCodeEvent(event(skill, project, transcript), runtime, { wrapperCommand: '/x/tokenless', env: { HOME: home } });
    expect(await answer('tiny')).toEqual({ answer: null, note: '' });
    const mid = await answer('mid');
    const context = (mid as { answer: { hookSpecificOutput: { hookEventName: string; additionalContext: string } } }).answer.hookSpecificOutput;
    expect(context.hookEventName).toBe('PreToolUse');
    expect(context.additionalContext).toMatch(/^\[syt\] Skill mid \(~\d+ tokens\) puts the persistent layer of the context budget \(4,800 tokens: agentic profile, 40,000-token window\)/);
    expect(JSON.stringify(mid)).not.toContain('permissionDecision');
    const huge = await answer('huge');
    expect(huge).toMatchObject({ answer: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } } });
    const reason = (huge as { answer: { hookSpecificOutput: { permissionDecisionReason: string } } }).answer.hookSpecificOutput.permissionDecisionReason;
    expect(reason).toMatch(/^syt: skill huge was not loaded: its ~[\d,]+ tokens would put the persistent layer of the context budget \(4,800 tokens/);
    expect(reason).toMatch(/Loaded now: CLAUDE\.md ~[\d,]+, the skill listing ~\d+ \(3 skills\)\. Compact first: CLAUDE\.md/);
  });

  it('counts the skills the session already loaded', async () => {
    const { project, home, runtime, transcript } = setup();
    writeFileSync(transcript, [
      JSON.stringify({ message: { content: [{ type: 'tool_use', id: 'a', name: 'Skill', input: { skill: 'mid' } }] } }),
      JSON.stringify({ message: { content: [{ type: 'tool_result', tool_use_id: 'a', content: 'Launching skill: mid' }] } }),
    ].join('\n'));
    const answered = await answerClaudeCodeEvent(event('tiny', project, transcript), runtime, { wrapperCommand: '/x/tokenless', env: { HOME: home } });
    expect(JSON.stringify(answered)).toMatch(/skill mid ~\d+/);
  });

  it('is installed beside Bash on one PreToolUse group', () => {
    expect(ourGroups({ kind: 'command', wrapperCommand: '/x/tokenless' })['PreToolUse']?.matcher).toBe('Bash|Skill');
  });
});
