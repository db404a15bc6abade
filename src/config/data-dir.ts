import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$TOKENLESS_DATA_DIR`, default `~/.tokenless` (CONTRACTS.md). Config resolves it; the store only opens it. */
export function resolveDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env['TOKENLESS_DATA_DIR'];
  return configured !== undefined && configured !== '' ? configured : join(homedir(), '.tokenless');
}
