import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClaudeCodeEvent } from '../../../../src/harness/claude-code/answer.ts';
import { clientProjectRoot, sanitizedProjectName, transcriptProjectName } from '../../../../src/harness/claude-code/project-root.ts';
import { loadConfig } from '../../../../src/config/config.ts';
import { Runtime } from '../../../../src/runtime/runtime.ts';

let root = '';
let project = '';
let home = '';
const transcript = (dir: string): string => join(home, '.claude', 'projects', sanitizedProjectName(dir), 'session.jsonl');

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tokenless-root-')));
  project = join(root, 'my.project');
  home = join(root, 'home');
  mkdirSync(join(project, 'lib', 'deep'), { recursive: true });
  mkdirSync(join(project, '.claude'), { recursive: true });
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(join(project, '.claude', 'settings.json'), '{"permissions":{"deny":["Bash(git log:*)"]}}\n');
  writeFileSync(join(project, 'lib', 'deep', 'x.ts'), 'x\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('clientProjectRoot (issue 30, item 5)', () => {
  it('reads the transcript folder name as the client writes it', () => {
    expect(transcriptProjectName('/h/.claude/projects/-work-p/abc.jsonl')).toBe('-work-p');
    expect(transcriptProjectName('/h/.claude/projects/-work-p/abc/subagents/agent-1.jsonl')).toBe('-work-p');
    expect(transcriptProjectName('/h/.claude/abc.jsonl')).toBeNull();
    expect(sanitizedProjectName('/work/my.project_x')).toBe('-work-my-project-x');
  });

  it('a command hook trusts its CLAUDE_PROJECT_DIR', () => {
    expect(clientProjectRoot({ cwd: join(project, 'lib') }, { CLAUDE_PROJECT_DIR: project })).toEqual({ dir: project, source: 'env' });
  });

  it('without it, the ancestor of cwd the transcript folder names, after a cd anywhere below', () => {
    for (const cwd of [project, join(project, 'lib'), join(project, 'lib', 'deep')]) {
      expect(clientProjectRoot({ cwd, transcript_path: transcript(project) }, {})).toEqual({ dir: project, source: 'transcript' });
    }
  });

  it('finds the project by its name from / when the shell left it', () => {
    expect(clientProjectRoot({ cwd: tmpdir(), transcript_path: transcript(project) }, {})).toEqual({ dir: project, source: 'transcript' });
  });

  it('guesses cwd when nothing names the project', () => {
    expect(clientProjectRoot({ cwd: join(project, 'lib') }, {})).toEqual({ dir: join(project, 'lib'), source: 'guess' });
    expect(clientProjectRoot({ cwd: join(project, 'lib'), transcript_path: join(home, '.claude', 'projects', '-nowhere-at-all', 's.jsonl') }, {}).source).toBe('guess');
  });

  it('a deny rule of the project still covers git log after cd lib, over HTTP (no CLAUDE_PROJECT_DIR) and with no transcript', async () => {
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: join(root, 'data'), HOME: home }));
    const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') };
    try {
      for (const transcript_path of [transcript(project), undefined]) {
        for (const mode of ['bypassPermissions', 'default']) {
          const event = { session_id: 's', hook_event_name: 'PreToolUse', cwd: join(project, 'lib'), permission_mode: mode, tool_name: 'Bash', tool_input: { command: 'git log -n 3' }, tool_use_id: 't1', ...(transcript_path === undefined ? {} : { transcript_path }) };
          const outcome = await answerClaudeCodeEvent(event, runtime, { wrapperCommand: "'/usr/bin/node' '/opt/tokenless/cli.cjs'", env });
          expect(outcome).toMatchObject({ answer: null });
          expect('note' in outcome ? outcome.note : '').toContain('deny rule Bash(git log:*)');
        }
      }
    } finally {
      runtime.close();
    }
  });
});
