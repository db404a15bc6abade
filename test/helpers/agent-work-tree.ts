/**
 * The project a scripted real-client session works in (Gemini CLI, Codex CLI): 60 small files for `ls -la`, and a
 * vitest suite of 31 cases with one failing for `npm test` (node_modules linked from this repository, offline).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.ts';

export function buildWorkTree(work: string): void {
  for (let i = 0; i < 60; i++) writeFileSync(join(work, `note-${String(i).padStart(2, '0')}.txt`), `note ${i}\n`);
  writeFileSync(join(work, 'package.json'), `${JSON.stringify({ name: 'demo', version: '1.0.0', private: true, scripts: { test: 'vitest run --reporter=verbose' } }, null, 2)}\n`);
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  mkdirSync(join(work, 'test'));
  const cases = Array.from({ length: 30 }, (_, i) => `test('case ${i}', () => expect(${i} + 1).toBe(${i + 1}));`).join('\n');
  writeFileSync(join(work, 'test', 'all.test.mjs'), `import { test, expect } from 'vitest';\n${cases}\ntest('range', () => expect(600 > 599, 'status code out of range').toBe(false));\n`);
}
