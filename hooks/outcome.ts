/**
 * What a hook invocation ends with (CONTRACTS.md): exit 0 with one JSON document or nothing, 1 when the operation
 * failed, 2 for usage errors and malformed input. Errors are one line on stderr with nothing on stdout, so the agent
 * proceeds with its original data.
 */
export interface HookOutcome {
  readonly exitCode: 0 | 1 | 2;
  readonly stdout: string;
  readonly stderr: string;
}

export const ok = (document: unknown): HookOutcome => ({ exitCode: 0, stdout: `${JSON.stringify(document)}\n`, stderr: '' });
export const silent = (note = ''): HookOutcome => ({ exitCode: 0, stdout: '', stderr: note === '' ? '' : `tokenless: ${oneLine(note)}\n` });
export const failed = (reason: string): HookOutcome => ({ exitCode: 1, stdout: '', stderr: `tokenless: ${oneLine(reason)}\n` });
export const malformed = (reason: string): HookOutcome => ({ exitCode: 2, stdout: '', stderr: `tokenless: ${oneLine(reason)}\n` });

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}
