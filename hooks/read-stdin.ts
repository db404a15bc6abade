/** Why reading stdin stopped short: both mean "pass through", never a crash. */
export type StdinOutcome =
  | { ok: true; text: string }
  | { ok: false; reason: 'too_large' | 'timeout'; detail: string };

/** Hook inputs over this are passed through: Claude Code already cuts Bash output at 30,000 characters. */
export const STDIN_CAP_BYTES = 16 * 1024 * 1024;
/** A harness that never closes stdin must not hang the agent. */
export const STDIN_TIMEOUT_MS = 10_000;

/** Reads all of stdin up to a byte cap and a deadline. */
export function readStdin(
  stream: NodeJS.ReadableStream = process.stdin,
  capBytes = STDIN_CAP_BYTES,
  timeoutMs = STDIN_TIMEOUT_MS,
): Promise<StdinOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: StdinOutcome): void => {
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.removeAllListeners('end');
      stream.removeAllListeners('error');
      // Stop reading an oversized or stalled stdin so the process can exit.
      // (Duck-typed: importing node:stream for instanceof would load it on every hook call.)
      if (!outcome.ok && 'destroy' in stream && typeof stream.destroy === 'function') (stream as { destroy: () => void }).destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout', detail: `stdin not closed within ${timeoutMs} ms` }), timeoutMs);
    stream.on('data', (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.byteLength;
      if (size > capBytes) {
        finish({ ok: false, reason: 'too_large', detail: `input exceeds the ${capBytes}-byte cap` });
        return;
      }
      chunks.push(buffer);
    });
    stream.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    stream.on('error', (error: Error) => finish({ ok: false, reason: 'timeout', detail: `stdin error: ${error.message}` }));
  });
}
