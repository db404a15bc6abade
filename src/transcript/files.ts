/**
 * Where Claude Code keeps transcripts: `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `/projects/<project>/<session>.jsonl`
 * and `<project>/<session>/subagents/agent-<id>.jsonl`. Large tool outputs live in `<session>/tool-results/` as .txt,
 * so only transcript names are taken: `.jsonl`, and `chat.json` dumps of the same records (`records.ts`).
 */
import { readdirSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isTranscriptName } from './records.ts';

export function defaultClaudeDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env['CLAUDE_CONFIG_DIR'];
  return configured !== undefined && configured !== '' ? configured : join(homedir(), '.claude');
}

/** Every transcript file below `dir` (its `projects/` when it has one), sorted; a missing directory has none. */
export function findTranscripts(dir: string): string[] {
  const projects = join(dir, 'projects');
  const root = listDir(projects) !== null ? projects : dir;
  const found: string[] = [];
  walk(root, 0, found);
  return found.sort();
}

// Depth 4 covers projects/<p>/<session>/subagents/<file>; deeper trees are not Claude Code's.
const MAX_DEPTH = 4;

function walk(dir: string, depth: number, found: string[]): void {
  const entries = listDir(dir);
  if (entries === null) return;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (depth < MAX_DEPTH && entry.name !== 'tool-results') walk(path, depth + 1, found);
    } else if (entry.isFile() && isTranscriptName(entry.name)) {
      found.push(path);
    }
  }
}

function listDir(dir: string): Dirent[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
}
