/**
 * What our PreToolUse hook answered for each tool call, as the real client recorded it: every session transcript
 * under $CLAUDE_CONFIG_DIR/projects holds one `attachment` line per hook run that printed anything (hook_success with
 * its stdout, or an error), keyed by toolUseID (FINDINGS.md section 7). A call with no such line got no output.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** allow / ask / deny: that permissionDecision; update: updatedInput with no decision; none: no output; error: the hook failed. */
export type HookAnswer = 'allow' | 'ask' | 'deny' | 'update' | 'none' | 'error';

export function preToolAnswers(configDir: string): Map<string, HookAnswer> {
  const answers = new Map<string, HookAnswer>();
  const projects = join(configDir, 'projects');
  if (!existsSync(projects)) return answers;
  for (const project of readdirSync(projects)) {
    for (const file of readdirSync(join(projects, project)).filter((name) => name.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(projects, project, file), 'utf8').split('\n')) {
        const attachment = parseAttachment(line);
        if (attachment === null || attachment.hookEvent !== 'PreToolUse' || typeof attachment.toolUseID !== 'string') continue;
        answers.set(attachment.toolUseID, attachment.type === 'hook_success' ? classify(attachment.stdout) : 'error');
      }
    }
  }
  return answers;
}

interface Attachment {
  readonly type?: unknown;
  readonly hookEvent?: unknown;
  readonly toolUseID?: unknown;
  readonly stdout?: unknown;
}

function parseAttachment(line: string): Attachment | null {
  if (!line.includes('"attachment"')) return null;
  try {
    const record = JSON.parse(line) as { type?: unknown; attachment?: Attachment };
    return record.type === 'attachment' && typeof record.attachment === 'object' && record.attachment !== null ? record.attachment : null;
  } catch {
    return null;
  }
}

function classify(stdout: unknown): HookAnswer {
  if (typeof stdout !== 'string' || stdout.trim() === '') return 'none';
  try {
    const output = (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: unknown; updatedInput?: unknown } }).hookSpecificOutput;
    const decision = output?.permissionDecision;
    if (decision === 'allow' || decision === 'ask' || decision === 'deny') return decision;
    return output?.updatedInput === undefined ? 'none' : 'update';
  } catch {
    // Plain-text stdout is not a decision: the client ignores it for permissions.
    return 'none';
  }
}
