/**
 * The project a scripted real-client session works in (Gemini CLI, Codex CLI): 60 small files for `ls -la`, and a
 * vitest suite of 31 cases with one failing for `npm test` (node_modules linked from this repository, offline); and
 * how a session of such a client is run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
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

/** Runs a real client headless in `work` until it exits (killed after 90 s): its exit code and stderr. */
export async function runAgent(binary: string, args: readonly string[], work: string, env: Record<string, string>): Promise<{ exit: number | null; stderr: string }> {
  const child = spawn(binary, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout.resume();
  const exit = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return { exit, stderr };
}

/**
 * A pinned client where its install script puts it (`~/.cache/save-your-tokens/<dir>/node_modules/.bin/<bin>`, or
 * the path in `override`), or null when it is not installed.
 */
export function installedClient(override: string, dir: string, bin: string): string | null {
  const cache = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  const path = process.env[override] ?? join(cache, 'save-your-tokens', dir, 'node_modules', '.bin', bin);
  return existsSync(path) ? path : null;
}

/** The retrieval line a scripted session's model finds in a shortened result, its key captured. */
export const RETRIEVAL_MARKER = /\[tokenless retrieve ([0-9]{29})\]/;
