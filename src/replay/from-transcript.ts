/**
 * A transcript of an agent other than Claude Code (aider, SWE-agent) as the session replay's input, so a person's
 * "what would have been saved" and the benchmark run through one engine: the real Claude Code hook entry points.
 * (Claude Code's own sessions replay from their records: `readRecordedSession`.) These agents' records are mapped onto
 * Claude Code's tool-call shape as honestly as they allow: a shell command (aider's /run, SWE-agent's bash actions)
 * becomes a Bash call whose result holds the streams as recorded (both in stdout when the record does not keep them
 * apart); a file read becomes a Read call; any other tool keeps its own name, which our hook matchers then decide about
 * like any tool they do not know. Requests are left out: a transcript's own cost figures come from log-report.ts.
 */
import type { ToolEvent, Transcript } from '../transcript/turns.ts';
import type { TimelineEntry } from './evidence.ts';
import type { RecordedCall, RecordedSession } from './transcript.ts';

export function recordedSessionOf(transcript: Transcript): RecordedSession {
  const timeline: TimelineEntry[] = [];
  const calls: RecordedCall[] = [];
  transcript.tools.forEach((tool, i) => {
    const toolUseId = tool.id || `replay-${i}`;
    timeline.push({ kind: 'result', text: tool.output, toolUseId });
    calls.push({
      toolUseId,
      ...shapeOf(tool),
      sessionId: transcript.sessionId,
      cwd: null,
      agentId: null,
      sidechain: tool.sidechain,
      resultUuid: toolUseId,
      content: tool.output,
      isError: tool.isError,
      at: null,
      timelineIndex: timeline.length - 1,
    });
  });
  return { file: transcript.file, sessionId: transcript.sessionId, version: null, projectDir: null, calls, requests: [], skippedLines: transcript.skipped, timeline };
}

function shapeOf(tool: ToolEvent): Pick<RecordedCall, 'tool' | 'input' | 'toolUseResult'> {
  if (tool.kind === 'shell' && tool.command !== null) {
    const stdout = tool.stdout ?? tool.output;
    return { tool: 'Bash', input: { command: tool.command }, toolUseResult: { stdout, stderr: tool.stderr ?? '', interrupted: false, isImage: false } };
  }
  if (tool.kind === 'read' && tool.filePath !== null) {
    return { tool: 'Read', input: { file_path: tool.filePath }, toolUseResult: { type: 'text', file: { filePath: tool.filePath, content: tool.output } } };
  }
  return { tool: tool.tool, input: {}, toolUseResult: tool.output };
}
