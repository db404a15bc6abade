// Replaces one marked block of BENCHMARKS.md (`<!-- bench:NAME:begin -->` … `<!-- bench:NAME:end -->`) with fresh
// results, or appends the block under a heading when the file does not have it yet.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeBenchmarkBlock(file, name, heading, table) {
  const begin = `<!-- bench:${name}:begin -->`;
  const end = `<!-- bench:${name}:end -->`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const block = `${begin}\n${table}\n${end}`;
  const start = current.indexOf(begin);
  const stop = current.indexOf(end);
  const next = start >= 0 && stop > start ? current.slice(0, start) + block + current.slice(stop + end.length) : `${current}\n## ${heading}\n\n${block}\n`;
  writeFileSync(file, next);
}
