import * as z from 'zod/mini';
import { loadConfig } from '../../src/config/config.ts';
import { createGateway } from '../../src/gateway/server.ts';
import { usageError } from '../errors.ts';
import { parseOptions, portOption } from '../options.ts';

const Options = z.object({ port: portOption, upstream: z.optional(z.string()), schema: z._default(z.enum(['off', 'lossless']), 'off') });

/** `tokenless gateway`: runs until SIGINT/SIGTERM; logs its address on stderr. */
export async function gatewayCommand(raw: unknown): Promise<void> {
  const options = parseOptions(Options, raw, 'gateway');
  const port = Number(options.port);
  let upstream: URL;
  try {
    upstream = new URL(options.upstream ?? process.env['TOKENLESS_UPSTREAM'] ?? 'https://api.anthropic.com');
  } catch {
    throw usageError(`tokenless gateway: --upstream is not a URL: ${options.upstream ?? ''}`);
  }
  const config = loadConfig();
  const server = createGateway({ upstream, dataDir: config.dataDir, schema: options.schema });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : port;
      process.stderr.write(`tokenless gateway listening on http://127.0.0.1:${bound} -> ${upstream.origin} (schema: ${options.schema})\n`);
      resolve();
    });
  });
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
