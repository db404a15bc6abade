/**
 * Every captured Claude Code PostToolUse sample goes through `tokenless hook post_tool`; any replacement must have
 * exactly the tool's own output shape (FINDINGS.md section 4: Claude Code ignores a replacement that does not).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.ts';
import { FIXTURES_DIR, loadCorpusCase } from '../helpers/fixtures.ts';
import { useTempDirs } from '../helpers/temp.ts';

const tempDir = useTempDirs();
const SAMPLES = join(FIXTURES_DIR, 'claude-code-hook-samples');

/** The shapes Claude Code 2.1.332 validates `updatedToolOutput` against (strict: no extra or persisted fields). */
const SHAPES: Record<string, z.ZodMiniType> = {
  Bash: z.strictObject({ stdout: z.string(), stderr: z.string(), interrupted: z.boolean(), isImage: z.boolean(), noOutputExpected: z.boolean() }),
  Grep: z.looseObject({ mode: z.literal('content'), numFiles: z.number(), filenames: z.array(z.string()), content: z.string(), numLines: z.optional(z.number()) }),
  Read: z.looseObject({
    type: z.literal('text'),
    file: z.strictObject({ filePath: z.string(), content: z.string(), numLines: z.number(), startLine: z.number(), totalLines: z.number() }),
  }),
  Glob: z.strictObject({ filenames: z.array(z.string()), durationMs: z.number(), numFiles: z.number(), truncated: z.boolean() }),
};

const HookAnswer = z.strictObject({
  hookSpecificOutput: z.strictObject({ hookEventName: z.literal('PostToolUse'), updatedToolOutput: z.record(z.string(), z.unknown()) }),
});

interface Sample {
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_response: Record<string, unknown>;
  [key: string]: unknown;
}
const load = (name: string): Sample => JSON.parse(readFileSync(join(SAMPLES, name), 'utf8')) as Sample;

function runPostTool(sample: Sample, dataDir: string): { status: number | null; stdout: string; updated: Record<string, unknown> | null } {
  const result = runCli(['hook', 'post_tool'], { input: JSON.stringify(sample), env: { TOKENLESS_DATA_DIR: dataDir } });
  if (result.stdout === '') return { status: result.status, stdout: '', updated: null };
  const answer = HookAnswer.parse(JSON.parse(result.stdout));
  const shape = SHAPES[sample.tool_name];
  if (shape === undefined) throw new Error(`replacement for a tool without a known shape: ${sample.tool_name}`);
  shape.parse(answer.hookSpecificOutput.updatedToolOutput);
  return { status: result.status, stdout: result.stdout, updated: answer.hookSpecificOutput.updatedToolOutput };
}

describe('Claude Code PostToolUse through tokenless hook post_tool', () => {
  const names = readdirSync(SAMPLES).filter((name) => name.startsWith('PostToolUse__'));

  it.each(names)('%s: exit 0 and, if anything is printed, the exact tool shape', (name) => {
    const outcome = runPostTool(load(name), tempDir());
    expect(outcome.status).toBe(0);
  });

  it('replaces a Bash JSON output with a shorter view of the same shape', () => {
    const sample = load('PostToolUse__Bash.json');
    const json = loadCorpusCase('data-npm-view-express-json').stdout;
    sample.tool_input = { command: 'npm view express --json' };
    sample.tool_response = { ...sample.tool_response, stdout: json };
    const { updated } = runPostTool(sample, tempDir());
    expect(updated).not.toBeNull();
    expect(String(updated?.['stdout']).length).toBeLessThan(json.length);
  });

  it('replaces only the content of a Grep content-mode result and keeps the other fields', () => {
    const sample = load('PostToolUse__Grep.json');
    const listing = loadCorpusCase('search-grep-rn-flagset-pflag').stdout;
    sample.tool_response = { ...sample.tool_response, content: listing, numFiles: 7, numLines: listing.split('\n').length };
    const { updated } = runPostTool(sample, tempDir());
    expect(updated).toMatchObject({ mode: 'content', numFiles: 7, filenames: [] });
    expect(String(updated?.['content'])).toContain('File="');
  });

  it('reads a persisted large Bash output in full and drops the persisted fields', () => {
    const dir = tempDir();
    const sample = load('PostToolUse__Bash__large-output-persisted.json');
    const full = loadCorpusCase('data-npm-view-versions-json').stdout;
    const path = join(dir, 'persisted.txt');
    writeFileSync(path, full);
    sample.tool_input = { command: 'npm view typescript versions --json' };
    sample.tool_response = { ...sample.tool_response, stdout: full.slice(0, 30_000), persistedOutputPath: path, persistedOutputSize: full.length };
    const { updated } = runPostTool(sample, join(dir, 'data'));
    expect(updated).not.toBeNull();
    expect(Object.keys(updated ?? {})).not.toContain('persistedOutputPath');
    expect(String(updated?.['stdout'])).toMatch(/<<tokenless:[0-9]{29}>>|\[tokenless retrieve [0-9]{29}\]/);
  });

  // Issue 15, item 10: the old code trusted stat().size, so a FIFO blocked the hook and /dev/zero read without bound.
  it.each([
    ['a FIFO with no writer', (dir: string) => {
      const path = join(dir, 'fifo');
      expect(spawnSync('mkfifo', [path]).status).toBe(0);
      return path;
    }],
    ['a device', () => '/dev/zero'],
    ['a directory', (dir: string) => dir],
  ])('leaves Claude Code\'s preview alone when the persisted output path is %s, fast', (_name, makePath) => {
    const dir = tempDir();
    const sample = load('PostToolUse__Bash__large-output-persisted.json');
    sample.tool_input = { command: 'npm view typescript versions --json' };
    sample.tool_response = { ...sample.tool_response, stdout: 'preview', persistedOutputPath: makePath(dir), persistedOutputSize: 100 };
    const started = Date.now();
    const result = spawnSync(process.execPath, [CLI, 'hook', 'post_tool'], { input: JSON.stringify(sample), env: { PATH: process.env['PATH'] ?? '', TOKENLESS_DATA_DIR: join(dir, 'data') }, timeout: 15_000 });
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout.toString('utf8')).toBe('');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('leaves a large Read of source code alone', () => {
    const sample = load('PostToolUse__Read.json');
    const source = loadCorpusCase('read-cat-response-express').stdout;
    const file = (sample.tool_response['file'] ?? {}) as Record<string, unknown>;
    sample.tool_response = { ...sample.tool_response, file: { ...file, content: source, numLines: 1000, totalLines: 1000 } };
    expect(runPostTool(sample, tempDir()).stdout).toBe('');
  });

  it('never compresses the output of tokenless retrieve', () => {
    const sample = load('PostToolUse__Bash.json');
    sample.tool_input = { command: "tokenless retrieve '<<tokenless:0123456789abcdef01234567>>'" };
    sample.tool_response = { ...sample.tool_response, stdout: loadCorpusCase('data-npm-view-express-json').stdout };
    expect(runPostTool(sample, tempDir()).stdout).toBe('');
  });
});
