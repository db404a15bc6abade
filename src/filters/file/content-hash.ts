import { builtin } from '../../store/builtin.ts';

/** The SHA-256 a project's filter file is trusted at (node:crypto loads on first use: only project files need it). */
export function contentHash(text: string): string {
  return builtin('node:crypto').createHash('sha256').update(text).digest('hex');
}
