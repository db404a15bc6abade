import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './cli.ts';

/** Starts the built `tokenless gateway` on a free port; resolves with its URL once it says it is listening. */
export function startGateway(upstream: string, dataDir: string, extra: readonly string[], track: (child: ChildProcess) => void, env: Readonly<Record<string, string>> = {}): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'gateway', '--port', '0', '--upstream', upstream, ...extra], {
    env: { PATH: process.env['PATH'] ?? '', HOME: dataDir, TOKENLESS_DATA_DIR: dataDir, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  track(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(err);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}: ${err}`)));
  });
}
