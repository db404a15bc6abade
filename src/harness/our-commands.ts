/**
 * Our own commands in an agent's shell call, for every harness that views shell output after the call: a wrapped
 * command was viewed by `tokenless run` already, and a retrieve's output is what the model asked for in full, so
 * neither is viewed again. Agent-neutral, and light: a harness imports it without loading another agent's answers.
 */
export function classifyOurCommand(command: string, wrapperCommand: string): 'wrapped' | 'retrieve' | 'other' {
  if (/(^|[\s;&|(])(\S*\/)?(tokenless|syt|cli\.c?js'?)\s+retrieve\b/.test(command)) return 'retrieve';
  if (command.includes(`${wrapperCommand} run -- `)) return 'wrapped';
  return 'other';
}
