/**
 * Command lines the differential suites run raw and rewritten (issue 15: at least 300 lines in all). The base list
 * is the one test/e2e/differential.test.ts runs (it imports `BASE_COMMANDS`). The corpus lines are those of the permission
 * differential: every distinct Bash command of the shared Claude Code transcripts, every corpus case's cmd.txt and
 * the hand-written tricky lines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR } from './fixtures.ts';

export const BASE_COMMANDS = [
  'git status',
  'git status --short',
  'git diff',
  'git diff --stat',
  'git diff --cached',
  'git log',
  'git log --oneline',
  'git log -n 2 --stat',
  'git show HEAD',
  'git branch',
  'git branch -a',
  'git stash list',
  'git --no-pager log -n 2',
  'git shortlog HEAD',
  'git grep -n app',
  'git add -A && git commit -q -m snapshot && git log --oneline',
  'git status && git log --oneline -n 2',
  'git status | head -3',
  'git log --oneline > log.txt; cat log.txt',
  'FOO=bar git status',
  'timeout 30 git status',
  'TOKENLESS_DISABLED=1 git status',
  'git status; false',
  'ls',
  'ls -la',
  'ls -R lib',
  'ls nonexistent-dir',
  'find . -name "*.js" -not -path "./.git/*"',
  'find lib -type f',
  'find . -name "*.md" -not -path "./.git/*" | wc -l',
  'du -sh lib',
  'wc -l lib/*.js',
  'grep -rn res.status lib',
  'grep -n function lib/application.js',
  'grep -rl app lib',
  'grep -rn zzz-not-found lib',
  'cat lib/response.js',
  'head -n 40 lib/response.js',
  'tail -n 20 lib/application.js',
  "sed -n '1,60p' lib/response.js",
  'npm test',
  'node --test test/fail.test.mjs',
  'cd lib && ls',
  'export FOO=1; echo "$FOO"',
  'echo hello | cat',
  'cat <<EOF\nheredoc body\nEOF',
  'sudo -n true',
  'mkdir -p out && ls > out/listing.txt && wc -l < out/listing.txt',
] as const;

/** Shapes `tokenless filter` must handle as typed (issue 14): globs, lists, pipelines, redirects, wrappers. */
export const FILTER_SHAPES = [
  'du -sh *',
  'wc -l lib/*.js',
  'wc -l lib/*.js test/*.mjs',
  'grep -c "test(" test/*.mjs',
  'ls lib/*.js',
  'make clean && make',
  'make; make',
  'cd lib && ls',
  'cd lib && ls -la',
  'cd lib && grep -n function application.js',
  'cd . && git log --oneline',
  'mkdir -p out && git status',
  'git add -A && git commit -q -m snap && git log --oneline',
  'git status && git log --oneline -n 2',
  'git status; git diff --stat',
  'find . -type f -not -path "./.git/*" | head',
  'find . -type f -not -path "./.git/*" | sort | head -20',
  'git log | head -20',
  'git log --oneline | grep init',
  'git log | grep -i readme',
  'grep -rn app lib | head -5',
  'grep -rn app lib | wc -l',
  'npm test 2>&1 | tail -5',
  'node --test test/fail.test.mjs 2>&1 | tail -20',
  'git status 2>&1',
  'git status 2>/dev/null',
  'ls -la > listing.txt',
  'ls -la >/dev/null',
  'git diff > changes.patch; git status',
  'git log --oneline 2>&1 | head -3',
  'timeout 30 git log --oneline',
  'nice git status',
  'env LANG=C git status',
  'FOO=1 ls -la',
  'git status && echo done',
  'echo start && git status',
  'ls nonexistent-dir || echo missing',
  'git show HEAD --stat',
  'git diff HEAD~1',
  'git log -n 3',
  'cat package.json',
  'head -5 README.md',
  'tree -L 2',
  'du -sh lib test',
  'wc -l *.md *.json',
  'npm test',
  'node --test test/pass.test.mjs',
  'npm test 2>&1',
  'node --test test/fail.test.mjs 2>&1',
  'make 2>&1 | tail -3',
  'make',
  'make clean',
  'cat lib/response.js | head -100',
  'git log | tail -5',
  'git diff | grep "^+"',
  'grep -rn app lib | sort',
  'ls -la | grep js',
  'cd lib; wc -l *.js',
  'git status >&2',
  'git log -n 3 2>/dev/null | head',
  '(cd lib && ls)',
  'git status &>/dev/null; echo $?',
  'find lib -name "*.js" | xargs wc -l',
  'for f in lib/*.js; do wc -l "$f"; done',
  'ls lib test',
  'grep -rn app lib 2>&1 | head -5',
  'git log --oneline | head -2 | cat',
  'git log --stat > out.txt 2>&1; tail -3 out.txt',
  'git diff --stat HEAD~2 HEAD',
  'git status -s && git diff --stat',
  'git log --oneline -n 1 && git status',
  'git diff HEAD~1 | head -50',
  'git status | grep modified',
  'npm test 2>&1 | grep -E "pass|fail"',
  'git log --oneline | wc -l',
  'ls -la | head -5',
  'cat lib/response.js | grep -n res',
  'git show HEAD | head -40',
  'git diff HEAD~2 | head -30; echo',
  'ls -la; git status',
] as const;

export interface CorpusLine {
  readonly command: string;
  /** `transcript <dir>/<file>`, `corpus <case>` or `hand: <why>` (scripts/make-permission-lines.mjs). */
  readonly from: string;
}

/** Where a transcript line names its session's project root; a test puts its scratch project there. */
export const PROJECT_PLACEHOLDER = '{{PROJECT}}';

/**
 * Every Bash command line of the shared corpus's Claude Code transcripts, every corpus cmd.txt and the hand-written
 * tricky lines: the line list the permission differential uses (test/fixtures/permission-lines.json, one source).
 */
export function corpusLines(): CorpusLine[] {
  return (JSON.parse(readFileSync(join(FIXTURES_DIR, 'permission-lines.json'), 'utf8')) as { lines: CorpusLine[] }).lines;
}

/**
 * Why a line is not run here, or null to run it. Lines that need the network, another machine, root, a daemon, or
 * that would touch files outside the scratch copy say nothing about the rewrite in this sandbox.
 */
const EXCLUSIONS: readonly (readonly [RegExp, string])[] = [
  [/\bsudo\b/, 'needs root'],
  [/\b(kill|pkill|killall)\b/, 'signals processes outside the line'],
  [/\bdocker\b|\bdocker-compose\b|\bpodman\b/, 'needs a container daemon'],
  [/\bgit\s+(push|pull|fetch|clone|ls-remote|remote\s+update)\b/, 'needs the network (git remote)'],
  [/\bgh\s/, 'needs the network (GitHub API)'],
  [/\b(curl|wget|ssh|scp|rsync)\b/, 'needs the network'],
  [/\b(npm|pnpm|yarn|bun)\s+(i|install|add|ci|update|upgrade|view|info|publish|create|dlx|outdated|audit)\b/, 'needs the package registry'],
  [/\bpip3?\s+(install|download)\b|\buv\s+(pip|add|sync)\b/, 'needs the package index'],
  [/\b(npx|pnpx|bunx)\b/, 'npx fetches missing packages from the registry'],
  [/\bgo\s+(build|test|vet|run|get|mod)\b|\bcargo\b|\bcmake\b|\bctest\b/, 'needs a toolchain and project absent from the fixture'],
  [/\b(npm|pnpm|yarn)\s+(run\s+)?(dev|start|serve|watch)\b|\bnext\s+dev\b|--watch\b|\.listen\(/, 'starts a long-running server'],
  [/(^|[\s;&|])sleep\s+([3-9]|\d\d)/, 'sleeps longer than 2 s'],
  [/\brm\s+-[a-zA-Z]*r[a-zA-Z]*\s+\/(?!dev\/null)/, 'removes absolute paths outside the scratch copy'],
  [/(^|[^<>&\d])>{1,2}\|?\s*["']?\/(?!dev\/(null|stdout|stderr))/, 'writes to an absolute path outside the scratch copy'],
  [/\b(mkdir|touch|cp|mv|rm|ln|chmod|tee)\b[^|;&]*\s["']?\/(?!dev\/null)/, 'changes files at absolute paths outside the scratch copy'],
  [/(^|\s)cd\s+["']?\/[^|;&]*&&[^|]*\b(mkdir|touch|cp|mv|rm|ln|chmod|tee|git\s+(add|commit|checkout|reset))\b|(^|\s)cd\s+["']?\/[^|;&]*&&.*(^|[^\d&>])>(?![&>]|\s*\/dev\/null)/, 'changes files after cd to an absolute path'],
  [/\bgit\s+(checkout|switch|rebase|merge|reset|stash\s+(pop|apply|drop))\b[^|;&]*\s\//, 'changes a repository outside the scratch copy'],
  [/(^|[\s;&|(])(open|xdg-open|pbcopy|pbpaste|osascript|say)(\s|$)/, 'desktop tools'],
  [/\/dev\/tcp\//, 'needs the network'],
  [/(^|[\s=:'"])\/tmp(\/|\s|$)/, "reads the machine's shared /tmp, which other processes change between the two runs"],
];

export function exclusionReason(line: string): string | null {
  for (const [pattern, reason] of EXCLUSIONS) if (pattern.test(line)) return reason;
  return null;
}
