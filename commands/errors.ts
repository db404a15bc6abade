/** Typed fatal errors: command bodies throw them, the program's one handler prints the message and sets the code. */
export class CliError extends Error {
  readonly exitCode: 1 | 2;
  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

export const usageError = (message: string): CliError => new CliError(message, 2);
