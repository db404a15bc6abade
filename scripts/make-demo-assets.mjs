// Regenerates assets/demo/cases.json: a few real corpus cases bundled into the CLI for `syt demo`.
// Sources and licenses: test/fixtures/README.md and test/fixtures/corpus-commands/SOURCES.md.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = join(root, 'test/fixtures/corpus-commands/cases');
const ids = [
  'git-status-express',
  'test-npm-test-pass-express',
  'test-vitest-run-fail-path-to-regexp',
  'build-tsc-noemit-errors-path-to-regexp',
  'search-rg-n-express',
  'fs-ls-la-express',
  'data-npm-view-express-json',
];
const read = (dir, name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');
const cases = ids.map((id) => {
  const dir = join(casesDir, id);
  const meta = JSON.parse(read(dir, 'meta.json'));
  return {
    id,
    kind: 'command',
    command: read(dir, 'cmd.txt').trim(),
    stdout: read(dir, 'stdout.txt'),
    stderr: read(dir, 'stderr.txt'),
    exitCode: Number(read(dir, 'exit_code').trim() || '0'),
    source: `${meta.repo}@${String(meta.commit ?? "npm registry").slice(0, 12)} (shared corpus, ${meta.category})`,
  };
});
const grep = JSON.parse(readFileSync(join(root, 'test/fixtures/claude-code-hook-samples/PostToolUse__Grep.json'), 'utf8'));
cases.push({
  id: 'claude-code-grep-content',
  kind: 'post_tool',
  command: `Grep ${JSON.stringify(grep.tool_input)}`,
  stdout: grep.tool_response.content,
  stderr: '',
  exitCode: 0,
  source: 'real Claude Code 2.1.332 PostToolUse hook input (claude-code-lab)',
});
// A large real listing through the post_tool path, as Claude Code's Grep tool would return it (content mode).
const listing = readFileSync(join(casesDir, 'search-grep-rn-many-hits-express', 'stdout.txt'), 'utf8');
cases.push({
  id: 'grep-tool-many-hits',
  kind: 'post_tool',
  command: 'Grep (content mode) over express: the hits of grep -rn',
  stdout: listing,
  stderr: '',
  exitCode: 0,
  source: 'expressjs/express grep -rn output (shared corpus), passed as a Grep api_response',
});
writeFileSync(join(root, 'assets/demo/cases.json'), `${JSON.stringify({ cases }, null, 1)}\n`);
console.log(`wrote ${cases.length} cases`);
