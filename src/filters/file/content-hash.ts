import { sha256 } from '../../store/digest.ts';

/** The SHA-256 a project's filter file is trusted at. */
export function contentHash(text: string): string {
  return sha256(Buffer.from(text, 'utf8'));
}
