/**
 * aider's `.aider.chat.history.md` into the normalised turn model: one transcript per `# aider chat started` session.
 * User lines start with `#### `, aider's own output (command output, token reports) with `> `, the model's reply is
 * unprefixed. Each `> Tokens: N sent, …` line is one request whose context is N, as aider printed it.
 */
import type { ConversationMessage, ToolEvent, Transcript, TranscriptRequest } from './turns.ts';

const SESSION = /^# aider chat started at (.*)$/u;
const TOKENS = /^> Tokens: ([\d.,]+k?) sent(?:, ([\d.,]+k?) cache write)?(?:, ([\d.,]+k?) (?:cache hit|cached))?, ([\d.,]+k?) received/u;
const RUNNING = /^> Running (.+?)\s*$/u;
const RUN_COMMAND = /^#### \/run (.+?)\s*$/u;

/** aider writes `12,566` or `12k`. */
export function parseAiderCount(text: string): number {
  const value = Number.parseFloat(text.replaceAll(',', ''));
  return Math.round(text.endsWith('k') ? value * 1000 : value);
}

/** Strips aider's markdown prefix and the two trailing spaces it adds for line breaks. */
function body(line: string, prefix: string): string {
  return line.slice(prefix.length).replace(/ {2}$/u, '');
}

export function readAiderHistory(text: string, file: string): Transcript[] {
  const sessions: Transcript[] = [];
  let lines: string[] = [];
  let started = '';
  const flush = (): void => {
    if (lines.length > 0) sessions.push(readSession(lines, file, started));
    lines = [];
  };
  for (const line of text.split('\n')) {
    const start = SESSION.exec(line);
    if (start !== null) {
      flush();
      started = start[1] ?? '';
      continue;
    }
    lines.push(line);
  }
  flush();
  return sessions.filter((s) => s.requests.length > 0 || s.tools.length > 0);
}

function readSession(lines: readonly string[], file: string, started: string): Transcript {
  const requests: TranscriptRequest[] = [];
  const messages: ConversationMessage[] = [];
  const tools: ToolEvent[] = [];
  let shell: { command: string; output: string[] } | null = null;
  const closeShell = (): void => {
    if (shell === null) return;
    const output = shell.output.join('\n');
    tools.push({ id: `run-${tools.length}`, tool: 'run', command: shell.command, filePath: null, kind: 'shell', output, stdout: output, stderr: '', isError: false, requestIndex: requests.length, sidechain: false });
    shell = null;
  };
  for (const line of lines) {
    const tokens = TOKENS.exec(line);
    if (tokens !== null) {
      closeShell();
      requests.push(sentRequest(requests.length, started, tokens));
      continue;
    }
    const running = RUNNING.exec(line) ?? RUN_COMMAND.exec(line);
    if (running !== null) {
      closeShell();
      shell = { command: running[1] ?? '', output: [] };
      continue;
    }
    if (shell !== null) {
      if (line.startsWith('> Add the output to the chat') || line.startsWith('#### ')) closeShell();
      else {
        shell.output.push(line.startsWith('> ') ? body(line, '> ') : line.replace(/ {2}$/u, ''));
        continue;
      }
    }
    if (line.startsWith('#### ')) messages.push({ role: 'user', text: body(line, '#### '), requestIndex: requests.length });
    else if (!line.startsWith('>') && line.trim() !== '') messages.push({ role: 'assistant', text: line, requestIndex: Math.max(requests.length - 1, 0) });
  }
  closeShell();
  return { source: 'aider', file, sessionId: started, requests, tools, messages, compactions: [], todos: [], skipped: 0 };
}

function sentRequest(index: number, started: string, match: RegExpExecArray): TranscriptRequest {
  const sent = parseAiderCount(match[1] ?? '0');
  return {
    index,
    id: `${started}#${index + 1}`,
    timestamp: null,
    model: null,
    inputTokens: sent,
    cacheReadTokens: match[3] !== undefined ? parseAiderCount(match[3]) : 0,
    cacheWriteTokens: match[2] !== undefined ? parseAiderCount(match[2]) : 0,
    outputTokens: parseAiderCount(match[4] ?? '0'),
    // aider's "sent" is the whole prompt; its cache figures are parts of it, so they are not added again.
    contextTokens: sent,
    method: 'reported_sent',
    sidechain: false,
  };
}
