/**
 * A synthetic Claude Code main-session transcript for the cache simulator's tests: a prompt, then one tool call per
 * turn, each request at `seconds` with the given recorded usage. Real sessions are tested from the corpus; these
 * script the pauses and cache usage a property needs.
 */
export interface ScriptedTurn {
  readonly seconds: number;
  readonly read: number;
  /** Written at the 5-minute TTL. */
  readonly write: number;
  readonly write1h?: number;
  /** The tool the assistant calls this turn (default Bash). */
  readonly tool?: string;
  /** The result of the previous turn's call this turn's request carries (default "ok"). */
  readonly result?: string;
}

export function scriptedTranscript(turns: readonly ScriptedTurn[]): string {
  const lines: object[] = [];
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
  let parent: string | null = null;
  turns.forEach((turn, i) => {
    const user = `u${i}`;
    const content = i === 0 ? 'hello' : [{ type: 'tool_result', tool_use_id: `toolu_${i - 1}`, content: turn.result ?? 'ok' }];
    lines.push({ type: 'user', uuid: user, parentUuid: parent, sessionId: 's', timestamp: at(turn.seconds), message: { role: 'user', content } });
    const usage = {
      input_tokens: 3,
      output_tokens: 20,
      cache_read_input_tokens: turn.read,
      cache_creation_input_tokens: turn.write + (turn.write1h ?? 0),
      cache_creation: { ephemeral_5m_input_tokens: turn.write, ephemeral_1h_input_tokens: turn.write1h ?? 0 },
    };
    const message = { id: `msg_${i}`, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: turn.tool ?? 'Bash', input: { command: 'ls' } }], usage };
    lines.push({ type: 'assistant', uuid: `a${i}`, parentUuid: user, sessionId: 's', requestId: `req_${i}`, timestamp: at(turn.seconds + 2), message });
    parent = `a${i}`;
  });
  return lines.map((line) => JSON.stringify(line)).join('\n');
}
