import { joinLines, lossy, makeView, splitLines, stripAnsi } from '../text.ts';
import type { CommandOutput, StreamCandidate } from '../types.ts';

/** YAML keys of a failing TAP test that say nothing about why it failed. */
const NOISE_KEYS = /^\s*(?:duration_ms|type):/;
/** Stack frames inside Node itself: the runner's machinery, never the test's. */
const INTERNAL_FRAME = /\((?:node:|internal\/)|^\s*(?:async )?(?:Test|Suite|TestContext|ModuleJob|process)\.\S+ \(node:/;
const FRAMES_KEPT = 3;

/**
 * TAP from `node --test` (Node 20's default reporter off a terminal) and other TAP producers: passing tests and their
 * YAML blocks go; every `not ok` line stays with its diagnostics (error, expected/actual, location, the first project
 * stack frames), as do the plan and the `# tests/pass/fail/...` summary.
 */
export function tapView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(stripAnsi(output.stdout));
  if (!lines.some((line) => /^TAP version \d+/.test(line)) || !lines.some((line) => /^# (?:pass|fail) \d+/.test(line))) return null;
  const kept: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const result = /^(\s*)(not ok|ok) \d+ /.exec(line);
    if (result !== null) {
      const block = yamlBlock(lines, i + 1, result[1] ?? '');
      if (result[2] === 'not ok') kept.push(line, ...trimDiagnostics(block.lines));
      i = block.end;
      continue;
    }
    // Subtest headers only repeat the name of the ok/not ok line that follows them.
    if (!/^\s*# Subtest: /.test(line) && !/^TAP version/.test(line)) kept.push(line);
    i += 1;
  }
  return makeView(name, output, lossy(joinLines(kept)), null);
}

/** The `---` … `...` diagnostics block that may follow a result line (indented two more spaces). */
function yamlBlock(lines: readonly string[], start: number, indent: string): { lines: string[]; end: number } {
  if ((lines[start] ?? '').trim() !== '---' || !(lines[start] ?? '').startsWith(`${indent}  `)) return { lines: [], end: start };
  let end = start + 1;
  while (end < lines.length && (lines[end] ?? '').trim() !== '...') end += 1;
  return { lines: lines.slice(start, Math.min(end + 1, lines.length)), end: Math.min(end + 1, lines.length) };
}

function trimDiagnostics(block: readonly string[]): string[] {
  const out: string[] = [];
  let frames = -1;
  for (const line of block) {
    if (NOISE_KEYS.test(line)) continue;
    if (/^\s*stack: \|-?$/.test(line)) {
      frames = 0;
      out.push(line);
      continue;
    }
    if (frames >= 0 && /^\s{4,}\S/.test(line) && !/^\s*\.\.\.$/.test(line)) {
      if (!INTERNAL_FRAME.test(line) && frames < FRAMES_KEPT) {
        out.push(line);
        frames += 1;
      }
      continue;
    }
    frames = -1;
    out.push(line);
  }
  return out;
}
