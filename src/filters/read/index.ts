import { invocation } from '../../reduce/argv.ts';
import type { CommandFilter } from '../types.ts';

/**
 * cat/head/tail/sed -n/bat/nl/less/more: matched so the read is wrapped, never filtered here. The runtime hands the
 * output to the content policy (src/compress/policy.ts), which keeps source, docs and config byte-exact and gives
 * logs, lockfiles, JSON, JSON Lines, CSV/TSV and minified files their content views, the same way post_tool does.
 */
export const readFilter: CommandFilter = {
  name: 'read',
  matches(argv) {
    const inv = invocation(argv);
    if (inv === null) return false;
    if (inv.tool === 'sed') return inv.args.includes('-n') && !inv.args.some((a) => a === '-i' || a.startsWith('--in-place'));
    return ['cat', 'head', 'tail', 'bat', 'batcat', 'less', 'more', 'nl'].includes(inv.tool) && !inv.args.includes('-f');
  },
  apply: () => null,
};
