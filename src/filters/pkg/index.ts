import { invocation } from '../../reduce/argv.ts';
import { cleanTerminalText, foldRuns, groupPathsByDir, joinLines, lossy, makeView, splitLines } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';

const NPM_NOISE = /^npm (?:verbose|http|timing|info|sill|silly)\b|^Progress: resolved \d+, reused \d+, downloaded \d+, added \d+(?:, done)?$|^\++-*$|^\[\d+\/\d+\] [A-Z][a-z]+ (?:packages|dependencies|fresh packages)\.\.\.$/;
/** One deprecation notice per package: npm 7-9 (`npm WARN deprecated`), npm 10+ (`npm warn deprecated`), pnpm
 * (` WARN  deprecated`), yarn 1 (`warning pkg@1: … deprecated`, `warning a > b@1: …`). */
const DEPRECATED = /^(?:npm (?:WARN|warn) deprecated |\s*WARN\s+deprecated |warning (?:\S+ > )*)(\S+@[^\s:]+): (.*)$/;
const FUND_NOISE = /^\d+ packages? (?:is|are) looking for funding$|^\s*run `npm fund` for details$/;
const PIP_NOISE = /^\s*(?:Requirement already satisfied|Collecting|Downloading|Using cached|Obtaining|Preparing metadata|Building wheel|Created wheel|Stored in directory|Installing build dependencies|Getting requirements|Looking in indexes)\b|^\s*[\u2501\u2578\u257a\s]+\d|^\s*\|[\u2588 ]+\|/;

function cleanLines(text: string): string[] {
  return splitLines(cleanTerminalText(text));
}

function noiseView(name: string, output: CommandOutput, noise: RegExp): StreamCandidate | null {
  const filter = (text: string): string => {
    const lines = cleanLines(text);
    // Deprecation notices fold into one line that names every package (their messages stay in the stash); yarn's
    // `warning` lines count only when they say deprecated, other warnings stay where they are.
    const deprecated = lines.flatMap((l) => {
      const m = DEPRECATED.exec(l);
      return m !== null && (!l.startsWith('warning ') || /deprecat|no longer (?:supported|maintained)|not supported|unmaintained/i.test(m[2] ?? '')) ? [m[1] ?? ''] : [];
    });
    const isDeprecation = (l: string): boolean => DEPRECATED.test(l) && deprecated.includes(DEPRECATED.exec(l)?.[1] ?? '');
    const kept = lines.filter((l) => !noise.test(l) && !FUND_NOISE.test(l) && !isDeprecation(l));
    const dropped = lines.length - kept.length - deprecated.length;
    return joinLines([
      ...(deprecated.length > 0 ? [`[${deprecated.length} deprecation warnings: ${deprecated.join(', ')}]`] : []),
      ...foldRuns(kept),
      ...(dropped > 0 ? [`[${dropped} progress lines]`] : []),
    ]);
  };
  return makeView(name, output, lossy(filter(output.stdout)), lossy(filter(output.stderr)));
}

/** `npm ls`: tree drawing goes; each top-level package lists its children on one line. */
function npmLsView(name: string, output: CommandOutput): StreamCandidate | null {
  const result: string[] = [];
  for (const line of splitLines(output.stdout)) {
    const m = /^((?:[\u2502|] |  )*)(?:[\u251c\u2514`+][\u2500-]+[\u252c-]? ?)(.*)$/.exec(line);
    if (m === null) {
      result.push(line);
      continue;
    }
    const depth = (m[1] ?? '').length / 2;
    const item = (m[2] ?? '').trim();
    if (depth === 0) result.push(item);
    else result[result.length - 1] += `${depth === 1 && (result[result.length - 1] ?? '').includes(': ') ? ',' : depth === 1 ? ':' : ' >'} ${item}`;
  }
  return makeView(name, output, lossy(joinLines(result)), null);
}

/** `pip list`: header rows go and columns collapse to `name version`. */
function pipListView(name: string, output: CommandOutput): StreamCandidate | null {
  const lines = splitLines(output.stdout).filter((l) => !/^-+\s+-+/.test(l) && !/^Package\s+Version/.test(l));
  return makeView(name, output, lossy(joinLines(lines.map((l) => l.trim().replace(/\s{2,}/g, ' ')))), null);
}

/** `pip show -f`: metadata kept; the Files list grouped by directory. */
function pipShowView(name: string, output: CommandOutput): StreamCandidate | null {
  const result: string[] = [];
  let files: string[] | null = null;
  const flush = (): void => {
    if (files !== null) result.push(...groupPathsByDir(files));
    files = null;
  };
  for (const line of splitLines(output.stdout)) {
    if (line === 'Files:') {
      result.push(line);
      files = [];
    } else if (files !== null && line.startsWith('  ')) {
      files.push(line.trim());
    } else {
      flush();
      result.push(line);
    }
  }
  flush();
  return makeView(name, output, lossy(joinLines(result)), null);
}

/** npm/pnpm/yarn install and ls, pip install/list/show: progress, fetch and funding noise folded. */
export const pkgFilter: CommandFilter = {
  name: 'pkg',
  matches(argv) {
    const inv = invocation(argv);
    if (inv === null) return false;
    const sub = inv.args.find((a) => !a.startsWith('-')) ?? (inv.tool === 'yarn' ? 'install' : '');
    if (['npm', 'pnpm', 'yarn', 'bun'].includes(inv.tool)) return ['install', 'i', 'ci', 'add', 'ls', 'list', 'update', 'up', 'remove', 'uninstall', 'rm'].includes(sub);
    if (['pip', 'pip3', 'uv'].includes(inv.tool)) return ['install', 'list', 'show', 'uninstall', 'freeze', 'sync', 'add', 'pip'].includes(sub);
    return false;
  },
  apply(output) {
    const inv = invocation(output.argv);
    if (inv === null) return null;
    const sub = inv.args.find((a) => !a.startsWith('-')) ?? '';
    if (['ls', 'list'].includes(sub) && ['npm', 'pnpm', 'yarn'].includes(inv.tool)) return npmLsView('pkg', output);
    if (sub === 'list' && !inv.args.includes('--format=json')) return pipListView('pkg', output);
    if (sub === 'show') return pipShowView('pkg', output);
    return noiseView('pkg', output, ['pip', 'pip3', 'uv'].includes(inv.tool) ? PIP_NOISE : NPM_NOISE);
  },
};
