import { describe, expect, it } from 'vitest';
import { commandsOf } from '../../../src/compress/command-source.ts';
import { fileKind, fileReadOperands, routeContent } from '../../../src/compress/policy.ts';
import { loadConfig } from '../../../src/config/config.ts';
import { PROTOCOL_VERSION } from '../../../src/protocol/schemas.ts';
import { postTool } from '../../../src/runtime/post-tool.ts';
import { viewRun } from '../../../src/runtime/run-view.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';
import { loadContentCase } from './content-cases.ts';

const options = { searchPathSharing: true };
const tempDir = useTempDirs();
const bash = (content: string, command: string) => routeContent(content, { origin: 'command_output', toolName: 'Bash', commands: commandsOf(command) }, options);

describe('fileReadOperands', () => {
  it.each([
    [['cat', 'a.log', 'b.log'], ['a.log', 'b.log']],
    [['head', '-n', '40', 'data.csv'], ['data.csv']],
    [['tail', '-200', '/var/log/syslog'], ['/var/log/syslog']],
    [['sed', '-n', '1,300p', 'lib/app.js'], ['lib/app.js']],
    [['sed', '-n', '-e', '5p', 'f.txt'], ['f.txt']],
    [['bat', '-r', '1:20', 'x.rs'], ['x.rs']],
    [['cat'], []],
  ])('%j reads %j', (argv, files) => {
    expect(fileReadOperands(argv)).toEqual(files);
  });

  it('is null for programs that print something else than files', () => {
    for (const argv of [['jq', '.', 'package.json'], ['sed', 's/a/b/', 'f'], ['sed', '-i', '-n', '1p', 'f'], ['npm', 'view', 'x'], ['curl', 'u']]) {
      expect(fileReadOperands(argv), argv.join(' ')).toBeNull();
    }
  });
});

describe('fileKind', () => {
  it.each([
    ['src/index.ts', 'editable'],
    ['README.md', 'editable'],
    ['pyproject.toml', 'editable'],
    ['k8s/guestbook.yaml', 'editable'],
    ['package.json', 'editable'],
    ['tsconfig.build.json', 'editable'],
    ['.eslintrc.json', 'editable'],
    ['Makefile', 'editable'],
    ['package-lock.json', 'lockfile'],
    ['web/pnpm-lock.yaml', 'lockfile'],
    ['go.sum', 'lockfile'],
    ['Cargo.lock', 'lockfile'],
    ['/var/log/nginx/access.log', 'log'],
    ['/var/log/syslog', 'log'],
    ['app.log.1', 'log'],
    ['events.jsonl', 'jsonl'],
    ['data/country-codes.csv', 'table'],
    ['orders.tsv', 'table'],
    ['fixtures/response.json', 'json'],
    ['vendor/jquery.min.js', 'minified'],
    ['dist/app.js.map', 'json'],
    ['notes', null],
  ])('%s is %s', (path, kind) => {
    expect(fileKind(path, 'x\n')).toBe(kind);
  });

  it('tells a minified bundle from source by its lines when the name does not', () => {
    expect(fileKind('dist/bundle.js', `${'a();'.repeat(2000)}\n`)).toBe('minified');
    expect(fileKind('src/app.js', 'const a = 1;\n'.repeat(400))).toBe('editable');
  });
});

describe('routeContent', () => {
  it('keeps every read of an editable file byte-exact, however it is read', () => {
    const source = loadCorpusCase('read-cat-index-ts-path-to-regexp').stdout;
    const pkg = loadCorpusCase('read-cat-package-json-express').stdout;
    for (const [content, command] of [
      [source, 'cat src/index.ts'],
      [source, 'head -400 src/index.ts'],
      [source, 'sed -n 1,400p src/index.ts'],
      [source, 'cd repo && cat src/index.ts | head -100'],
      [pkg, 'cat package.json'],
      [loadContentCase('editable-poetry-pyproject').stdout, 'cat pyproject.toml'],
      [loadContentCase('editable-mocha-readme').stdout, 'cat README.md'],
    ] as const) {
      expect(bash(content, command).candidates, command).toEqual([]);
    }
  });

  it('gives a Bash `cat package-lock.json` the lockfile summary, never a TOON table', () => {
    const lock = loadCorpusCase('data-head-package-lock-fixtures').stdout;
    const routed = bash(lock, 'cat package-lock.json');
    expect(routed.route).toBe('lockfile file');
    expect(routed.candidates.map((c) => c.operations.join('+'))).toEqual(['lockfile_summary']);
  });

  it('routes jq output as the JSON it prints, whatever file it read', () => {
    const json = `${JSON.stringify({ name: 'x', scripts: { a: 'b' }, list: Array.from({ length: 30 }, (_, i) => i) }, null, 2)}\n`;
    const routed = bash(json, 'jq . package.json');
    expect(routed.route).toBe('program output');
    expect(routed.candidates.map((c) => c.operations[0])).toContain('json_compact');
  });

  it('reads a log through a pipe by the file that produced it', () => {
    const log = loadContentCase('log-nginx-access').stdout;
    expect(bash(log, 'cat /var/log/nginx/access.log | tail -200').route).toBe('log file');
    expect(bash(log, 'tail -n 200 access.log').route).toBe('log file');
  });

  it('never touches file content (Read results)', () => {
    const lock = loadContentCase('lockfile-cargo-ripgrep').stdout;
    expect(routeContent(lock, { origin: 'file_content', toolName: 'Read' }, options).candidates).toEqual([]);
  });

  it('leaves text and code of unknown kind exact when read from a file', () => {
    const prose = 'This is a plain note.\nIt has a few lines.\nNothing else.\n'.repeat(200);
    expect(bash(prose, 'cat NOTES').candidates).toEqual([]);
  });
});

describe('one policy for run and post_tool', () => {
  const cases = [
    { id: 'lockfile-poetry-poetry', command: 'cat poetry.lock' },
    { id: 'log-nginx-access', command: 'cat /var/log/nginx/access.log' },
    { id: 'csv-volcano', command: 'cat volcano.csv' },
    { id: 'minified-esquery', command: 'cat node_modules/esquery/dist/esquery.min.js' },
    { id: 'editable-ripgrep-main-rs', command: 'cat crates/core/main.rs' },
    { id: 'jsonl-transcript-sniffly', command: 'cat ba79134d.jsonl' },
  ];

  it.each(cases)('$id: the wrapped read and the unwrapped Bash result get the same view', ({ id, command }) => {
    const content = loadContentCase(id).stdout;
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
    const run = viewRun(runtime, { argv: commandsOf(command)[0] ?? [], stdout: Buffer.from(content), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 't', sessionId: 's' });
    const post = postTool(runtime, {
      protocol_version: PROTOCOL_VERSION,
      operation: 'post_tool',
      attribution: { agent_id: 't', session_id: 's', tool_use_id: id },
      input: { tool_name: 'Bash', status: 'success', origin: 'command_output', content, command },
    });
    const runText = run.stdout.toString('utf8');
    const normalise = (text: string): string => text.replace(/\[full stdout: tokenless retrieve (<<tokenless:[0-9a-f]+>>)\]\n$/, '').replace(/<<tokenless:[0-9a-f]+>>/g, 'MARKER');
    expect(run.disposition === 'applied').toBe(post.disposition === 'applied');
    if (post.disposition === 'applied') expect(normalise(runText)).toBe(normalise(post.output));
    else expect(runText).toBe(content);
    runtime.close();
  });

  it('gives a wrapped command whose own filter declines the content view (here `git show` of a lockfile)', () => {
    const lock = loadContentCase('lockfile-gosum-fzf').stdout;
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
    const run = viewRun(runtime, { argv: ['git', 'show', 'HEAD:go.sum'], stdout: Buffer.from(lock), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 't', sessionId: 's' });
    expect(run.filter).toBe('content:lockfile_summary');
    runtime.close();
  });

  it('keeps the final newline of jq output, so the next command prints on its own line', () => {
    const json = `${JSON.stringify({ name: 'pkg', version: '1.0.0', dependencies: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`dep${i}`, `^${i}.0.0`])) }, null, 2)}\n`;
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
    const run = viewRun(runtime, { argv: ['jq', '.', 'package.json'], stdout: Buffer.from(json), stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 't', sessionId: 's' });
    expect(run.disposition).toBe('applied');
    expect(run.recoverability).toBe('lossless');
    const text = run.stdout.toString('utf8');
    expect(text.endsWith('\n') && !text.endsWith('\n\n')).toBe(true);
    runtime.close();
  });
});
