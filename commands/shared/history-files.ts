/**
 * Which transcripts `syt cost history` reads: the paths named (files, or directories searched like a Claude config
 * dir), else `--claude-dir`, else `$CLAUDE_CONFIG_DIR` or `~/.claude`; then `--project` and `--since`, then the newest
 * `--max-sessions`. Everything found and not taken is counted, never silently dropped.
 */
import { statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import type { NotTaken, SkippedFile } from '../../src/cost/history.ts';
import { defaultClaudeDir, findTranscripts } from '../../src/transcript/files.ts';
import { CliError } from './errors.ts';

export interface FoundTranscript {
  readonly path: string;
  readonly project: string;
  /** `<session>` or, for a subagent's own file, `<session>/<agent file>`; without `.jsonl`. */
  readonly label: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface TranscriptSelection {
  /** The files and directories searched (absolute). */
  readonly source: readonly string[];
  readonly found: number;
  readonly taken: readonly FoundTranscript[];
  readonly skipped: readonly SkippedFile[];
  readonly notTaken: Omit<NotTaken, 'over_time'>;
}

export interface SelectOptions {
  readonly paths: readonly string[];
  readonly claudeDir: string | undefined;
  readonly project: string | undefined;
  readonly since: number | null;
  readonly maxSessions: number;
}

export function selectTranscripts(options: SelectOptions, command: string): TranscriptSelection {
  if (options.paths.length > 0 && options.claudeDir !== undefined) throw new CliError(`tokenless ${command}: give paths or --claude-dir, not both`, 2);
  const roots = options.paths.length > 0 ? options.paths.map((path) => resolve(path)) : [resolve(options.claudeDir ?? defaultClaudeDir())];
  const files: string[] = [];
  for (const root of roots) {
    const kind = kindOf(root);
    // The default directory may simply not exist yet (Claude Code never ran): nothing to price, not a failure.
    if (kind === null && options.paths.length === 0 && options.claudeDir === undefined) continue;
    if (kind === null) throw new CliError(`tokenless ${command}: no such file or directory: ${root}`);
    if (kind === 'file') files.push(root);
    else files.push(...findTranscripts(root));
  }
  const unique = [...new Set(files)];
  const skipped: SkippedFile[] = [];
  const found: FoundTranscript[] = [];
  for (const path of unique) {
    try {
      const stat = statSync(path);
      found.push({ path, project: projectOf(path), label: labelOf(path), size: stat.size, mtimeMs: stat.mtimeMs });
    } catch (error) {
      skipped.push({ path, reason: 'unreadable', detail: (error as Error).message });
    }
  }
  const inProject = found.filter((t) => options.project === undefined || t.project.includes(options.project));
  const recent = inProject.filter((t) => options.since === null || t.mtimeMs >= options.since);
  const newest = [...recent].sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return {
    source: roots,
    found: unique.length,
    taken: newest.slice(0, options.maxSessions),
    skipped,
    notTaken: { other_project: found.length - inProject.length, before_since: inProject.length - recent.length, over_limit: Math.max(0, newest.length - options.maxSessions) },
  };
}

function kindOf(path: string): 'file' | 'dir' | null {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

/** Claude Code keeps a project's sessions in `projects/<the project path with / as ->/`; elsewhere, the parent dir. */
function projectOf(path: string): string {
  const parts = path.split(sep);
  const at = parts.lastIndexOf('projects');
  if (at >= 0 && at + 2 < parts.length) return parts[at + 1] ?? '';
  return basename(dirname(path));
}

function labelOf(path: string): string {
  const name = basename(path).replace(/\.jsonl$|(?<=.)[._]+chat\.json$/, '');
  if (basename(dirname(path)) === 'subagents') return `${basename(dirname(dirname(path)))}/${name}`;
  return name;
}
