/** The key facts of a session, written before compaction and re-injected after it (pure). */
import type { Transcript } from '../transcript/turns.ts';

const MAX_FILES = 15;
const MAX_ERRORS = 3;

export interface SessionSnapshot {
  readonly openTasks: readonly string[];
  readonly touchedFiles: readonly string[];
  readonly lastErrors: readonly string[];
}

export function sessionSnapshot(transcript: Transcript): SessionSnapshot {
  const main = transcript.tools.filter((t) => !t.sidechain);
  const touched = [...new Set(main.filter((t) => t.kind === 'edit' && t.filePath !== null).map((t) => t.filePath ?? '').reverse())].slice(0, MAX_FILES).reverse();
  const errors = main
    .filter((t) => t.isError)
    .slice(-MAX_ERRORS)
    .map((t) => `${t.command ?? t.tool}: ${(t.output.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 160)}`);
  return {
    openTasks: transcript.todos.filter((t) => t.status !== 'completed').map((t) => `${t.content} (${t.status})`),
    touchedFiles: touched,
    lastErrors: errors,
  };
}

/** The snapshot as the short text SessionStart re-injects; empty sections are left out. */
export function renderSnapshot(snapshot: SessionSnapshot): string {
  const parts = ['[syt] Key facts saved before compaction:'];
  if (snapshot.openTasks.length > 0) parts.push(`Open tasks: ${snapshot.openTasks.join('; ')}`);
  if (snapshot.touchedFiles.length > 0) parts.push(`Files changed: ${snapshot.touchedFiles.join(', ')}`);
  if (snapshot.lastErrors.length > 0) parts.push(`Last errors: ${snapshot.lastErrors.join(' | ')}`);
  return parts.length === 1 ? '' : parts.join('\n');
}
