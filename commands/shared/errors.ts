/**
 * Typed fatal errors: command bodies throw them, the program's one handler prints the message and sets the code.
 * A message starts with `tokenless <command>:` (or `syt <command>:`); the handler prints it under the name the
 * program was invoked as, and puts the running command in front of a message that does not name one.
 */
export class CliError extends Error {
  readonly exitCode: 1 | 2;
  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string): CliError => new CliError(message, 2);

/** The message as printed: the invoked program name first, then the command, then what went wrong. */
export function errorLine(message: string, program: string, command: string): string {
  if (/^(tokenless|syt)\b/.test(message)) return message.replace(/^(tokenless|syt)\b/, program);
  return `${program}${command === '' ? '' : ` ${command}`}: ${message}`;
}
