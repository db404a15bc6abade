import { describe, expect, it } from 'vitest';
import { explainRewrite } from '../../../src/rewrite/explain.ts';
import { planRewrite } from '../../../src/rewrite/plan.ts';
import type { RewriteOptions } from '../../../src/rewrite/types.ts';

const WRAPPER = "'/opt/syt/cli.js'";
const ENV = { TOKENLESS_AGENT_ID: 'agent-1', TOKENLESS_SESSION_ID: 's 1' };
const E = "TOKENLESS_AGENT_ID=agent-1 TOKENLESS_SESSION_ID='s 1' ";
const W = `${WRAPPER} run -- `;

const FILTERED = new Set(['ls', 'npm', 'npx', 'grep', 'rg', 'head', 'find', 'make', 'docker', 'vitest', 'cat', 'diff', 'tsc']);
// Programs our rules must refuse even though a registry claims them.
const CLAIMED_ANYWAY = new Set(['cd', 'echo', 'sudo', 'tokenless', 'syt', 'nohup', 'exec', 'eval', 'command', 'cli.js']);

/** A stand-in registry: git only with a known subcommand, the rest by program basename. */
function isWrappable(argv: readonly string[]): boolean {
  const program = (argv[0] ?? '').split('/').at(-1) ?? '';
  if (program === 'git') return ['status', 'log', 'diff', 'show'].includes(argv[1] ?? '');
  return FILTERED.has(program) || CLAIMED_ANYWAY.has(program);
}

function options(overrides: Partial<RewriteOptions> = {}): RewriteOptions {
  return { wrapperCommand: WRAPPER, attributionEnv: ENV, isWrappable, exclude: [], resolveNamesInShell: false, ...overrides };
}

const V = (producer: string): string => `${WRAPPER} run --view-as '${producer}' -- `;
const expand = (template: string): string => template.replaceAll('{E}', E).replaceAll('{W}', W).replace(/\{V:([^}]*)\}/g, (_, producer: string) => V(producer));

describe('planRewrite', () => {
  it.each([
    ['git status', '{E}{W}git status', 'wrapped 1 of 1'],
    ['ls -la', '{E}{W}ls -la', 'wrapped'],
    ['cd src && ls', 'cd src && {E}{W}ls', 'wrapped 1 of 2'],
    ['export A=1; npm test', 'export A=1; {E}{W}npm test', 'wrapped'],
    ['source env.sh && npm test', 'source env.sh && {E}{W}npm test', 'wrapped'],
    ['. ./env.sh; make', '. ./env.sh; {E}{W}make', 'wrapped'],
    ['FOO=1 timeout 60 npm test', 'FOO=1 {E}{W}timeout 60 npm test', 'wrapped'],
    ['timeout -s KILL 5 npm test', '{E}{W}timeout -s KILL 5 npm test', 'wrapped'],
    ['timeout --kill-after=5 1.5m npm test', '{E}{W}timeout --kill-after=5 1.5m npm test', 'wrapped'],
    ['nice -n 10 make', '{E}{W}nice -n 10 make', 'wrapped'],
    ['nice make', '{E}{W}nice make', 'wrapped'],
    ['env FOO=1 npm test', '{E}{W}env FOO=1 npm test', 'wrapped'],
    ['timeout 60 nice env A=1 npm test', '{E}{W}timeout 60 nice env A=1 npm test', 'wrapped'],
    ['time npm test', 'time {E}{W}npm test', 'wrapped'],
    ['! git diff --quiet', '! {E}{W}git diff --quiet', 'wrapped'],
    ['git log | head -5', 'git log | {E}{V:git log}head -5', 'wrapped 1 of 2'],
    ['npm test 2>&1 | tail -50', 'npm test 2>&1 | {E}{V:npm test}tail -50', 'wrapped 1 of 2'],
    ["find . -name '*.ts' | grep -v test | sort | head -20", "find . -name '*.ts' | grep -v test | sort | {E}{V:find . -name}head -20", 'wrapped 1 of 4'],
    ['git log | tail -n +3', 'git log | {E}{V:git log}tail -n +3', 'wrapped'],
    ['git log | grep -e fix -i', 'git log | {E}{V:git log}grep -e fix -i', 'wrapped'],
    ['git log | grep -c fix', 'git log | {E}{W}grep -c fix', 'wrapped 1 of 2'],
    ['git log | grep fix lib', 'git log | {E}{W}grep fix lib', 'wrapped 1 of 2'],
    ['git log | head -c 100', 'git log | {E}{W}head -c 100', 'wrapped 1 of 2'],
    ['xdg-open . | head', 'xdg-open . | {E}{W}head', 'wrapped 1 of 2'],
    ['git log | wc -l', null, 'no command can be wrapped'],
    ['git log | sort -o out', null, 'no command can be wrapped'],
    ['time git status | head', 'time git status | {E}{V:git status}head', 'wrapped'],
    ['npm test & git status', 'npm test & {E}{W}git status', 'wrapped 1 of 2'],
    ['git status 2>&1', '{E}{W}git status 2>&1', 'wrapped'],
    ['git status 2>/dev/null', '{E}{W}git status 2>/dev/null', 'wrapped'],
    ['2>&1 git status', '2>&1 {E}{W}git status', 'wrapped'],
    ['grep x < input.txt', '{E}{W}grep x < input.txt', 'wrapped'],
    ['< in.txt grep x', '< in.txt {E}{W}grep x', 'wrapped'],
    ['(cd x; make) && git status', '(cd x; make) && {E}{W}git status', 'wrapped 1 of 2'],
    ['[[ -f x ]] && ls', '[[ -f x ]] && {E}{W}ls', 'wrapped'],
    ['(( n > 1 )) && ls', '(( n > 1 )) && {E}{W}ls', 'wrapped'],
    ['"git" status', '{E}{W}"git" status', 'wrapped'],
    ['g\\it status', '{E}{W}g\\it status', 'wrapped'],
    ['/usr/bin/git status', '{E}{W}/usr/bin/git status', 'wrapped'],
    ['./node_modules/.bin/vitest run', '{E}{W}./node_modules/.bin/vitest run', 'wrapped'],
    ['git log $(git merge-base main HEAD)..HEAD', '{E}{W}git log $(git merge-base main HEAD)..HEAD', 'wrapped'],
    ["git status $'\\n'", "{E}{W}git status $'\\n'", 'wrapped'],
    ['git status # check', '{E}{W}git status # check', 'wrapped'],
    ['git \\\n  status', '{E}{W}git \\\n  status', 'wrapped'],
    ['ls\nnpm test', '{E}{W}ls\n{E}{W}npm test', 'wrapped 2 of 2'],
    ['ls && git status || npm test', '{E}{W}ls && {E}{W}git status || {E}{W}npm test', 'wrapped 3 of 3'],
    ['ls &&\n  git status', '{E}{W}ls &&\n  {E}{W}git status', 'wrapped 2 of 2'],
    ['ls "dir with spaces" && cd "x y"', '{E}{W}ls "dir with spaces" && cd "x y"', 'wrapped 1 of 2'],
    ['ls 日本語/🎉', '{E}{W}ls 日本語/🎉', 'wrapped'],
    ['ls *.ts', '{E}{W}ls *.ts', 'wrapped'],
    ['FOO=1 BAR="a b" npm test', 'FOO=1 BAR="a b" {E}{W}npm test', 'wrapped'],
    ['npx vitest run', '{E}{W}npx vitest run', 'wrapped'],
    ['ls; exit 1', '{E}{W}ls; exit 1', 'wrapped 1 of 2'],
    ['cat <<EOF\nx\nEOF\nls', 'cat <<EOF\nx\nEOF\n{E}{W}ls', 'wrapped 1 of 2'],
    ['cd src', null, "cd changes the shell's own state"],
    ['timeout --foo 5 npm test', null, 'timeout option --foo is not understood'],
    ['timeout 60', null, 'timeout without a command'],
    ['timeout $T npm test', null, 'timeout arguments are not static'],
    ['env -i npm test', null, 'env -i changes the environment'],
    ['env FOO=$X npm test', null, 'env arguments are not static'],
    ['git log | less', null, 'no command can be wrapped'],
    ['git log |& grep x', null, 'no command can be wrapped'],
    ['npm test &', null, 'runs in the background'],
    ['git status > out.txt', null, 'its output is redirected'],
    ['git status >> out.txt', null, 'its output is redirected'],
    ['git status 2>err.txt', null, 'its stderr is redirected'],
    ['git status &>log', null, 'its output is redirected'],
    ['git status >&2', null, 'its output is redirected'],
    ['git status 2>&1 >/dev/null', null, 'its output is redirected'],
    ['git status 3>&1', null, 'redirects file descriptor 3'],
    ['cat <&3', null, 'reads its input in an unusual way'],
    ['cat <<EOF\nx\nEOF', null, 'has a heredoc'],
    ['grep x <<< "$s"', null, 'has a here-string'],
    ['diff <(ls a) <(ls b)', null, 'uses process substitution'],
    ['(cd x && npm test)', null, 'inside a subshell'],
    ['{ git status; }', null, 'inside a { …; } group'],
    ['sudo npm install', null, 'sudo runs with other privileges'],
    ["tokenless retrieve '<<tokenless:0123456789abcdef01234567>>'", null, 'runs tokenless itself'],
    ['syt stats summary', null, 'runs tokenless itself'],
    ['npx tokenless retrieve x', null, 'runs tokenless itself'],
    ["'/opt/syt/cli.js' run -- git status", null, 'already runs through tokenless'],
    ['/opt/syt/cli.js run -- git status', null, 'runs tokenless itself'],
    ['TOKENLESS_DISABLED=1 git status', null, 'TOKENLESS_DISABLED is set'],
    ['TOKENLESS_AGENT_ID=x git status', null, 'sets TOKENLESS_AGENT_ID itself'],
    ['env TOKENLESS_DISABLED=1 git status', null, 'sets TOKENLESS_DISABLED'],
    ['$GIT status', null, 'the program name is not static'],
    ['~/bin/ls', null, 'the program name is not static'],
    ['git $(echo status)', null, 'no filter for git'],
    ['git commit -m "fix: a && b"', null, 'no filter for git commit'],
    ['echo hello', null, 'echo is a shell builtin'],
    ['eval "git status"', null, "eval changes the shell's own state"],
    ['exec git status', null, "exec changes the shell's own state"],
    ['command git status', null, "command changes the shell's own state"],
    ['nohup npm start', null, 'nohup starts a detached job'],
    ['FOO=1', null, 'only sets shell variables'],
    ['a=$(git status)', null, 'only sets shell variables'],
    ['> empty.txt', null, 'only redirects'],
    ['xdg-open .', null, 'no filter for xdg-open'],
    ['if true; then ls; fi', null, 'cannot parse with certainty'],
    ["echo 'unterminated", null, 'cannot parse with certainty'],
    ['for f in *.ts; do cat "$f"; done', null, 'cannot parse with certainty'],
    ['', null, 'empty command'],
    ['   \n', null, 'empty command'],
  ])('plans %j', (command, expected, reason) => {
    const plan = planRewrite(command, options());
    expect(plan.command).toBe(expected === null ? null : expand(expected));
    expect(plan.reason).toContain(reason);
  });

  it.each([
    ['docker ps', ['docker'], null],
    ['/usr/bin/docker ps', ['docker'], null],
    ['git log -5', ['git log'], null],
    ['git status', ['git log'], '{E}{W}git status'],
    ['git $SUB', ['git log'], null],
    ['make && ls', ['  make  '], 'make && {E}{W}ls'],
  ])('honours exclude for %j (%j)', (command, exclude, expected) => {
    const plan = planRewrite(command, options({ exclude }));
    expect(plan.command).toBe(expected === null ? null : expand(expected));
  });

  it.each([
    ['git status', 'case $(command -v git) in /*) {E}{W}git status;; *) git status;; esac'],
    ['cd src && npm test', 'cd src && case $(command -v npm) in /*) {E}{W}npm test;; *) npm test;; esac'],
    ['FOO=1 npm test 2>&1', 'case $(command -v npm) in /*) FOO=1 {E}{W}npm test 2>&1;; *) FOO=1 npm test 2>&1;; esac'],
    ['timeout 60 npm test', 'case $(command -v timeout) in /*) {E}{W}timeout 60 npm test;; *) timeout 60 npm test;; esac'],
    ['npm test | tail -5', 'npm test | case $(command -v tail) in /*) {E}{V:npm test}tail -5;; *) tail -5;; esac'],
    ['ls; git status', 'case $(command -v ls) in /*) {E}{W}ls;; *) ls;; esac; case $(command -v git) in /*) {E}{W}git status;; *) git status;; esac'],
    // A path runs wrapped only when it names an executable file: a missing one shows bash's own error.
    ['./node_modules/.bin/vitest run', 'case $(command -v ./node_modules/.bin/vitest) in */*) {E}{W}./node_modules/.bin/vitest run;; *) ./node_modules/.bin/vitest run;; esac'],
    ['"git" status', 'case $(command -v "git") in /*) {E}{W}"git" status;; *) "git" status;; esac'],
  ])('lets the shell resolve the name of %j', (command, expected) => {
    expect(planRewrite(command, options({ resolveNamesInShell: true })).command).toBe(expand(expected));
  });

  it.each([
    ['git status # check', 'a comment could swallow the name check'],
    ['git status; git log -n $?', 'wrapped 1 of 2'],
  ])('keeps a guarded rewrite safe: %j', (command, reason) => {
    expect(planRewrite(command, options({ resolveNamesInShell: true })).reason).toContain(reason);
  });

  it('reports a reason for every top-level command', () => {
    const plan = planRewrite('cd src && git log | head -3 > out; npm test', options());
    expect(plan.segments.map((s) => [s.source, s.action, s.reason])).toEqual([
      ['cd src', 'keep', "cd changes the shell's own state"],
      ['git log', 'keep', 'its output feeds a pipe'],
      ['head -3 > out', 'keep', 'its output is redirected'],
      ['npm test', 'wrap', 'filtered: npm test'],
    ]);
  });

  it('hands isWrappable the static words after wrappers and env prefixes', () => {
    const seen: string[][] = [];
    planRewrite('A=1 timeout 9 env B=2 git log "$REF" -3', options({ isWrappable: (argv) => (seen.push([...argv]), false) }));
    expect(seen).toEqual([['git', 'log']]);
  });

  it('keeps a command when isWrappable throws', () => {
    const plan = planRewrite('ls', options({ isWrappable: () => { throw new Error('boom'); } }));
    expect(plan.command).toBeNull();
    expect(plan.reason).toContain('filter registry failed');
  });

  it('accepts a wrapper of several quoted words and no attribution', () => {
    const wrapperCommand = "'/usr/bin/node' '/opt/my dir/cli.js'";
    const plan = planRewrite('git status', options({ wrapperCommand, attributionEnv: {} }));
    expect(plan.command).toBe(`${wrapperCommand} run -- git status`);
    expect(planRewrite("'/opt/my dir/cli.js' retrieve x", options({ wrapperCommand })).command).toBeNull();
  });

  it.each([
    [{ wrapperCommand: '$HOME/cli.js' }, 'not static'],
    [{ wrapperCommand: 'a && b' }, 'not a plain command'],
    [{ wrapperCommand: '' }, 'not a plain command'],
    [{ attributionEnv: { 'BAD NAME': 'x' } }, 'invalid attribution variable name'],
  ])('refuses invalid options %j', (override, reason) => {
    const plan = planRewrite('git status', options(override));
    expect(plan.command).toBeNull();
    expect(plan.reason).toContain(reason);
  });

  it('quotes attribution values so they cannot break the line', () => {
    const plan = planRewrite('ls', options({ attributionEnv: { TOKENLESS_TOOL_USE_ID: "x'; rm -rf / #" } }));
    expect(plan.command).toBe(`TOKENLESS_TOOL_USE_ID='x'\\''; rm -rf / #' ${W}ls`);
  });

  it('lists its insertions in ascending order of original offsets', () => {
    const plan = planRewrite('FOO=1 timeout 5 ls; ls', options());
    expect(plan.insertions.map((i) => i.offset)).toEqual([6, 20]);
  });
});

describe('explainRewrite', () => {
  it('prints the outcome and one entry per command', () => {
    const text = explainRewrite(planRewrite('cd src && ls', options()));
    expect(text.split('\n')).toEqual([
      `rewritten: cd src && ${E}${W}ls`,
      'reason: wrapped 1 of 2 commands',
      'commands:',
      '  keep  cd src',
      "        cd changes the shell's own state",
      '  wrap  ls',
      '        filtered: ls',
    ]);
  });

  it('says when the command runs as typed', () => {
    expect(explainRewrite(planRewrite('if x; then y; fi', options()))).toMatch(/^unchanged: the command runs as typed\nreason: cannot parse/);
  });
});

describe('planRewrite: lines that print their own command text pass through (issue 30 item 14)', () => {
  it.each([
    "trap 'echo $BASH_COMMAND' ERR; git status",
    'trap "echo failed" DEBUG; ls',
    'set -x; git status',
    'set -euxo pipefail; ls',
    'set -o xtrace; ls',
    'set -v; ls',
    'set -vx; ls',
    'builtin set -x; ls',
    'shopt -so xtrace; ls',
    "trap 'echo bye' EXIT; ls",
    'echo "$BASH_COMMAND"; git status',
    'git status; echo ${SHELLOPTS}',
    'BASH_XTRACEFD=3 git status',
    'git log > "$BASHOPTS.txt"',
    '[[ $SHELLOPTS == *xtrace* ]] && git status',
    'declare -p BASH_COMMAND; ls',
  ])('%s', (line) => {
    expect(planRewrite(line, options()).command).toBeNull();
  });
  it('set -e and a variable that only starts like one still wrap', () => {
    expect(planRewrite('set -e; ls', options()).command).not.toBeNull();
    expect(planRewrite('echo $SHELLOPTS_X; ls', options()).command).not.toBeNull();
  });
});
