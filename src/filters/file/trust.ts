/**
 * Trust for a repository's filter files. A cloned repo can be hostile, and a filter decides what the agent sees, so a
 * project's filter file is inert until the person runs `tokenless filters trust`, which pins the file's SHA-256 by
 * its absolute path. Any change to the file makes it inert again until trusted anew. The person's own files
 * (`~/.config/tokenless/filters/`) need no trust.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { ensurePrivateDir } from '../../store/data-dir.ts';

const TrustFile = z.object({ version: z.literal(1), files: z.record(z.string(), z.string().check(z.regex(/^[0-9a-f]{64}$/))) });
type TrustFile = z.infer<typeof TrustFile>;

const TRUST_FILE_MAX_BYTES = 1024 * 1024;

export function trustFilePath(dataDir: string): string {
  return join(dataDir, 'trusted-filters.json');
}

/** The pinned hashes; an unreadable or malformed store trusts nothing (and is rewritten by the next trust). */
export function readTrust(dataDir: string): ReadonlyMap<string, string> {
  try {
    const raw = readFileSync(trustFilePath(dataDir));
    if (raw.length > TRUST_FILE_MAX_BYTES) return new Map();
    const parsed = TrustFile.safeParse(JSON.parse(raw.toString('utf8')));
    return parsed.success ? new Map(Object.entries(parsed.data.files)) : new Map();
  } catch {
    return new Map();
  }
}

/** Pins `hash` for `path`, written to a temporary file and renamed, so a crash never leaves half a store. */
export function pinTrust(dataDir: string, path: string, hash: string): void {
  const files = Object.fromEntries(readTrust(dataDir));
  files[path] = hash;
  const store: TrustFile = { version: 1, files };
  ensurePrivateDir(dataDir);
  const target = trustFilePath(dataDir);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, target);
}
