// Whole-process timing shared by the latency benchmarks: one spawn, wall milliseconds, and the median of many.
import { spawnSync } from 'node:child_process';

/**
 * Runs `file args…` once with the given stdin and environment; throws when it fails. `output`: a descriptor to give
 * as fds 1 and 2 (as Claude Code gives a Bash command its task output file) instead of pipes.
 */
export function timeOnce(name, file, args, { input = '', env = process.env, output } = {}) {
  const start = process.hrtime.bigint();
  const stdio = output === undefined ? ['pipe', 'pipe', 'pipe'] : ['pipe', output, output];
  const result = spawnSync(file, args, { input, env, stdio });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
  return ms;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A native pre_tool envelope for a Bash command: the hook input every latency benchmark times. */
export function preToolEnvelope(command) {
  return JSON.stringify({
    protocol_version: 2,
    operation: 'pre_tool',
    attribution: { agent_id: 'bench', session_id: 'bench', tool_use_id: 'bench' },
    input: { tool_name: 'Bash', arguments: { command }, command_field: 'command' },
  });
}
