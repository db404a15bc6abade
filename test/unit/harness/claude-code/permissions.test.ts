import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideBashPermission, strictMatch, type PermissionRules } from '../../../../src/harness/claude-code/permissions.ts';
import { isReadOnlyAutoAllowed } from '../../../../src/permissions/read-only.ts';
import { loadPermissionRules } from '../../../../src/harness/claude-code/settings.ts';

const PROJECT = '/home/u/project';
const rules = (partial: Partial<PermissionRules> = {}): PermissionRules => ({ allow: [], deny: [], ask: [], ...partial });
const decide = (command: string, partial: Partial<PermissionRules> = {}, mode: string | undefined = 'default') =>
  decideBashPermission(command, { rules: rules(partial), mode, projectDir: PROJECT, unknownRules: null }).verdict;

describe('decideBashPermission', () => {
  it.each([
    ['git log -1', { deny: ['Bash(git log:*)'] }, 'bypassPermissions', 'deny'],
    ['git status && git log', { deny: ['Bash(git log:*)'] }, 'bypassPermissions', 'deny'],
    ['FOO=1 git log', { deny: ['Bash(git log:*)'] }, 'default', 'deny'],
    ['git status', { deny: ['Bash'] }, 'bypassPermissions', 'deny'],
    ['git status', { deny: ['Bash(*)'] }, 'bypassPermissions', 'deny'],
    ['git push origin main', { deny: ['Bash(git push)'] }, 'bypassPermissions', 'deny'],
    ['npm test', { ask: ['Bash(npm test:*)'] }, 'bypassPermissions', 'ask'],
    ['git status', {}, 'bypassPermissions', 'allow'],
    ['npm test', {}, 'default', 'asks'],
    ['cd sub && npm test', {}, 'default', 'asks'],
    ['timeout 60 npx vitest run', {}, 'default', 'asks'],
    ['npm test', { allow: ['Bash(npm run lint:*)'] }, 'default', 'asks'],
    ['npm test', { allow: ['Bash(npm *)'] }, 'default', 'allow'],
    ['npm testing', { allow: ['Bash(npm t*)'] }, 'default', 'allow'],
    ['npm --version', {}, 'default', 'prompt'],
    ['npm view zod --json', {}, 'default', 'prompt'],
    ['go version', {}, 'default', 'prompt'],
    ['make', {}, 'default', 'asks'],
    ['cargo test -- --nocapture', {}, 'default', 'asks'],
    ['pytest --help', {}, 'default', 'prompt'],
    ['python -m pytest -v', {}, 'default', 'asks'],
    ['node -v', {}, 'default', 'prompt'],
    ['pnpm --filter api test 2>&1 | tail -30', {}, 'default', 'asks'],
    ['pip install -r requirements.txt', {}, 'default', 'asks'],
    ['git add -A && git commit -m x', {}, 'default', 'asks'],
    ['git push -u origin main', {}, 'default', 'asks'],
    ['git -C sub commit -m x', {}, 'default', 'asks'],
    ['git branch -a', {}, 'default', 'prompt'],
    ['git stash list', {}, 'default', 'prompt'],
    ['git commit -m "$(cat <<\'EOF\'\nfix: x\nEOF\n)"', {}, 'default', 'asks'],
    ['echo $(git log)', {}, 'default', 'prompt'],
    ['git tag', {}, 'default', 'prompt'],
    ['npm test', { allow: ['Bash(npm test:*)'] }, 'default', 'allow'],
    ['npm test -- --watch', { allow: ['Bash(npm test:*)'] }, 'default', 'allow'],
    ['npm testing', { allow: ['Bash(npm test:*)'] }, 'default', 'prompt'],
    ['npm test && rm -rf x', { allow: ['Bash(npm test:*)'] }, 'default', 'prompt'],
    ['npm test > out.txt', { allow: ['Bash(npm test:*)'] }, 'default', 'prompt'],
    ['curl -s http://x', {}, 'acceptEdits', 'prompt'],
    ['git status', {}, 'default', 'allow'],
    ['git status && ls -la', {}, 'default', 'allow'],
    ['grep -rn TODO src', {}, undefined, 'allow'],
    ['cat /etc/passwd', {}, 'default', 'prompt'],
    ['find . -name x -delete', {}, 'default', 'prompt'],
    ['git diff --output=x', {}, 'default', 'prompt'],
    ['wc --files0-from=/etc/passwd', {}, 'default', 'prompt'],
    ['wc -l src/a.ts && grep -f /etc/passwd src', {}, 'default', 'prompt'],
    ['wc -l src/a.ts | head -3', {}, 'default', 'allow'],
    ['echo $(git log)', { deny: ['Bash(rm:*)'] }, 'bypassPermissions', 'unknown'],
    ['echo "unterminated', {}, 'bypassPermissions', 'unknown'],
  ])('%s with %j in %s mode: %s', (command, partial, mode, verdict) => {
    expect(decide(command, partial, mode)).toBe(verdict);
  });

  it('knows nothing when a settings file could not be read', () => {
    expect(decideBashPermission('git status', { rules: rules(), mode: 'bypassPermissions', projectDir: PROJECT, unknownRules: 'x: not valid JSON' }).verdict).toBe('unknown');
  });

  it('ignores rules for other tools', () => {
    expect(decide('git status', { deny: ['Read(./secret)', 'WebFetch'] }, 'bypassPermissions')).toBe('allow');
  });
});

describe('strictMatch (allow rules)', () => {
  it.each([
    ['Bash(git status)', 'git status', true],
    ['Bash(git status)', 'git status --short', false],
    ['Bash(git status:*)', 'git status --short', true],
    ['Bash(git *)', 'git diff', true],
    ['Bash', 'anything', true],
    ['Read', 'git status', false],
  ])('%s on %s: %s', (rule, text, expected) => {
    expect(strictMatch(rule, text)).toBe(expected);
  });
});

describe('isReadOnlyAutoAllowed', () => {
  it.each([
    [['git', 'status'], true],
    [['git', '-c', 'core.pager=x', 'log'], false],
    [['ls', '-la', 'src'], true],
    [['ls', '../other'], false],
    [['grep', '-rn', '/etc', '.'], true],
    [['grep', '-rn', 'x', '/etc'], false],
    [['tail', '-f', 'log'], false],
    [['rg', '--pre', 'sh', 'x'], false],
    [['npm', 'test'], false],
    // Option arguments that name files are checked like operands (issue 15, item 8).
    [['wc', '--files0-from=/etc/passwd'], false],
    [['wc', '--files0-from', '/etc/passwd'], false],
    [['wc', '--files0-from=list.txt'], false], // the list names further files no check can see
    [['wc', '--files0=/etc/passwd'], false], // getopt accepts unique prefixes of long options
    [['wc', '--fil=/etc/passwd'], false],
    [['wc', '-l', 'src/a.ts'], true],
    [['wc', '-c', 'README.md'], true],
    [['wc', '-lw', '/etc/passwd'], false],
    [['wc', '--total=never', 'a', 'b'], true],
    [['grep', '-f', '/etc/passwd', 'src'], false],
    [['grep', '-f/etc/passwd', 'src'], false],
    [['grep', '--file=/etc/passwd', 'src'], false],
    [['grep', '--file', '/etc/passwd', 'src'], false],
    [['grep', '-f', 'patterns.txt', 'src'], true],
    [['grep', '-f', 'patterns.txt', '/etc'], false], // with -f every operand is a path
    [['grep', '-e', 'x', '/etc/passwd'], false],
    [['grep', '-e', '/etc/passwd', 'src'], true], // a pattern, not a file
    [['grep', '--exclude-from=/etc/shadow', '-r', 'x', '.'], false],
    [['grep', '--exclude-from=.gitignore', '-r', 'x', '.'], true],
    [['grep', '-rnA3', 'x', 'src'], true],
    [['grep', '-A', '3', 'x', 'src'], true],
    [['grep', '-5', 'x', 'src'], true],
    [['grep', '--color', 'x', '/etc/passwd'], false], // --color takes its value only attached: /etc/passwd is a path
    [['grep', '--color=auto', 'x', 'src'], true],
    [['grep', '-rn', 'x', 'src', '--', '/etc/passwd'], false],
    [['grep', '-P', 'x', 'src', '--devices=read'], false],
    [['grep', '-r', 'x'], true],
    [['cat', '-n', 'src/a.ts'], true],
    [['cat', '--', '-n'], true],
    [['cat', '/etc/passwd'], false],
    [['cat', '--show-all', '../x'], false],
    [['cat', '--unknown', 'a'], false],
    [['head', '-n', '5', 'a'], true],
    [['head', '-5', 'a'], true],
    [['head', '-c1K', 'a'], true],
    [['head', '--lines=5', '/etc/passwd'], false],
    [['tail', '-n', '+5', 'a'], true],
    [['tail', '-5f', 'a'], false],
    [['tail', '-F', 'a'], false],
    [['tail', '--follow=name', 'a'], false],
    [['tail', '--pid=1', 'a'], false],
    [['ls', '-la', '--color=auto', 'src'], true],
    [['ls', '-I', '/etc', 'src'], true],
    [['ls', '--color', '/etc'], false],
    [['ls', '--hyperlink', '/etc'], false],
    [['ls', '-R'], true],
    [['ls', '~'], false],
    [['ls', '*.ts'], false],
    [['pwd'], true],
    [['pwd', '-P'], true],
    [['pwd', 'x'], false],
    [['find', '.', '-name', '*.ts'], true],
    [['find', 'src', '-type', 'f', '-newer', 'package.json', '-print0'], true],
    [['find', '.', '-newer', '/etc/passwd'], false],
    [['find', '.', '-newermt', '2024-01-01'], true],
    [['find', '.', '-neweram', '/etc/passwd'], false],
    [['find', '.', '-exec', 'cat', '{}', ';'], false],
    [['find', '.', '-execdir', 'sh', '-c', 'x', ';'], false],
    [['find', '.', '-ok', 'rm', '{}', ';'], false],
    [['find', '.', '-delete'], false],
    [['find', '.', '-fprint', 'out'], false],
    [['find', '.', '-fprint0', 'out'], false],
    [['find', '.', '-fprintf', 'out', '%p'], false],
    [['find', '.', '-fls', 'out'], false],
    [['find', '-files0-from', 'list'], false],
    [['find', '/etc', '-name', 'x'], false],
    [['find', '-L', '.', '(', '-name', 'a', '-o', '-name', 'b', ')', '-prune'], true],
    [['find', '.', '-name', '-exec'], true], // -exec is the value of -name here
    [['find', '.', '-maxdepth'], false],
    [['find', '.', '-printf', '%p\n'], true],
    [['git', 'status', '--short'], true],
    [['git', 'status', '-sb'], true],
    [['git', 'status', '--porcelain=v2'], true],
    [['git', 'status', '/etc'], false],
    [['git', 'log', '--oneline', '-5'], true],
    [['git', 'log', '-n', '5', '--stat'], true],
    // The real client asks about `git log --format=%B -n1` (permission differential): --format is refused.
    [['git', 'log', '--format=%H %s', 'main..HEAD', '--', 'src'], false],
    [['git', 'log', '--oneline', 'main..HEAD', '--', 'src'], true],
    [['git', 'log', '--output=/tmp/x'], false],
    [['git', 'log', '--ext-diff', '-p'], false],
    [['git', 'log', '--out=/tmp/x'], false],
    [['git', 'diff', '--output=x'], false],
    [['git', 'diff', '--no-index', '/etc/passwd', 'a'], false],
    [['git', 'diff', '--no-index', 'a', 'b'], false],
    [['git', 'diff', '-O/etc/passwd'], false],
    [['git', 'diff', '--textconv'], false],
    [['git', 'diff', '--cached', '--stat'], true],
    [['git', 'diff', '-U5', 'HEAD~1'], true],
    [['git', 'diff', '--unified', '/etc/passwd'], false], // --unified's value is optional: the next word is a path
    [['git', 'show', 'HEAD:src/a.ts'], true],
    [['git', 'show', '--stat', 'HEAD'], true],
    [['git', '-C', '/etc', 'status'], false],
    [['git', '-c', 'core.pager=sh', 'log'], false],
    [['git', '--git-dir=/x', 'log'], false],
    [['git', 'config', '--list'], false],
    [['git', 'constructor'], false],
    [['git'], false],
    [['constructor'], false],
    [['__proto__', 'x'], false],
    [['xargs', 'cat'], false],
    [['sort', '-o', 'x'], false],
    [['sed', '-i', 's/a/b/', 'x'], false],
    [['tree', '-o', 'x'], false],
    [['diff', '--from-file=/etc/passwd', 'a'], false],
  ])('%j: %s', (argv, expected) => {
    expect(isReadOnlyAutoAllowed(argv, PROJECT)).toBe(expected);
  });

  it('resolves relative paths against the shell working directory, which must be inside the project', () => {
    expect(isReadOnlyAutoAllowed(['cat', 'a.ts'], PROJECT, `${PROJECT}/src`)).toBe(true);
    expect(isReadOnlyAutoAllowed(['cat', '../../x'], PROJECT, `${PROJECT}/src`)).toBe(false);
    expect(isReadOnlyAutoAllowed(['cat', 'passwd'], PROJECT, '/etc')).toBe(false);
    expect(isReadOnlyAutoAllowed(['ls'], PROJECT, '/etc')).toBe(false);
    expect(decideBashPermission('ls -la', { rules: rules(), mode: 'default', projectDir: PROJECT, cwd: '/etc', unknownRules: null }).verdict).toBe('prompt');
  });
});

describe('loadPermissionRules', () => {
  const files: Record<string, string> = {
    '/u.json': '{"permissions":{"allow":["Bash(npm test:*)"]}}',
    '/p.json': '{"permissions":{"deny":["Bash(git push:*)"],"ask":["Bash(rm:*)"]},"hooks":{}}',
    '/bad.json': '// comment\n{}',
  };
  const read = (path: string): string | null => files[path] ?? null;

  it('merges allow, deny and ask from every file and skips missing ones', () => {
    expect(loadPermissionRules(['/missing.json', '/u.json', '/p.json'], read)).toEqual({
      rules: { allow: ['Bash(npm test:*)'], deny: ['Bash(git push:*)'], ask: ['Bash(rm:*)'] },
      unknown: null,
    });
  });

  it('marks the rules unknown when a file is not valid JSON', () => {
    expect(loadPermissionRules(['/u.json', '/bad.json'], read).unknown).toMatch(/bad\.json: not valid JSON/);
  });
});

/**
 * Widening found by the differential against the real client (test/e2e/claude-code-permissions-real.test.ts,
 * KNOWN_WIDENING): Claude Code 2.1.332 asks about these lines in default mode with empty settings (its reason in
 * the title), and we answered allow. Each was an it.fails until read-only.ts / permissions.ts learnt it.
 */
describe('lines the real client asks about (differential findings)', () => {
  for (const [command, reason] of [
    ['git status -u', 'This command requires approval'],
    ['git status -uall', 'This command requires approval'],
    ['git diff -O/etc/passwd', 'This command requires approval'],
    ['git log -L1,2:/etc/passwd', 'This command requires approval'],
    ['git log --format=%B -n1', 'This command requires approval'],
    ['time ls', 'This command requires approval'],
    ['grep --exclude-from=/etc/passwd x .', "grep in '/etc/passwd' was blocked"],
    ['cat src/../README.md', "Path contains '..' traversal after a directory segment"],
  ] as const) {
    it(`${command}: "${reason}"`, () => {
      expect(decide(command)).toBe('prompt');
    });
  }

  describe('paths through a symlink inside the project to /etc', () => {
    let project = '';
    beforeAll(() => {
      project = mkdtempSync(join(tmpdir(), 'tokenless-permissions-'));
      symlinkSync('/etc', join(project, 'link-out'));
      symlinkSync('/etc/hosts', join(project, 'link-hosts'));
    });
    afterAll(() => rmSync(project, { recursive: true, force: true }));
    const verdict = (command: string): string => decideBashPermission(command, { rules: rules(), mode: 'default', projectDir: project, unknownRules: null }).verdict;

    for (const command of ['ls link-out', 'ls -L link-out', 'cat link-out/hosts', 'cat link-hosts', 'grep -r root link-out', 'wc -l link-out/passwd', 'tail -n 1 link-out/passwd']) {
      it(`${command}: "… in '/etc…' was blocked"`, () => {
        expect(verdict(command)).toBe('prompt');
      });
    }
  });
});
