/**
 * Finds the context files agents load in a project directory. I/O only: reading and classifying what was found
 * happen in project-report.ts.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as z from 'zod/mini';
import type { Layer } from '../budget/types.ts';
import { readBoundedText } from '../io/bounded-read.ts';

export type ItemKind = 'instructions' | 'import' | 'skill' | 'command' | 'mcp' | 'progress';

/** One thing found: a file (or an MCP server) and how an agent loads it. */
export interface FoundItem {
  readonly path: string;
  readonly kind: ItemKind;
  readonly layer: Layer;
  /** `always`: in every request; `on_demand`: only when the agent or user asks for it. */
  readonly loaded: 'always' | 'on_demand';
  /** Which agents read it. */
  readonly agents: readonly string[];
  readonly text: string;
  /** For MCP servers: the server name; tokens are estimated, not counted. */
  readonly mcpServer?: string;
  readonly note?: string;
}

/**
 * An MCP server's tool schemas cannot be counted without starting it, so they are estimated: 10 tools of ~400 tokens
 * (typical of public servers; Claude Code's own 12 built-in tools measure ~640 tokens each).
 */
export const MCP_ESTIMATE = { toolsPerServer: 10, tokensPerTool: 400 } as const;
const INSTRUCTION_FILES = [
  { path: 'CLAUDE.md', agents: ['claude-code'] },
  { path: 'CLAUDE.local.md', agents: ['claude-code'] },
  { path: '.claude/CLAUDE.md', agents: ['claude-code'] },
  { path: 'AGENTS.md', agents: ['codex', 'cursor', 'aider'] },
  { path: 'GEMINI.md', agents: ['gemini-cli'] },
  { path: '.cursorrules', agents: ['cursor'] },
  { path: '.github/copilot-instructions.md', agents: ['copilot'] },
] as const;

const PROGRESS_FILES = /^(progress|todo|todos|tasks|notes|plan|status|changelog-notes)(\.[a-z]+)?\.(md|txt)$/iu;
const MCP_FILES = ['.mcp.json', '.cursor/mcp.json', '.claude/settings.json', '.claude/settings.local.json'] as const;
/** Claude Code follows @imports at most this many hops deep. */
const MAX_IMPORT_DEPTH = 5;

const McpConfig = z.looseObject({ mcpServers: z.optional(z.record(z.string(), z.unknown())) });

export function scanProject(root: string): FoundItem[] {
  const items: FoundItem[] = [];
  const seen = new Set<string>();
  for (const file of INSTRUCTION_FILES) {
    const text = readText(join(root, file.path));
    if (text === null) continue;
    items.push({ path: file.path, kind: 'instructions', layer: 'persistent', loaded: 'always', agents: file.agents, text });
    seen.add(resolve(root, file.path));
    if ((file.agents as readonly string[]).includes('claude-code')) items.push(...followImports(root, join(root, file.path), text, seen, 1));
  }
  for (const name of listDir(join(root, '.cursor', 'rules'))) {
    const text = readText(join(root, '.cursor', 'rules', name));
    if (text !== null) items.push({ path: `.cursor/rules/${name}`, kind: 'instructions', layer: 'persistent', loaded: 'always', agents: ['cursor'], text });
  }
  items.push(...skillsAndCommands(root), ...mcpServers(root), ...progressFiles(root, seen));
  return items;
}

/** `@path` references in CLAUDE.md are inlined by Claude Code; code spans and e-mail addresses are not imports. */
export function importsIn(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/gu, '').replace(/`[^`\n]*`/gu, '');
  return [...withoutCode.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]+)/gu)].map((m) => m[1] ?? '').filter((p) => p !== '' && /[./]/u.test(p));
}

function followImports(root: string, from: string, text: string, seen: Set<string>, depth: number): FoundItem[] {
  if (depth > MAX_IMPORT_DEPTH) return [];
  const found: FoundItem[] = [];
  for (const ref of importsIn(text)) {
    if (ref.startsWith('~/')) continue; // the user's home files are not part of the project
    const target = resolve(dirname(from), ref);
    if (seen.has(target)) continue;
    seen.add(target);
    const body = readText(target);
    const path = relative(root, target);
    if (body === null) {
      found.push({ path, kind: 'import', layer: 'persistent', loaded: 'always', agents: ['claude-code'], text: '', note: `imported by ${relative(root, from)} but missing` });
      continue;
    }
    const layer: Layer = PROGRESS_FILES.test(target.split('/').at(-1) ?? '') ? 'session' : 'persistent';
    found.push({ path, kind: 'import', layer, loaded: 'always', agents: ['claude-code'], text: body, note: `imported by ${relative(root, from)}` });
    found.push(...followImports(root, target, body, seen, depth + 1));
  }
  return found;
}

function skillsAndCommands(root: string): FoundItem[] {
  const items: FoundItem[] = [];
  const skillsDir = join(root, '.claude', 'skills');
  for (const name of listDir(skillsDir)) {
    const text = readText(join(skillsDir, name, 'SKILL.md'));
    if (text !== null) items.push({ path: `.claude/skills/${name}/SKILL.md`, kind: 'skill', layer: 'persistent', loaded: 'on_demand', agents: ['claude-code'], text });
  }
  const commandsDir = join(root, '.claude', 'commands');
  for (const name of listDir(commandsDir).filter((n) => n.endsWith('.md'))) {
    const text = readText(join(commandsDir, name));
    if (text !== null) items.push({ path: `.claude/commands/${name}`, kind: 'command', layer: 'ephemeral', loaded: 'on_demand', agents: ['claude-code'], text });
  }
  return items;
}

function mcpServers(root: string): FoundItem[] {
  const items: FoundItem[] = [];
  for (const file of MCP_FILES) {
    const text = readText(join(root, file));
    if (text === null) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      continue;
    }
    const servers = McpConfig.safeParse(raw).data?.mcpServers ?? {};
    for (const [name, spec] of Object.entries(servers)) {
      items.push({ path: file, kind: 'mcp', layer: 'persistent', loaded: 'always', agents: file.startsWith('.cursor') ? ['cursor'] : ['claude-code'], text: JSON.stringify(spec), mcpServer: name });
    }
  }
  return items;
}

function progressFiles(root: string, seen: Set<string>): FoundItem[] {
  const candidates = [...listDir(root).map((n) => n), ...listDir(join(root, 'docs')).map((n) => `docs/${n}`)];
  return candidates
    .filter((path) => PROGRESS_FILES.test(path.split('/').at(-1) ?? '') && !seen.has(resolve(root, path)))
    .flatMap((path): FoundItem[] => {
      const text = readText(join(root, path));
      return text === null ? [] : [{ path, kind: 'progress', layer: 'session', loaded: 'on_demand', agents: ['any'], text, note: 'read only when the agent opens it: Claude Code loads CLAUDE.md files and their @imports, not other notes' }];
    });
}

/** Regular files only, within a bound: a FIFO or a device named like a context file is passed over, not read. */
function readText(path: string): string | null {
  const read = readBoundedText(path, { maxBytes: MAX_CONTEXT_FILE_BYTES });
  return read.ok ? read.text : null;
}

/** Far over any context file an agent loads (Claude Code's CLAUDE.md guidance is a few KiB). */
const MAX_CONTEXT_FILE_BYTES = 16 << 20;

function listDir(path: string): string[] {
  try {
    return readdirSync(path).sort();
  } catch {
    return [];
  }
}
