/**
 * The shared secret between `syt init --http` (which writes it into the hook's request headers) and `tokenless serve`
 * (which refuses requests without it): any local user can connect to 127.0.0.1, only we can read a 0600 file in our
 * 0700 data dir.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../store/data-dir.ts';

export const TOKEN_FILE = 'serve-token';
export const DEFAULT_SERVE_PORT = 47615;

/** The token when one was created already (a dry run must not create it). */
export function readToken(dataDir: string): string | null {
  try {
    const existing = readFileSync(join(dataDir, TOKEN_FILE), 'utf8').trim();
    return /^[0-9a-f]{64}$/.test(existing) ? existing : null;
  } catch {
    return null;
  }
}

/** Reads the token, creating it (32 random bytes, hex) on first use. */
export function readOrCreateToken(dataDir: string): string {
  const existing = readToken(dataDir);
  if (existing !== null) return existing;
  ensurePrivateDir(dataDir);
  const token = randomBytes(32).toString('hex');
  writeFileSync(join(dataDir, TOKEN_FILE), `${token}\n`, { mode: 0o600 });
  return token;
}

/** Constant-time comparison, so the answer time does not leak how much of a guess was right. */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
