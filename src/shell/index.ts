// The shell module's public surface: parse a command line, read static words, quote words for splicing.

export { parseShell, simpleCommands } from './parse.ts';
export { shellQuote } from './quote.ts';
export { assignmentName, heredocDelimiter, isAssignmentWord, literalValue } from './word.ts';
export type * from './types.ts';
