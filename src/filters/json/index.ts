import { gitSubcommand, hasFlag, invocation } from '../../reduce/argv.ts';
import type { CommandFilter } from '../types.ts';

/** curl, `npm view --json`, `gh … --json`, jq: matched so the command is wrapped, but never filtered here: the
 * runtime hands JSON to the JSON compressor, which knows how to shorten it recoverably. */
export const jsonFilter: CommandFilter = {
  name: 'json',
  matches(argv) {
    if (gitSubcommand(argv) !== null) return false;
    const inv = invocation(argv);
    if (inv === null) return false;
    if (inv.tool === 'curl' || inv.tool === 'jq' || inv.tool === 'http' || inv.tool === 'xh') return true;
    if (inv.tool === 'npm' || inv.tool === 'pnpm' || inv.tool === 'yarn') {
      return ['view', 'info', 'show'].includes(inv.args[0] ?? '') && hasFlag(inv.args, '--json');
    }
    return inv.tool === 'gh' && hasFlag(inv.args, '--json');
  },
  apply: () => null,
};
