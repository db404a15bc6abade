/**
 * `tokenless serve [--port N]`: the HTTP hook server in the foreground until SIGINT/SIGTERM. Register it with
 * `syt init --http`; while it is down Claude Code runs every tool unchanged.
 */
import * as z from 'zod/mini';
import { loadConfig } from '../src/config/config.ts';
import { Runtime } from '../src/runtime/runtime.ts';
import { startHookServer } from '../src/server/hook-server.ts';
import { DEFAULT_SERVE_PORT, readOrCreateToken } from '../src/server/token.ts';
import { wrapperCommand } from '../src/shell/wrapper-command.ts';
import { PROMETHEUS_CONTENT_TYPE } from '../src/telemetry/prometheus.ts';
import { scrapeText } from '../src/telemetry/scrape.ts';
import { CliError } from './shared/errors.ts';
import { startIntervalExport } from './shared/interval-export.ts';
import { parseOptions, portOption } from './shared/options.ts';

declare const __VERSION__: string;

const Options = z.object({ port: z.optional(portOption) });

export async function serveCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'serve');
  const config = loadConfig();
  const runtime = new Runtime(config);
  let server;
  try {
    server = await startHookServer({
      port: options.port === undefined ? DEFAULT_SERVE_PORT : Number(options.port),
      token: readOrCreateToken(config.dataDir),
      runtime,
      wrapperCommand: wrapperCommand(),
      version: typeof __VERSION__ === 'string' ? __VERSION__ : 'dev',
      env: process.env,
      log: (line) => process.stderr.write(`tokenless serve: ${line}\n`),
      metrics: () => ({ contentType: PROMETHEUS_CONTENT_TYPE, body: scrapeText(config.dataDir, process.env) }),
    });
  } catch (error) {
    runtime.close();
    throw new CliError(`tokenless serve: cannot listen: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.stderr.write(`tokenless serve: listening on ${server.url} (Claude Code hooks, Prometheus at ${server.url}/metrics; Ctrl-C stops)\n`);
  const exporting = startIntervalExport(config.dataDir, process.env, (line) => process.stderr.write(`tokenless serve: ${line}\n`));
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  await exporting?.stop();
  runtime.close();
}
