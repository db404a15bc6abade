/**
 * One self-erasing progress line on stderr for work that can take more than a second. Only on a terminal: a pipe,
 * a log or a test sees nothing, and stdout is never touched.
 */
const EVERY_MS = 100;

export interface Progress {
  /** `label done/total`, redrawn at most every 100 ms. */
  readonly update: (done: number, total: number) => void;
  /** Erases the line. */
  readonly end: () => void;
}

/** `quietMs`: draw nothing until the work has run that long, so a run that ends sooner leaves the terminal alone. */
export function progress(label: string, stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now, quietMs = 0): Progress {
  if (stream.isTTY !== true) return { update: () => undefined, end: () => undefined };
  const started = now();
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      const at = now();
      if (at - started < quietMs) return;
      if (at - last < EVERY_MS && done < total) return;
      last = at;
      shown = true;
      stream.write(`\r\x1b[K${label} ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`);
    },
    end() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
