import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, loadConfig } from '../../../src/config/config.ts';
import { SEARCH_PATH_HEADER } from '../../../src/compress/search-paths.ts';
import { filterLine } from '../../../src/runtime/line-view.ts';
import { retrieveBytes } from '../../../src/runtime/retrieve.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { markersIn } from '../../../src/store/marker.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const WRAPPER = "'/usr/bin/node' '/opt/tokenless/cli.cjs'";
const attribution = { agentId: 'test', sessionId: 's1', toolUseId: 't1' };

function filter(line: string, caseId: string, env: Record<string, string> = {}, configFile: object | null = null) {
  const dataDir = tempDir();
  if (configFile !== null) writeFileSync(join(dataDir, CONFIG_FILE), JSON.stringify(configFile));
  const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: dataDir, ...env }));
  const captured = loadCorpusCase(caseId);
  const capture = { stdout: captured.stdoutBytes, stderr: Buffer.from(captured.stderr), exitCode: captured.exitCode };
  const result = filterLine(runtime, line, capture, attribution, WRAPPER);
  const text = result.view.stdout.toString('utf8') + result.view.stderr.toString('utf8');
  // Every marker shown must give back one of the captured streams byte for byte.
  const retrieved = markersIn(text).map((key) => {
    const got = retrieveBytes(runtime, key, { sessionId: attribution.sessionId, visibleMarkers: [], anySession: false });
    return got.ok && (got.bytes.equals(capture.stdout) || got.bytes.equals(capture.stderr));
  });
  runtime.close();
  return { ...result, text, capture, retrieved };
}

describe('filterLine: the offline twin of a rewritten line', () => {
  it('views `cd X && git status` with the git status filter (only the last segment prints)', () => {
    const result = filter('cd /work/express && git status -u', 'git-status-untracked-all-express');
    expect(result.declined).toBeNull();
    expect(result.view.filter).toBe('git-status');
    expect(result.text.length).toBeLessThan(result.capture.stdout.length);
    expect(result.retrieved.every(Boolean)).toBe(true);
  });

  it('accepts a glob (`du -sh *`) and a pipeline (`find . -type f | head`) as typed', () => {
    for (const [line, caseId] of [
      ['du -sh *', 'fs-du-sh-express'],
      ['find . -type f | head -300', 'fs-find-type-f-head-express'],
    ] as const) {
      const result = filter(line, caseId);
      expect(result.declined, line).toBeNull();
      expect(result.view.disposition, line).toMatch(/^(applied|no_savings)$/);
      expect(result.retrieved.every(Boolean), line).toBe(true);
    }
  });

  it('declines when two wrapped segments print (`make clean && make`): the output stays raw', () => {
    const result = filter('make clean && make', 'build-make-cjson');
    expect(result.declined).toMatch(/several wrapped segments print/);
    expect(result.view.stdout.equals(result.capture.stdout)).toBe(true);
    expect(result.view.stashKeys).toEqual([]);
  });

  it('declines when an unwrapped command also prints, and passes a line pre_tool leaves alone', () => {
    expect(filter('git status -u && echo done', 'git-status-untracked-all-express').declined).toMatch(/unwrapped command may print/);
    const untouched = filter('echo "$(git status -u)"', 'git-status-untracked-all-express');
    expect(untouched.declined).toMatch(/^not rewritten/);
    expect(untouched.view.stdout.equals(untouched.capture.stdout)).toBe(true);
  });

  it('treats output sent to a file and `git add PATHS` as silent', () => {
    expect(filter('ls -la > /tmp/listing.txt && git status -u', 'git-status-untracked-all-express').view.filter).toBe('git-status');
    expect(filter('git add src/a.ts && git status -u', 'git-status-untracked-all-express').view.filter).toBe('git-status');
  });

  it('honours search_path_sharing from config.json and the environment, as post_tool does', () => {
    const line = 'rg -n "function" lib';
    const caseId = 'search-rg-n-express';
    expect(filter(line, caseId).text.startsWith(SEARCH_PATH_HEADER)).toBe(true);
    const off = filter(line, caseId, {}, { search_path_sharing: false });
    expect(off.text).not.toContain(SEARCH_PATH_HEADER);
    expect(off.text).toBe(off.capture.stdout.toString('utf8'));
    // The environment overrides the file, both ways.
    expect(filter(line, caseId, { TOKENLESS_SEARCH_PATH_SHARING_ENABLED: '1' }, { search_path_sharing: false }).text.startsWith(SEARCH_PATH_HEADER)).toBe(true);
    expect(filter(line, caseId, { TOKENLESS_SEARCH_PATH_SHARING_ENABLED: '0' }).text).not.toContain(SEARCH_PATH_HEADER);
  });
});
