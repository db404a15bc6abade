// Reads transcript files from disk into the normalised turn model: the I/O edge of `analyze --log`.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { entryKind, readBoundedText } from '../../src/io/bounded-read.ts';
import { recordedSessionOf } from '../../src/replay/from-transcript.ts';
import { readRecordedSession, type RecordedSession } from '../../src/replay/transcript.ts';
import { readAiderHistory } from '../../src/transcript/aider.ts';
import { readClaudeCodeTranscript } from '../../src/transcript/claude-code-turns.ts';
import { isTranscriptName } from '../../src/transcript/records.ts';
import { readSweAgentTrajectory } from '../../src/transcript/swe-agent.ts';
import type { Transcript } from '../../src/transcript/turns.ts';
import { CliError } from './errors.ts';

const KNOWN = /\.(jsonl|traj|md|md\.gz)$|chat\.json$/u;

/**
 * A transcript with what the session replay reads of it. A Claude Code session replays from its own records
 * (`readRecordedSession`, as `npm run bench:sessions` and `syt cost history` do: persisted-output and background-task
 * flags, cwd, sidechains and times included), so `syt analyze --log` and the benchmark give one answer for one file;
 * other agents' records are mapped onto Claude Code's tool calls. Lazy: only a replay pays for the second read.
 */
export interface SourcedTranscript {
  readonly transcript: Transcript;
  readonly replayInput: () => RecordedSession;
}

/** Where a file of a folder that cannot be read is named, one line each (the folder's other files are still read). */
export type SkipNote = (path: string, reason: string) => void;
const toStderr: SkipNote = (path, reason) => process.stderr.write(`syt analyze: skipped ${path}: ${reason}\n`);

/**
 * Every transcript in a file, or in a folder and its subfolders (Claude Code keeps subagents one level down). Files
 * are read through the bounded reader: a FIFO, a device, a gzip bomb or a dangling link in a folder is skipped with a
 * note; the same named directly is an error.
 */
export function readTranscripts(path: string, count: (text: string) => number, onProgress?: (done: number, total: number) => void, onSkip: SkipNote = toStderr): SourcedTranscript[] {
  const kind = entryKind(path);
  if (kind === 'missing') throw new CliError(`syt analyze: no such file or folder: ${path}`);
  const files = kind === 'directory' ? listFiles(path, 2, onSkip) : [path];
  const transcripts = files.flatMap((file, i) => {
    onProgress?.(i + 1, files.length);
    const read = readBoundedText(file, { gunzip: file.endsWith('.gz') });
    if (!read.ok) {
      if (kind !== 'directory') throw new CliError(`syt analyze: cannot read ${file}: ${read.reason}`);
      onSkip(file, read.reason);
      return [];
    }
    return parseOne(file, read.text, count);
  });
  if (transcripts.length === 0) throw new CliError(`syt analyze: no readable transcript in ${path} (Claude Code .jsonl or chat.json, aider .md/.md.gz, SWE-agent .traj)`);
  return transcripts;
}

function parseOne(file: string, text: string, count: (text: string) => number): SourcedTranscript[] {
  if (file.endsWith('.traj')) {
    const trajectory = readSweAgentTrajectory(text, file, count);
    return trajectory === null ? [] : [mapped(trajectory)];
  }
  if (isTranscriptName(basename(file))) {
    const transcript = readClaudeCodeTranscript(text, file);
    return transcript.requests.length > 0 ? [{ transcript, replayInput: () => readRecordedSession(text, file) }] : [];
  }
  return readAiderHistory(text, file).map(mapped);
}

function mapped(transcript: Transcript): SourcedTranscript {
  return { transcript, replayInput: () => recordedSessionOf(transcript) };
}

function listFiles(dir: string, depth: number, onSkip: SkipNote): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    onSkip(dir, (error as Error).message);
    return [];
  }
  return names.flatMap((name) => {
    const full = join(dir, name);
    const kind = entryKind(full);
    if (kind === 'directory') return depth > 0 ? listFiles(full, depth - 1, onSkip) : [];
    if (!KNOWN.test(name)) return [];
    if (kind === 'dangling link') {
      onSkip(full, 'a link to nothing');
      return [];
    }
    // A FIFO or device with a transcript's name is refused by the reader, with its own note.
    return kind === 'missing' ? [] : [full];
  });
}
