import { describe, expect, it } from 'vitest';
import { classifyContent } from '../../../src/compress/classify.ts';
import type { ContentType } from '../../../src/compress/types.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';

describe('classifyContent on real corpus outputs', () => {
  it.each<[string, 'stdout' | 'stderr', ContentType]>([
    ['data-cat-git-refs-normalized-fixtures', 'stdout', 'json'],
    ['data-npm-view-versions-json', 'stdout', 'json'],
    ['data-jq-search-issues-fixtures', 'stdout', 'json'],
    ['read-cat-package-json-express', 'stdout', 'json'],
    ['search-rg-n-express', 'stdout', 'search_results'],
    ['search-git-grep-express', 'stdout', 'search_results'],
    ['search-grep-rn-flagset-pflag', 'stdout', 'search_results'],
    ['git-diff-express', 'stdout', 'diff'],
    ['git-show-express', 'stdout', 'diff'],
    ['logs-cmake-build-progress-cjson', 'stdout', 'build_log'],
    ['logs-debug-router-express', 'stderr', 'build_log'],
    ['logs-server-error-example-express', 'stderr', 'stack_trace'],
    ['build-tsc-noemit-errors-path-to-regexp', 'stdout', 'build_log'],
    ['test-mocha-single-file-fail-express', 'stdout', 'stack_trace'],
    ['read-cat-index-ts-path-to-regexp', 'stdout', 'source_code'],
    ['read-cat-lib-rs-rust-fnv', 'stdout', 'source_code'],
    ['read-sed-flag-go-pflag', 'stdout', 'source_code'],
    ['fs-ls-la-express', 'stdout', 'tabular'],
    ['git-blame-express', 'stdout', 'plain_text'],
    ['git-log-n30-express', 'stdout', 'plain_text'],
    ['read-head-history-express', 'stdout', 'plain_text'],
  ])('%s (%s) is %s', (id, stream, expected) => {
    expect(classifyContent(loadCorpusCase(id)[stream])).toBe(expected);
  });
});

describe('classifyContent on small samples', () => {
  it.each<[string, ContentType]>([
    ['', 'plain_text'],
    ['{"a":1}\n{"a":2}\n', 'json'],
    ['[1, 2, 3]', 'json'],
    ['<!DOCTYPE html><html><body><p>Hi</p></body></html>', 'html'],
    ['<div><p>a</p><p>b</p><a href="x">c</a><span>d</span></div>', 'html'],
    ['name,age,city\nada,36,london\nalan,41,wilmslow\n', 'tabular'],
    ['a\tb\tc\n1\t2\t3\n4\t5\t6\n', 'tabular'],
    ['NAME      READY   STATUS\nweb-1     1/1     Running\ndb-0      1/1     Running\n', 'tabular'],
    ['Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    f()\n  File "a.py", line 2, in f\nValueError: x\n', 'stack_trace'],
    ['--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', 'diff'],
    ['2024-01-02T10:00:00Z INFO started\n2024-01-02T10:00:01Z INFO ready\n2024-01-02T10:00:02Z WARN slow\n', 'build_log'],
    ['Downloading 10%\rDownloading 55%\rDownloading 100%\n', 'build_log'],
    ['The quick brown fox.\nJumps over the lazy dog.\n', 'plain_text'],
  ])('%j is %s', (text, expected) => {
    expect(classifyContent(text)).toBe(expected);
  });

  it('judges a large input by its head', () => {
    const big = 'src/a.ts:1:x\n'.repeat(200_000);
    expect(classifyContent(big)).toBe('search_results');
  });
});
