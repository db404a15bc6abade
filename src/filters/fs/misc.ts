import { invocation } from '../argv.ts';
import { joinLines, listName, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter } from '../types.ts';

/** `wc`: counts grouped by directory (`lib/: application.js 631, express.js 81`); the total line stays. */
export const wcFilter: CommandFilter = {
  name: 'wc',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && inv.tool === 'wc';
  },
  apply(output) {
    const dirs = new Map<string, string[]>();
    const tail: string[] = [];
    for (const line of splitLines(output.stdout)) {
      const m = /^\s*((?:\d+\s+)*\d+) (.+)$/.exec(line);
      if (m === null) return null;
      const counts = (m[1] ?? '').trim().split(/\s+/).join('/');
      const path = m[2] ?? '';
      if (path === 'total') {
        tail.push(`total ${counts}`);
        continue;
      }
      const cut = path.lastIndexOf('/');
      const dir = path.slice(0, cut + 1);
      const list = dirs.get(dir) ?? [];
      list.push(`${listName(path.slice(cut + 1))} ${counts}`);
      dirs.set(dir, list);
    }
    const result = [...dirs].map(([dir, entries]) => `${dir === '' ? '' : `${dir}: `}${entries.join(', ')}`);
    return makeView('wc', output, lossy(joinLines([...result, ...tail])), null);
  },
};

/** `du`: `SIZE<TAB>path` lines become `path SIZE`, grouped by directory. */
export const duFilter: CommandFilter = {
  name: 'du',
  matches(argv) {
    const inv = invocation(argv);
    return inv !== null && inv.tool === 'du';
  },
  apply(output) {
    const dirs = new Map<string, string[]>();
    for (const line of splitLines(output.stdout)) {
      const m = /^(\S+)\t(.+)$/.exec(line);
      if (m === null) return null;
      const path = m[2] ?? '';
      const cut = path.replace(/\/$/, '').lastIndexOf('/');
      const dir = path.slice(0, cut + 1);
      const list = dirs.get(dir) ?? [];
      list.push(`${listName(path.slice(cut + 1))} ${m[1] ?? ''}`);
      dirs.set(dir, list);
    }
    const result = [...dirs].map(([dir, entries]) => `${dir === '' ? '' : `${dir}: `}${entries.join(', ')}`);
    return makeView('du', output, lossy(joinLines(result)), null);
  },
};
