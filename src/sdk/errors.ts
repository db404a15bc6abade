/**
 * The one error type the SDK throws. Normal outcomes (passthrough, no savings, recoverability unavailable) are typed
 * results, never errors; only illegal input, a failed operation (an unknown or unauthorised marker, duplicate tool
 * names) and use after `close()` are thrown, each with a code a caller can branch on.
 */
export type TokenlessErrorCode = 'invalid_input' | 'operation_failed' | 'closed';

export class TokenlessError extends Error {
  readonly code: TokenlessErrorCode;

  constructor(code: TokenlessErrorCode, message: string) {
    super(message);
    this.name = 'TokenlessError';
    this.code = code;
  }
}
