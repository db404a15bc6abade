// Reads transcript files from disk into the normalised turn model: the I/O edge of `analyze --log`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readAiderHistory } from '../../src/transcript/aider.ts';
import { readClaudeCodeTranscript } from '../../src/transcript/claude-code-turns.ts';
import { isTranscriptName } from '../../src/transcript/records.ts';
import { readSweAgentTrajectory } from '../../src/transcript/swe-agent.ts';
import type { Transcript } from '../../src/transcript/turns.ts';
import { CliError } from '../errors.ts';

const KNOWN = /\.(jsonl|traj|md|md\.gz)$|chat\.json$/u;

/** Every transcript in a file, or in a folder and its subfolders (Claude Code keeps subagents one level down). */
export function readTranscripts(path: string, count: (text: string) => number, onProgress?: (done: number, total: number) => void): Transcript[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new CliError(`syt analyze: no such file or folder: ${path}`);
  }
  const files = stat.isDirectory() ? listFiles(path, 2) : [path];
  const transcripts = files.flatMap((file, i) => {
    onProgress?.(i + 1, files.length);
    return readOne(file, count);
  });
  if (transcripts.length === 0) throw new CliError(`syt analyze: no readable transcript in ${path} (Claude Code .jsonl or chat.json, aider .md/.md.gz, SWE-agent .traj)`);
  return transcripts;
}

function readOne(file: string, count: (text: string) => number): Transcript[] {
  const bytes = readFileSync(file);
  const text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  if (file.endsWith('.traj')) {
    const trajectory = readSweAgentTrajectory(text, file, count);
    return trajectory === null ? [] : [trajectory];
  }
  if (isTranscriptName(basename(file))) {
    const transcript = readClaudeCodeTranscript(text, file);
    return transcript.requests.length > 0 ? [transcript] : [];
  }
  return readAiderHistory(text, file);
}

function listFiles(dir: string, depth: number): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) return depth > 0 ? listFiles(full, depth - 1) : [];
      return KNOWN.test(name) ? [full] : [];
    });
}
