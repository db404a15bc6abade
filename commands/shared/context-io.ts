/** File reading for the context commands: every failure is a CliError naming the file. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChunkSchema, type Chunk } from '../../src/context/chunks.ts';
import { AnthropicRequestBody } from '../../src/context/from-anthropic.ts';
import { describeIssues } from '../../src/protocol/issues.ts';
import { CliError } from './errors.ts';

export function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliError(`${path}: not valid JSON`, 2);
  }
}

/** A captured request file may wrap the body (`{body: {...}}`, as the lab's captures do). */
export function requestBody(raw: unknown): unknown {
  if (typeof raw === 'object' && raw !== null && 'body' in raw && typeof raw.body === 'object') return raw.body;
  return raw;
}

/** Every `*.json` in the directory, sorted by file name, each validated as a chunk. */
export function loadChunks(dir: string): Chunk[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    throw new CliError(`cannot read chunks directory ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return names.map((name) => {
    const parsed = ChunkSchema.safeParse(readJson(join(dir, name)));
    if (!parsed.success) throw new CliError(`${join(dir, name)}: ${describeIssues(parsed.error)}`, 2);
    return parsed.data;
  });
}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** A captured Anthropic Messages request (`syt schema`, `syt plan`), or a CliError naming the file. */
export function parseBody(file: string): AnthropicRequestBody {
  const parsed = AnthropicRequestBody.safeParse(requestBody(readJson(file)));
  if (!parsed.success) throw new CliError(`${file}: not an Anthropic Messages request: ${describeIssues(parsed.error)}`, 2);
  return parsed.data;
}
