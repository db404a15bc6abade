// The one error the lexer and parser throw; parseShell turns it into an `unparseable` result.

import type { UnparseableCode } from './types.ts';

export class ShellSyntaxError extends Error {
  readonly code: UnparseableCode;
  readonly offset: number;
  constructor(code: UnparseableCode, message: string, offset: number) {
    super(message);
    this.code = code;
    this.offset = offset;
  }
}
