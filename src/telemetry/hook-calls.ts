/**
 * Hook calls as metric points (issue 26): how long each `tokenless hook` process took and how it ended, for the
 * hook latency histogram and the hook error counter. A hook call is one short line in a log (src/store/hook-calls-
 * log.ts), written only while telemetry is on: the hook opens no database and loads no SDK for it. Every value is
 * checked against a fixed set or a number range here, both when the line is written and when it is read back, so no
 * command, path or output can reach an attribute through a tampered log.
 */
import { DISPOSITIONS } from '../protocol/names.ts';
import { collectPoints, harnessOf, lifecycleOf, type Attributes, type MetricPoint } from './metrics.ts';

/** How a hook process ended: a document on stdout, nothing (the agent keeps its data), exit 1, exit 2. */
export const HOOK_OUTCOMES = ['answered', 'passthrough', 'error', 'malformed'] as const;
export type HookCallOutcome = (typeof HOOK_OUTCOMES)[number];

export interface HookCall {
  /** Epoch ms when the call ended. */
  readonly ts: number;
  readonly harness: string;
  readonly lifecycle: string;
  /** From the process's start to its answer. */
  readonly ms: number;
  readonly outcome: HookCallOutcome;
  /** The engine's disposition (applied, or a decline's reason: no_savings, tool_error…); null when no engine ran. */
  readonly disposition: string | null;
}

/** Bucket upper bounds in ms: a hook call is 30-300 ms; the tail shows a stalled stdin or a slow disk. */
export const LATENCY_BOUNDARIES_MS = [10, 25, 50, 75, 100, 150, 200, 300, 500, 1000, 2500, 5000, 10000] as const;

/** No hook call lasts longer than its stdin deadline plus its work; a longer value is not a hook call's. */
const MAX_MS = 10 * 60 * 1000;

export function hookCallOutcome(exitCode: 0 | 1 | 2, stdout: string): HookCallOutcome {
  if (exitCode === 2) return 'malformed';
  if (exitCode === 1) return 'error';
  return stdout === '' ? 'passthrough' : 'answered';
}

/** One log line, values already narrowed to what may be exported. */
export function hookCallLine(call: HookCall): string {
  const line = { ts: Math.round(call.ts), h: harnessOf(call.harness), l: lifecycleOf(call.lifecycle), ms: Math.round(call.ms * 10) / 10, o: call.outcome, d: dispositionOf(call.disposition) };
  return `${JSON.stringify(line)}\n`;
}

/** The calls of a log's text; a line that is cut off, malformed or out of range is skipped (counted in `skipped`). */
export function parseHookCalls(text: string): { calls: HookCall[]; skipped: number } {
  const calls: HookCall[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const call = parseLine(line);
    if (call === null) skipped += 1;
    else calls.push(call);
  }
  return { calls, skipped };
}

function parseLine(line: string): HookCall | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { ts, h, l, ms, o, d } = raw as Record<string, unknown>;
  if (typeof ts !== 'number' || !Number.isFinite(ts) || typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_MS)) return null;
  if (typeof h !== 'string' || typeof l !== 'string' || !(HOOK_OUTCOMES as readonly unknown[]).includes(o)) return null;
  return { ts, harness: harnessOf(h), lifecycle: lifecycleOf(l), ms, outcome: o as HookCallOutcome, disposition: typeof d === 'string' ? dispositionOf(d) : null };
}

function dispositionOf(value: string | null): string | null {
  if (value === null) return null;
  return (DISPOSITIONS as readonly string[]).includes(value) ? value : 'other';
}

export interface LatencyPoint {
  readonly attributes: Attributes;
  readonly count: number;
  readonly sum: number;
  readonly min: number;
  readonly max: number;
  /** One count per bucket of LATENCY_BOUNDARIES_MS, plus the overflow bucket. */
  readonly bucketCounts: readonly number[];
  readonly firstTs: number;
  readonly lastTs: number;
}

/** Latency by harness and lifecycle; calls by harness, lifecycle, outcome and disposition (`tokenless.hook.calls`). */
export function hookCallPoints(calls: readonly HookCall[]): { latency: LatencyPoint[]; counts: MetricPoint[] } {
  const latency = new Map<string, { attributes: Attributes; count: number; sum: number; min: number; max: number; bucketCounts: number[]; firstTs: number; lastTs: number }>();
  const counts: MetricPoint[] = [];
  for (const call of calls) {
    const attributes: Attributes = { harness: call.harness, lifecycle: call.lifecycle };
    const key = `${call.harness}\u0000${call.lifecycle}`;
    let point = latency.get(key);
    if (point === undefined) {
      point = { attributes, count: 0, sum: 0, min: Infinity, max: 0, bucketCounts: new Array<number>(LATENCY_BOUNDARIES_MS.length + 1).fill(0), firstTs: call.ts, lastTs: call.ts };
      latency.set(key, point);
    }
    const found = LATENCY_BOUNDARIES_MS.findIndex((bound) => call.ms <= bound);
    const bucket = found === -1 ? LATENCY_BOUNDARIES_MS.length : found;
    point.bucketCounts[bucket] = (point.bucketCounts[bucket] ?? 0) + 1;
    point.count += 1;
    point.sum += call.ms;
    point.min = Math.min(point.min, call.ms);
    point.max = Math.max(point.max, call.ms);
    point.firstTs = Math.min(point.firstTs, call.ts);
    point.lastTs = Math.max(point.lastTs, call.ts);
    const disposition = call.disposition === null ? {} : { disposition: call.disposition };
    counts.push({ metric: 'hookCalls', attributes: { ...attributes, outcome: call.outcome, ...disposition }, value: 1, firstTs: call.ts, lastTs: call.ts });
  }
  return { latency: [...latency.values()], counts: collectPoints(counts) };
}
