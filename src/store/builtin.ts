import type * as Crypto from 'node:crypto';
import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';

interface Builtins {
  'node:crypto': typeof Crypto;
  'node:http': typeof Http;
  'node:zlib': typeof Zlib;
}

const require = createRequire(import.meta.url);

/**
 * A Node builtin loaded on first use rather than at start-up (node:crypto costs ~4 ms, node:zlib ~2.5 ms, and the hook
 * path rarely needs them; node:http only for SessionEnd to a keep-warm gateway). `process.getBuiltinModule` exists from Node 20.16; older 20.x fall back to require.
 */
export function builtin<ID extends keyof Builtins>(id: ID): Builtins[ID] {
  const loaded: Builtins[ID] | undefined = process.getBuiltinModule?.(id);
  return loaded ?? (require(id) as Builtins[ID]);
}
