// Writes test/fixtures/permission-lines.json, the command lines of the permission differential against the real
// Claude Code client (test/e2e/claude-code-permissions-real.test.ts): every Bash command of the real transcripts in
// the shared corpus, every corpus command line, and the hand-written tricky lines below, deduplicated, each with
// where it came from. Run it again only when the corpus grows:
//
//   node scripts/make-permission-lines.mjs [--corpus DIR]     (default: ../shared/corpus beside the repository)
//
// Transcript lines keep their meaning relative to their project: the session's project root (the longest directory
// every cwd of the session lies in) becomes {{PROJECT}}, which the test replaces with its scratch project.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--corpus');
const corpus = at > 0 ? process.argv[at + 1] : join(root, '..', 'shared', 'corpus');
if (corpus === undefined || !existsSync(join(corpus, 'transcripts'))) {
  console.error(`make-permission-lines: no corpus at ${corpus}; pass --corpus DIR`);
  process.exit(1);
}

/**
 * Hand-written lines: what a permission check gets wrong first. `alone`: may change the project or the shell's cwd.
 * None may run for ever: in -p the client moves a call past its timeout to the background and waits for it.
 */
const HAND = [
  // Read-only programs whose options name files to read, write or run.
  ['wc --files0-from=/etc/passwd', 'read option names a file outside the project'],
  ['wc --files0-from /etc/passwd', 'read option names a file outside the project'],
  ['wc --files0-from=files.txt', 'read option names a file inside the project'],
  ['grep -f /etc/shadow x', 'pattern file outside the project'],
  ['grep --file=/etc/passwd README.md', 'pattern file outside the project'],
  ['grep -f patterns.txt README.md', 'pattern file inside the project'],
  ['grep root /etc/passwd', 'path outside the project'],
  ['grep -rn TODO ~', 'home directory'],
  ['sort -o out.txt README.md', 'writes a file'],
  ['sort --output=sorted.txt README.md', 'writes a file'],
  ['sort README.md', 'plain read'],
  ['find . -exec cat {} \\;', 'runs a program'],
  ['find . -execdir ls \\;', 'runs a program'],
  ['find . -ok rm {} \\;', 'runs a program'],
  ['find . -fprint found.txt', 'writes a file'],
  ['find . -newer README.md', 'reads metadata only'],
  ['find . -name "*.ts"', 'glob as an argument'],
  ['find . -type f -name "*.md" | head', 'pipe'],
  ['git -c core.pager=cat log', 'git config on the command line'],
  ["git -c core.pager='sh -c id' log", 'pager runs a program'],
  ["git -c alias.x='!id' x", 'alias runs a program'],
  ['git log --output=log.txt', 'writes a file'],
  ['git diff --output=diff.txt', 'writes a file'],
  ['git diff --ext-diff', 'external diff program'],
  ['git log -p --textconv', 'textconv program'],
  ['git -C .. status', 'repository outside the project'],
  ['git -C /etc status', 'repository outside the project'],
  ['git --git-dir=/tmp/nowhere log', 'repository outside the project'],
  ['git show HEAD:README.md', 'read-only git'],
  ['git grep -n TODO', 'read-only git'],
  ['git grep --open-files-in-pager=cat TODO', 'pager runs a program'],
  ['git status --porcelain', 'read-only git'],
  ['git diff HEAD~1', 'read-only git'],
  ['git branch', 'read-only git'],
  ['git remote -v', 'read-only git'],
  ['git config --get user.name', 'read-only git'],
  ['git config user.name someone', 'writes git config'],
  ['git tag', 'read-only git'],
  ['git stash list', 'read-only git'],
  ['rg --pre cat TODO', 'preprocessor runs a program'],
  ['rg --pre=./pre.sh TODO', 'preprocessor runs a program'],
  ['rg -z TODO', 'decompressors run programs'],
  ['rg --files', 'listing'],
  ['rg TODO /etc', 'path outside the project'],
  ['rg -n TODO src', 'read inside the project'],
  ["sed -n '1p' README.md", 'read-only sed'],
  ["sed -n 'w copy.txt' README.md", 'sed script writes a file'],
  ["sed -n '1e id' README.md", 'sed script runs a program'],
  ["awk '{print}' README.md", 'read-only awk'],
  ["awk 'BEGIN{system(\"id\")}'", 'awk runs a program'],
  ['head -c 100 /etc/passwd', 'path outside the project'],
  ['tail -n 5 README.md', 'plain read'],
  ['diff README.md /etc/hosts', 'path outside the project'],
  ['file README.md', 'plain read'],
  ['stat README.md', 'plain read'],
  ['du -sh .', 'plain read'],
  ['tree -o tree.txt', 'writes a file'],
  ['jq .name package.json', 'plain read'],
  ["jq -n --rawfile x /etc/passwd '$x'", 'read option names a file outside the project'],
  ['xargs cat < files.txt', 'runs a program'],
  ['git diff -O/etc/passwd', 'orderfile option names a file outside the project'],
  ['git log -L1,2:/etc/passwd', 'line-range option names a file outside the project'],
  ['git --no-pager log -1', 'git global option'],
  ['git status -uall', 'untracked-files mode'],
  ['git status --ignored', 'read-only git'],
  ['git log --format=%B -n1', 'read-only git'],
  ['git diff HEAD -- src/a.ts', 'read-only git with a pathspec'],
  ["git log --all -- '*.ts'", 'read-only git with a glob pathspec'],
  ['git status &', 'background job'],
  ['grep --exclude-from=/etc/passwd x .', 'option names a file outside the project'],
  ['grep -R root .', 'recursion follows the symlink to /etc'],
  ['grep -r root link-out', 'path through a symlink to /etc'],
  ['find -L . -name hosts', 'find follows the symlink to /etc'],
  ['find . -follow -name hosts', 'find follows the symlink to /etc'],
  ['ls -L link-out', 'path through a symlink to /etc'],
  ['cat link-hosts', 'symlink to a file outside the project'],
  ['wc -l link-out/passwd', 'path through a symlink to /etc'],
  ['tail -n 1 link-out/passwd', 'path through a symlink to /etc'],
  ['cat .env', 'secrets file inside the project'],
  ['ls ../work', 'path that leaves and re-enters the project'],
  ['cat src/../README.md', 'dot-dot inside the project'],
  ['cat .claude/settings.json', 'client settings inside the project'],
  ['ls -la .git', 'git directory'],
  ['pwd -P', 'plain read'],
  ['ls -- /etc', 'end of options, path outside'],
  ['head --lines=3 README.md', 'plain read'],
  ['ls # comment', 'comment'],
  ['ls\nrm x', 'newline-separated second command', true],
  ['cat <<EOF\nhi\nEOF', 'here-document'],
  // Paths outside the project, and ways of spelling them.
  ['cat /etc/hosts', 'path outside the project'],
  ['ls ..', 'parent directory'],
  ['ls -la ..', 'parent directory'],
  ['ls ~', 'home directory'],
  ['ls /', 'root directory'],
  ['cat ../README.md', 'parent directory'],
  ['cat ~/.bashrc', 'home directory'],
  ['head /etc/passwd', 'path outside the project'],
  ['find / -maxdepth 1', 'path outside the project'],
  ['find .. -maxdepth 1', 'parent directory'],
  ['ls src/../..', 'climbs out of the project'],
  ['cat "$HOME/.profile"', 'variable names a path outside'],
  ['ls link-out', 'symlink inside the project pointing outside'],
  ['cat link-out/hosts', 'symlink inside the project pointing outside'],
  ['ls {{PROJECT}}/src', 'absolute path inside the project'],
  ['cat {{PROJECT}}/README.md', 'absolute path inside the project'],
  // Compounds.
  ['cd sub && ls', 'cd inside the project', true],
  ['cd /tmp && ls', 'cd outside the project', true],
  ['cd .. && ls', 'cd outside the project', true],
  ['cd ~ && ls', 'cd outside the project', true],
  ['cd src && cat a.ts', 'cd inside the project', true],
  ['cd sub; ls', 'cd inside the project', true],
  ['cd src && git status', 'cd inside the project', true],
  ['cd {{PROJECT}}/src && ls', 'cd to an absolute path inside the project', true],
  ['pushd sub && ls', 'pushd inside the project', true],
  ['ls; rm x', 'second command writes', true],
  ['ls && rm -f nothing.txt', 'second command writes', true],
  ['ls || echo failed', 'or-list'],
  ['false || ls', 'or-list'],
  ['git status && git diff', 'and-list of reads'],
  ['ls | wc -l; echo done', 'list with a pipe'],
  ['(ls)', 'subshell'],
  ['{ ls; }', 'group'],
  ['echo hi', 'echo'],
  ['echo $HOME', 'echo a variable'],
  ["printf '%s\\n' a b", 'printf'],
  // Globs.
  ['ls *.ts', 'glob'],
  ['ls *.md', 'glob'],
  ['cat src/*', 'glob'],
  ['ls src/*.ts', 'glob'],
  ['wc -l src/*.ts', 'glob'],
  ['grep -n TODO src/*.ts', 'glob'],
  ['ls ../*', 'glob outside the project'],
  ['cat /etc/host*', 'glob outside the project'],
  ['ls {a,b}.txt', 'brace expansion'],
  ['cat ?EADME.md', 'glob'],
  ['ls [ab]*', 'glob'],
  // Redirects.
  ['ls > out', 'output redirect'],
  ['ls >> out', 'appending redirect'],
  ['ls 2> err.txt', 'stderr redirect to a file'],
  ['ls &> both.txt', 'both streams to a file'],
  ['git status 2>&1', 'merge streams'],
  ['cat x 2>/dev/null', 'stderr to /dev/null'],
  ['ls > /dev/null', 'stdout to /dev/null'],
  ['cat < README.md', 'input redirect'],
  ['cat README.md 1>&2', 'stdout to stderr'],
  ['echo hi > ../outside.txt', 'redirect outside the project'],
  ['ls 2>&1 | head', 'merge then pipe'],
  // Pipes.
  ['find . | head', 'pipe'],
  ['git log | grep x', 'pipe'],
  ['ls | sort', 'pipe'],
  ['cat README.md | wc -l', 'pipe'],
  ['ls | xargs cat', 'pipe into xargs'],
  ['git diff | tee diff.out', 'pipe into a writer'],
  ['echo id | sh', 'pipe into a shell'],
  ['find . -type f | sort | uniq -c', 'long pipe'],
  ['git log --oneline | head -5', 'pipe'],
  // Substitutions.
  ['echo $(ls)', 'command substitution'],
  ['cat $(echo README.md)', 'command substitution'],
  ['ls $(pwd)', 'command substitution'],
  ['echo `id`', 'backticks'],
  ['cat <(ls)', 'process substitution'],
  ['diff <(ls) <(ls src)', 'process substitution'],
  ['echo "$(whoami)"', 'quoted substitution'],
  // Environment prefixes.
  ['FOO=1 ls', 'env prefix'],
  ['LC_ALL=C sort README.md', 'env prefix'],
  ['GIT_PAGER=cat git log', 'env prefix'],
  ["PAGER='sh -c id' git log", 'env prefix runs a program'],
  ['GIT_EXTERNAL_DIFF=id git diff', 'env prefix runs a program'],
  ['NODE_OPTIONS=--require=./side.js npm test', 'env prefix runs a program'],
  ['env ls', 'env runner'],
  ['PATH=/tmp ls', 'env prefix changes PATH'],
  // Runners and wrappers.
  ['timeout 5 npm test', 'runner'],
  ['timeout 5 ls', 'runner'],
  ['nice ls', 'runner'],
  ['time ls', 'keyword'],
  ['nohup ls', 'runner'],
  ['command ls', 'builtin'],
  ['sudo ls', 'runner'],
  // Test runners, builds, versions.
  ['npm test', 'test runner'],
  ['npx vitest run', 'test runner'],
  ['make', 'build'],
  ['make test', 'build'],
  ['cargo test', 'test runner'],
  ['cargo build', 'build'],
  ['pytest', 'test runner'],
  ['python -m pytest -q', 'test runner'],
  ['npm run build', 'build'],
  ['yarn test', 'test runner'],
  ['pnpm test', 'test runner'],
  ['go test ./...', 'test runner'],
  ['npx tsc --noEmit', 'build'],
  ['npx eslint .', 'linter'],
  ['node --version', 'version'],
  ['git --version', 'version'],
  ['which node', 'lookup'],
  ['type ls', 'lookup'],
  // Issue 30, items 1-3: arithmetic runs $(…) in quoted strings; redirects on compounds; `~` after `NAME=`.
  ["[[ 'a[$(touch PWNED)]' -eq 0 ]]; git status", 'arithmetic in a test runs a substitution'],
  ["[[ 'a[`touch PWNED2`]' -ne 1 ]] && git status", 'arithmetic in a test runs a backtick'],
  ["(( 'x[$(id)]' ))", 'arithmetic command runs a substitution'],
  ["(( 'x[$(id)]' )); ls", 'arithmetic command runs a substitution'],
  ["[[ -v 'a[$(id)]' ]]", 'subscript test runs a substitution'],
  ["echo $(( 'a[$(id)]' )); git log -1", 'arithmetic expansion runs a substitution'],
  ["x='a[$(id)]'; ls ${x:0:1}", 'parameter offset runs a substitution'],
  ['[[ -f README.md ]] && git status', 'test command'],
  ['(( 1 + 2 )); git status', 'arithmetic command'],
  ['{ cat README.md; } > ~/.bashrc; git status', 'group redirected outside the project'],
  ['{ cat README.md; } >> out-group.txt', 'group redirected into the project'],
  ['(ls) >> ../outside.txt; git status', 'subshell redirected outside the project'],
  ['(ls -la) > out-subshell.txt', 'subshell redirected into the project'],
  ['git status; (cat) < /etc/hostname', 'subshell reads outside the project'],
  ['{ git log -1; } 2> errors.txt', 'group stderr to a file'],
  ['(git status)', 'subshell'],
  ['cat x=~/.bashrc', 'tilde after NAME= is expanded'],
  ['cat x=a:~/.profile', 'tilde after NAME=…: is expanded'],
  ['head -n 1 v=~/.bashrc', 'tilde after NAME= is expanded'],
  // Item 4: wrappers the client sees through (no deny rule here: the default mode decides).
  ['timeout 60 git status', 'wrapper around a read'],
  ['nice -n 5 git log -1', 'wrapper around a read'],
  ['env A=1 git status', 'wrapper around a read'],
  ['timeout 30 npm test', 'wrapper around a test runner'],
  ['nohup git status', 'wrapper around a read'],
  ['stdbuf -oL git status', 'wrapper around a read'],
  ['command git status', 'wrapper around a read'],
  // Item 6 and issue 22: what the dialog suggests, and programs no filter knows.
  ['npm run build -- --watch=false', 'build'],
  ['python3 -m pytest -q', 'test runner'],
  ['./scripts/test.sh', 'project script'],
  ['bash scripts/test.sh', 'project script'],
  ['mise run test', 'task runner'],
  ['just lint', 'task runner'],
  // Changes to the project: last, one at a time, so nothing they do reaches the other lines.
  ['git checkout -- README.md', 'discards a change', true],
  ["sed -i 's/demo/x/' README.md", 'edits in place', true],
  ['ls | xargs rm', 'removes files', true],
  ['rm -rf sub', 'removes files', true],
  ['find . -name "*.tmp" -delete', 'removes files', true],
  ['find . -name "*.md" -exec rm {} +', 'removes files', true],
  ['find . -delete', 'removes everything', true],
];

const lines = [];
const seen = new Set();
const add = (command, from, alone) => {
  const text = command.trim();
  if (text === '' || seen.has(text)) return;
  seen.add(text);
  // A cd changes the client's working directory for every later call: such lines run one at a time.
  const isAlone = alone === true || /(^|[\s;&|(])(cd|pushd|popd)(\s|$)/.test(text);
  lines.push(isAlone ? { command: text, from, alone: true } : { command: text, from });
};

/** The longest directory that holds every cwd of a session. */
function projectRoot(cwds) {
  const parts = cwds.map((cwd) => cwd.split('/'));
  const first = parts[0] ?? [];
  let n = 0;
  while (n < first.length && parts.every((p) => p[n] === first[n])) n++;
  return first.slice(0, n).join('/');
}

for (const folder of ['claude-code', 'claude-code-more']) {
  const dir = join(corpus, 'transcripts', folder);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.jsonl')).sort()) {
    const records = readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          return [JSON.parse(line)];
        } catch {
          return [];
        }
      });
    const cwds = records.map((record) => record.cwd).filter((cwd) => typeof cwd === 'string' && cwd.startsWith('/'));
    const project = cwds.length > 0 ? projectRoot(cwds) : '';
    for (const record of records) {
      const content = record.message?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        if (block?.type !== 'tool_use' || block.name !== 'Bash' || typeof block.input?.command !== 'string') continue;
        const command = project.length > 1 ? block.input.command.split(project).join('{{PROJECT}}') : block.input.command;
        add(command, `transcript ${folder}/${file}`);
      }
    }
  }
}

const cases = join(corpus, 'commands', 'cases');
for (const id of readdirSync(cases).sort()) {
  const file = join(cases, id, 'cmd.txt');
  if (existsSync(file)) add(readFileSync(file, 'utf8'), `corpus ${id}`);
}

for (const [command, why, alone] of HAND) add(command, `hand: ${why}`, alone);

const out = join(root, 'test', 'fixtures', 'permission-lines.json');
const body = lines.map((line) => `    ${JSON.stringify(line)}`).join(',\n');
const about =
  'Command lines of the permission differential against the real Claude Code client (scripts/make-permission-lines.mjs writes this file). ' +
  '"transcript" lines: Bash commands of the real sessions in shared/corpus/transcripts (sources and licences in test/fixtures/README.md), with the session project root replaced by {{PROJECT}}; ' +
  '"corpus" lines: shared/corpus/commands/cases/<id>/cmd.txt; "hand" lines: written for this test. alone: runs in its own turn (it may change the cwd or the project).';
writeFileSync(out, `{\n  "about": ${JSON.stringify(about)},\n  "lines": [\n${body}\n  ]\n}\n`);
console.log(`${out}: ${lines.length} lines (${lines.filter((line) => line.alone).length} alone)`);
