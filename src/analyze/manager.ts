/**
 * Our budget manager run over a real transcript: each request is a turn, every message and tool result it added is
 * an ephemeral block (counted with o200k), the inferred prefix is persistent. The result says what the context
 * would have held with staleness eviction and the ladder; it is a simulation, labelled so in every report.
 */
import { simulateSession, type ManagerOptions, type SessionItem, type SimulationResult } from '../budget/simulate.ts';
import type { Transcript } from '../transcript/turns.ts';

export function transcriptItems(transcript: Transcript, prefixTokens: number, count: (text: string) => number): SessionItem[] {
  const items: SessionItem[] = prefixTokens > 0 ? [{ turn: 0, layer: 'persistent', tokens: prefixTokens, source: 'prefix' }] : [];
  const main = new Set(transcript.requests.filter((r) => !r.sidechain).map((r) => r.index));
  for (const message of transcript.messages) {
    if (main.size > 0 && !main.has(message.requestIndex) && message.requestIndex < transcript.requests.length) continue;
    const tokens = count(message.text);
    if (tokens > 0) items.push({ turn: message.requestIndex, layer: 'ephemeral', tokens, source: message.role });
  }
  return items.sort((a, b) => a.turn - b.turn);
}

export function simulateTranscript(transcript: Transcript, prefixTokens: number, count: (text: string) => number, options: ManagerOptions): SimulationResult {
  return simulateSession(transcriptItems(transcript, prefixTokens, count), options);
}
