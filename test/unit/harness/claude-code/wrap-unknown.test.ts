/**
 * Issue 22, items 2-3: every command the agent's permissions allow is wrapped, a filter for it or not. An unknown
 * program in every permission mode: silently ("allow" + rewrite) where the client runs it without asking, "ask" +
 * rewrite where it asks anyway in the terminal UI, untouched everywhere else.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClaudeCodeEvent } from '../../../../src/harness/claude-code/answer.ts';
import { loadConfig } from '../../../../src/config/config.ts';
import { planCommand } from '../../../../src/runtime/pre-tool.ts';
import { Runtime } from '../../../../src/runtime/runtime.ts';
import { CLAUDE_CODE_REWRITE } from '../../../../src/runtime/wrap-policy.ts';

const WRAPPER = "'/usr/bin/node' '/opt/tokenless/cli.cjs'";
let root = '';
let project = '';
let runtime: Runtime;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tokenless-wrap-unknown-')));
  project = join(root, 'project');
  mkdirSync(join(project, '.claude'), { recursive: true });
  runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: join(root, 'data'), HOME: root }));
});
afterAll(() => {
  runtime.close();
  rmSync(root, { recursive: true, force: true });
});

async function answer(command: string, mode: string, entrypoint: string, allow: readonly string[] = []): Promise<{ decision: string | null; command: string | null }> {
  writeFileSync(join(project, '.claude', 'settings.json'), `${JSON.stringify({ permissions: { allow } })}\n`);
  const env = { HOME: root, CLAUDE_CONFIG_DIR: join(root, '.claude'), CLAUDE_PROJECT_DIR: project, CLAUDE_CODE_ENTRYPOINT: entrypoint };
  const event = { session_id: 's', hook_event_name: 'PreToolUse', cwd: project, permission_mode: mode, tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' };
  const outcome = await answerClaudeCodeEvent(event, runtime, { wrapperCommand: WRAPPER, env });
  const specific = 'answer' in outcome ? (outcome.answer as { hookSpecificOutput?: { permissionDecision?: string; updatedInput?: { command?: string } } } | null)?.hookSpecificOutput : undefined;
  return { decision: specific?.permissionDecision ?? null, command: specific?.updatedInput?.command ?? null };
}

describe('an unknown program in every permission mode', () => {
  const UNKNOWN = ['./scripts/check.sh --all', 'mise run test', 'just lint', 'bash scripts/test.sh'];
  it.each(UNKNOWN)('%j', async (line) => {
    const wrapped = (result: { command: string | null }): boolean => result.command?.includes(`${WRAPPER} run -- `) === true && result.command.includes(line);
    // Runs without asking: bypass mode, or an allow rule of the user's.
    for (const entrypoint of ['cli', 'sdk-cli']) {
      const bypass = await answer(line, 'bypassPermissions', entrypoint);
      expect(bypass.decision).toBe('allow');
      expect(wrapped(bypass)).toBe(true);
      const allowed = await answer(line, 'default', entrypoint, ['Bash(*)']);
      expect(allowed.decision).toBe('allow');
      expect(wrapped(allowed)).toBe(true);
    }
    // Asked about anyway: the same dialog, with the rewrite, in the terminal UI only.
    for (const mode of ['default', 'acceptEdits']) {
      const asked = await answer(line, mode, 'cli');
      expect(asked.decision).toBe('ask');
      expect(wrapped(asked)).toBe(true);
      expect(await answer(line, mode, 'sdk-cli')).toEqual({ decision: null, command: null });
    }
    // Untouched: auto mode (its classifier spares dialogs), plan and dontAsk (never run unapproved), -p.
    for (const mode of ['auto', 'plan', 'dontAsk']) {
      for (const entrypoint of ['cli', 'sdk-cli']) expect(await answer(line, mode, entrypoint)).toEqual({ decision: null, command: null });
    }
  });

  it('a program the client may run unasked and no filter knows gets no dialog of ours', async () => {
    for (const line of ['uptime', 'date -u', '/usr/bin/env']) {
      expect(await answer(line, 'default', 'cli')).toEqual({ decision: null, command: null });
      expect((await answer(line, 'bypassPermissions', 'cli')).decision).toBe('allow');
    }
  });
});

describe('compound lines: each printing segment on its own', () => {
  const plan = (line: string) => planCommand(line, runtime, { wrapperCommand: WRAPPER, ...CLAUDE_CODE_REWRITE }, {});
  it('wraps every printing segment and says why each other one stays', () => {
    const result = plan('cd sub && ./scripts/check.sh; echo ---; git status; (make test) && mise run lint | tail -5');
    expect(result.segments.map((segment) => [segment.source, segment.action])).toEqual([
      ['cd sub', 'keep'],
      ['./scripts/check.sh', 'wrap'],
      ['echo ---', 'keep'],
      ['git status', 'wrap'],
      ['(make test)', 'keep'],
      ['mise run lint', 'keep'],
      ['tail -5', 'wrap'],
    ]);
    expect(result.segments.find((segment) => segment.source === './scripts/check.sh')?.reason).toBe('no filter for ./scripts/check.sh: viewed by its content');
    expect(result.segments.find((segment) => segment.source === 'tail -5')?.viewArgv).toEqual(['mise', 'run', 'lint']);
    expect(result.segments.filter((segment) => segment.action === 'keep').map((segment) => segment.reason)).toEqual([
      "cd changes the shell's own state",
      'echo is a shell builtin',
      'inside a subshell: left as typed',
      'its output feeds a pipe',
    ]);
  });

  it('keeps the semantics rules for any program: aliases and functions, wrappers outside, fds, $?', () => {
    // The wrapper goes outside timeout, so a kill reaches the program; the name check is on the word typed first.
    expect(plan('timeout 30 ./run.sh').command).toBe(`case $(command -v timeout) in /*) ${WRAPPER} run -- timeout 30 ./run.sh;; *) timeout 30 ./run.sh;; esac`);
    // A path is wrapped only when it names an executable file: a missing script shows bash's own error.
    expect(plan('./run.sh --fast').command).toBe(`case $(command -v ./run.sh) in */*) ${WRAPPER} run -- ./run.sh --fast;; *) ./run.sh --fast;; esac`);
    expect(plan('mise run test').command).toBe(`case $(command -v mise) in /*) ${WRAPPER} run -- mise run test;; *) mise run test;; esac`);
    expect(plan('./x.sh 3>&1').command).toBeNull();
    expect(plan('./x.sh > out.txt').command).toBeNull();
    // run exits with the program's status, so a later `$?` reads the same; a `$?` inside the command is left alone.
    expect(plan('./x.sh; echo $?').command).toBe(`case $(command -v ./x.sh) in */*) ${WRAPPER} run -- ./x.sh;; *) ./x.sh;; esac; echo $?`);
    expect(plan('./x.sh "$?"').command).toBeNull();
    expect(plan('./x.sh &').command).toBeNull();
    expect(plan('vim README.md').command).toBeNull();
  });
});
