/**
 * Skills: named context modules an agent loads on demand. A skill is a `<dir>/<name>/SKILL.md` folder (Claude Code's
 * layout) or a loose `<dir>/<name>.md` file (Claude Code's older commands). Parsing is pure; discovery reads the
 * directories it is given and nothing else.
 *
 * What Claude Code 2.1.332 shows the model, observed against the real client (test/e2e/claude-code-skills-real.test.ts):
 * one listing line per skill in every request, `- <name>: <description>`, where the name is the folder's (the front
 * matter's `name` follows in parentheses when it differs), the description is the front matter's `description`
 * joined to `when_to_use` by " - " (without either, the first line of the body, `#` marks dropped), cut to 1,536
 * characters ending in "…". A skill with `disable-model-invocation: true` is not listed. Calling the skill sends its
 * body (front matter removed) after the line `Base directory for this skill: <folder>` and a blank line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Claude Code cuts a listed description to this many characters, the last one an ellipsis. */
export const LISTED_DESCRIPTION_CHARS = 1_536;

export interface Skill {
  /** The name the Skill tool is called with (`plugin:name` for a plugin's). */
  readonly name: string;
  /** The front matter's `name` when it differs from the folder's, else null. */
  readonly declaredName: string | null;
  /** The description as listed (after the 1,536-character cut). */
  readonly description: string;
  /** The SKILL.md (or command file) path. */
  readonly path: string;
  /** The folder the skill lives in (its base directory). */
  readonly dir: string;
  /** The file's whole text. */
  readonly content: string;
  /** The body without its front matter. */
  readonly body: string;
  /** False for `disable-model-invocation: true`: the model cannot load it, so it is not listed either. */
  readonly modelInvocable: boolean;
  readonly kind: 'skill' | 'command';
}

const FRONT = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/u;

/** A scalar of simple YAML front matter (`key: value`, quoted or not, or a `|`/`>` block), or null. */
function field(front: string, key: string): string | null {
  const lines = front.split(/\r?\n/u);
  const index = lines.findIndex((line) => new RegExp(`^${key}:`, 'u').test(line));
  if (index < 0) return null;
  const value = (lines[index] ?? '').slice(key.length + 1).trim();
  if (/^[|>][-+]?$/u.test(value)) {
    const block: string[] = [];
    for (const line of lines.slice(index + 1)) {
      if (line.trim() !== '' && !/^\s/u.test(line)) break;
      block.push(line.trim());
    }
    const text = value.startsWith('>') ? block.join(' ') : block.join('\n');
    return text.trim() === '' ? null : text.trim();
  }
  const unquoted = value.replace(/^(["'])([\s\S]*)\1$/u, '$2');
  return unquoted === '' ? null : unquoted;
}

/** The listing's description: description and when_to_use joined by " - ", else the body's first line, cut like the client. */
export function listedDescription(description: string | null, whenToUse: string | null, body: string): string {
  const parts = [description, whenToUse].filter((part): part is string => part !== null && part !== '');
  const firstLine = body.split(/\r?\n/u).find((line) => line.trim() !== '')?.replace(/^#+\s*/u, '').trim() ?? '';
  const text = (parts.length > 0 ? parts.join(' - ') : firstLine).replace(/\s+/gu, ' ').trim();
  return text.length > LISTED_DESCRIPTION_CHARS ? `${text.slice(0, LISTED_DESCRIPTION_CHARS - 1)}…` : text;
}

/** One skill file. `name` is the folder's (or the command file's) name, which is what the Skill tool is called with. */
export function parseSkill(path: string, name: string, text: string, kind: Skill['kind'] = 'skill', dir = ''): Skill {
  const front = FRONT.exec(text);
  const meta = front?.[1] ?? '';
  const body = front === null ? text : text.slice(front[0].length);
  const declared = field(meta, 'name');
  return {
    name,
    declaredName: declared !== null && declared !== name ? declared : null,
    description: listedDescription(field(meta, 'description'), field(meta, 'when_to_use'), body),
    path,
    dir,
    content: text,
    body,
    modelInvocable: field(meta, 'disable-model-invocation') !== 'true',
    kind,
  };
}

/** The line the skill adds to every request's listing. */
export function listingLine(skill: Skill): string {
  return `- ${skill.name}${skill.declaredName === null ? '' : ` (${skill.declaredName})`}: ${skill.description}`;
}

/** What calling the skill adds to the conversation: the base-directory line, then the body. */
export function loadedText(skill: Skill): string {
  return skill.kind === 'skill' ? `Base directory for this skill: ${skill.dir}\n\n${skill.body}` : skill.body;
}

/**
 * Every skill in the directories, in directory order and by name within one; `prefix` names a plugin's (`plugin:`).
 * A name already found is not found again (the first directory wins).
 */
export function discoverSkills(dirs: readonly string[], prefix = ''): Skill[] {
  const found = new Map<string, Skill>();
  for (const dir of dirs) {
    for (const entry of list(dir)) {
      const full = join(dir, entry);
      const folder = isDir(full);
      const file = folder ? join(full, 'SKILL.md') : entry.endsWith('.md') ? full : null;
      if (file === null) continue;
      const text = read(file);
      if (text === null) continue;
      const skill = parseSkill(file, `${prefix}${entry.replace(/\.md$/u, '')}`, text, folder ? 'skill' : 'command', folder ? full : dir);
      if (!found.has(skill.name)) found.set(skill.name, skill);
    }
  }
  return [...found.values()];
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
