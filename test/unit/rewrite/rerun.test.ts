import { describe, expect, it } from 'vitest';
import { identityOfArgv, identityOfLine, matchRerun, producers, type RecentView } from '../../../src/rewrite/rerun.ts';

const view = (argv: string[], at: number, key = 'k1'): RecentView => ({ key, kind: 'git-log', at, ...identityOfArgv(argv) });

describe('re-run identity', () => {
  it('keeps only the producer of each pipeline and splits lists', () => {
    expect(producers('cd app && npm test 2>&1 | tail -50; git status')).toEqual([['cd', 'app'], ['npm', 'test', '2>&1'], ['git', 'status']]);
    expect(producers("grep -n 'a | b' src/x.ts")).toEqual([['grep', '-n', 'a | b', 'src/x.ts']]);
  });

  it('gives a limiter variant the identity of the plain line', () => {
    const plain = identityOfArgv(['git', 'log', '-5']).identity;
    for (const line of ['git log -5', 'git --no-pager log -5', 'git log -5 | head -100', 'FORCE_COLOR=0 git log -5 --verbose > /tmp/out', 'git log -5 -v 2>/dev/null']) {
      expect(identityOfLine(line).identities, line).toContain(plain);
    }
    expect(identityOfLine('git log -6').identities).not.toContain(plain);
  });

  it('matches a re-run inside the window, the newest view first, and a cat of a file the view named', () => {
    const views = [view(['npm', 'test'], 1_000, 'a'), view(['grep', '-rn', 'TODO', 'src/app.ts'], 2_000, 'b')];
    expect(matchRerun(identityOfLine('npm test | head -200'), views, 3_000, 60_000)).toMatchObject({ view: { key: 'a' }, how: 'same_line' });
    expect(matchRerun(identityOfLine('cat src/app.ts'), views, 3_000, 60_000)).toMatchObject({ view: { key: 'b' }, how: 'file_read' });
    expect(matchRerun(identityOfLine('sed -n 1,80p src/app.ts'), views, 3_000, 60_000)).toMatchObject({ how: 'file_read' });
    expect(matchRerun(identityOfLine('npm test'), views, 1_000 + 60_001, 60_000)).toBeNull();
    expect(matchRerun(identityOfLine('npm run build'), views, 3_000, 60_000)).toBeNull();
  });
});
