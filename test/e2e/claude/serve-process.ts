/** Starts the built `tokenless serve --port 0` as a child process and waits for the URL it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from '../../helpers/cli.ts';

export interface ServeProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export function startServe(env: Record<string, string>, port = 0): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`tokenless serve did not start: ${stderr}`)), 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      const stop = (): Promise<void> =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      resolve({ url: match[1] ?? '', port: Number(match[2]), child, stop });
    });
    child.once('exit', (code) => reject(new Error(`tokenless serve exited ${String(code)}: ${stderr}`)));
  });
}
