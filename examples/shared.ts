/** What every example shares: a throwaway data dir, offline data that compresses, and the savings line. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenlessSdk } from '../src/index.ts';

export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'tokenless-example-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What `npm view <pkg> versions --json` prints for a package with a long history: a big, dull JSON array. */
export function versionsJson(pkg: string): string {
  const versions: string[] = [];
  for (let major = 0; major < 5; major++) for (let minor = 0; minor < 20; minor++) for (let patch = 0; patch < 12; patch++) versions.push(`${major}.${minor}.${patch}`);
  return JSON.stringify(versions.map((v) => `${pkg}@${v}`), null, 2);
}

/** `grep -rn` hits as a search tool returns them: many records sharing a few paths. */
export function grepHits(): string {
  const lines: string[] = [];
  for (const file of ['src/router/index.ts', 'src/router/layer.ts', 'src/application.ts']) {
    for (let line = 10; line < 40; line += 3) lines.push(`${file}:${line}:  const handler = this.stack[${line}].handle;`);
  }
  return `${lines.join('\n')}\n`;
}

export function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The savings the data dir's stats recorded, as one line per operation. */
export function printSavings(label: string, sdk: TokenlessSdk): void {
  const summary = sdk.stats.summary();
  const { beforeTokens, afterTokens, savedTokens, records } = summary.totals;
  const percent = beforeTokens === 0 ? 0 : Math.round((savedTokens / beforeTokens) * 100);
  print(`${label}: ${records} operations, ${beforeTokens} -> ${afterTokens} estimated tokens (saved ${savedTokens}, ${percent}%)`);
  for (const group of summary.byOperation) print(`  ${group.key}: saved ${group.savedTokens} tokens in ${group.records} record(s)`);
}
