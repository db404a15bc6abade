/**
 * What the model sees of a tool's structured output, as Claude Code renders it into the tool_result (FINDINGS.md
 * section 4): Bash `stdout + "\n" + stderr`, Grep's content, Read's numbered lines, Glob's file list, an agent's text.
 * A hook's `updatedToolOutput` is rendered by substitution: the part of the recorded text that came from the old
 * object's slot is replaced by the new object's slot, so whatever the client added around it (a "Found N files"
 * header, a system reminder after a Read) stays as recorded. A slot we cannot find is reported, never guessed.
 */

/** Bash: each stream without its trailing newlines, non-empty ones joined by a newline (as recorded transcripts show). */
export function renderBash(stdout: string, stderr: string): string {
  return [stdout, stderr]
    .map((text) => text.replace(/\n+$/, ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The recorded text after a PostToolUse replacement, or null when the slot cannot be located in it. */
export function renderReplacement(tool: string, shown: string, before: unknown, after: unknown): string | null {
  // An MCP tool's replacement is a string, which the model sees as the whole result (observed with 2.1.332).
  if (tool.startsWith('mcp__')) return typeof after === 'string' ? after : null;
  const old = slotText(tool, before, shown);
  const next = slotText(tool, after, shown);
  // A replacement without the persisted-output fields is shown alone, not inside the client's preview wrapper.
  if (tool === 'Bash' && next !== null && isRecord(before) && before['persistedOutputPath'] !== undefined && isRecord(after) && after['persistedOutputPath'] === undefined) return next;
  if (old !== null && next !== null) return replaceOnce(shown, old, next);
  return genericReplacement(shown, before, after);
}

/** Whether `renderReplacement` knows this tool's shape: a check of the renderer against recorded results. */
export function renderRecorded(tool: string, response: unknown, shown: string): string | null {
  return slotText(tool, response, shown);
}

function slotText(tool: string, response: unknown, shown: string): string | null {
  if (!isRecord(response)) return null;
  switch (tool) {
    case 'Bash':
      return typeof response['stdout'] === 'string' && typeof response['stderr'] === 'string' ? renderBash(response['stdout'], response['stderr']) : null;
    case 'Grep':
      if (response['mode'] === 'content' && typeof response['content'] === 'string') return response['content'];
      return Array.isArray(response['filenames']) ? response['filenames'].filter((name) => typeof name === 'string').join('\n') : null;
    case 'Glob':
      return Array.isArray(response['filenames']) && response['filenames'].length > 0 ? response['filenames'].filter((name) => typeof name === 'string').join('\n') : null;
    case 'Read':
      return readText(response, shown);
    case 'Task':
    case 'Agent':
      return Array.isArray(response['content']) ? response['content'].map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n') : null;
    default:
      return null;
  }
}

/** Read numbers each line from `startLine`, six columns wide, then an arrow (1.0.17 used a tab). */
function readText(response: Record<string, unknown>, shown: string): string | null {
  const file = response['file'];
  if (response['type'] !== 'text' || !isRecord(file) || typeof file['content'] !== 'string') return null;
  const start = typeof file['startLine'] === 'number' ? file['startLine'] : 1;
  const separator = /^ *\d+\t/.test(shown) && !/^ *\d+\u2192/.test(shown) ? '\t' : '\u2192';
  const content = file['content'];
  if (content === '') return '';
  const lines = content.endsWith('\n') ? content.slice(0, -1).split('\n') : content.split('\n');
  return lines.map((line, i) => `${String(start + i).padStart(6)}${separator}${line}`).join('\n');
}

/** Any other tool: exactly one string field changed, and its old value appears in the recorded text. */
function genericReplacement(shown: string, before: unknown, after: unknown): string | null {
  if (!isRecord(before) || !isRecord(after)) return null;
  const changed = Object.keys(after).filter((key) => typeof after[key] === 'string' && before[key] !== after[key]);
  const [key, ...more] = changed;
  if (key === undefined || more.length > 0) return null;
  const old = before[key];
  const next = after[key];
  return typeof old === 'string' && typeof next === 'string' ? replaceOnce(shown, old, next) : null;
}

function replaceOnce(shown: string, old: string, next: string): string | null {
  if (old === '') return shown === '' ? next : null;
  const at = shown.indexOf(old);
  return at < 0 ? null : shown.slice(0, at) + next + shown.slice(at + old.length);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
