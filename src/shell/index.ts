// The shell module's public surface: parse a command line, read static words, quote words for splicing.

export { lineEffects, type LineEffects } from './effects.ts';
export { parseShell, simpleCommands } from './parse.ts';
export { shellQuote } from './quote.ts';
export { assignmentName, assignmentTilde, heredocDelimiter, isAssignmentWord, literalValue } from './word.ts';
export type * from './types.ts';
