/**
 * The programs behind a Bash tool result, read from the command line as typed, for the content policy: each simple
 * command's words in source order (quotes removed where the word is static, as typed otherwise, so `cat *.log`
 * still names a log). Nothing here runs or expands anything.
 */
import { literalValue, parseShell, simpleCommands } from '../shell/index.ts';

/** Longest command line parsed; a longer one is treated as unknown (the policy then reads the content only). */
const MAX_COMMAND_CHARS = 16 * 1024;

export function commandsOf(line: string): string[][] {
  if (line.length > MAX_COMMAND_CHARS) return [];
  const parsed = parseShell(line);
  if (parsed.kind !== 'parsed') return [];
  return simpleCommands(parsed.script.list)
    .map((command) => command.words.map((word) => literalValue(word.text) ?? word.text))
    .filter((words) => words.length > 0);
}
