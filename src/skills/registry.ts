/**
 * Skills: named context modules loaded on demand. Discovery reads directories (`<dir>/<name>/SKILL.md`, the Claude
 * Code layout, or `<dir>/<name>.md`); parsing the front matter is pure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Skill {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly content: string;
}

/** Reads `name:` and `description:` from YAML front matter; falls back to the file name and first prose line. */
export function parseSkill(path: string, fallbackName: string, text: string): Skill {
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/u.exec(text);
  const field = (key: string): string | null => {
    const match = new RegExp(`^${key}:\\s*(.*)$`, 'mu').exec(front?.[1] ?? '');
    return match?.[1]?.trim().replace(/^["']|["']$/gu, '') || null;
  };
  const body = front === null ? text : text.slice(front[0].length);
  const firstLine = body.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'))?.trim() ?? '';
  return { name: field('name') ?? fallbackName, description: field('description') ?? firstLine, path, content: text };
}

/** Every skill under the given directories; later directories do not override earlier ones with the same name. */
export function discoverSkills(dirs: readonly string[]): Skill[] {
  const found = new Map<string, Skill>();
  for (const dir of dirs) {
    for (const entry of list(dir)) {
      const full = join(dir, entry);
      const skillFile = isDir(full) ? join(full, 'SKILL.md') : entry.endsWith('.md') ? full : null;
      if (skillFile === null) continue;
      const text = read(skillFile);
      if (text === null) continue;
      const skill = parseSkill(skillFile, entry.replace(/\.md$/u, ''), text);
      if (!found.has(skill.name)) found.set(skill.name, skill);
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
