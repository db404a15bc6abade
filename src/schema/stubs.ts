/**
 * CAL's three-tier lazy tool loading, history-aware. Tier 0 sends no tools for a short conversational turn; tier 1
 * sends the core tools as stubs; tier 2 sends full schemas for the tools the request names and stubs for the rest.
 * Every tool already called in the history keeps its full schema in every tier: providers validate past tool calls
 * against the current definitions, so stubbing a used tool would turn a valid conversation into a 400.
 * Unlike schema compression this does change what the model is offered: callers opt in.
 */
import type { ToolDefinition } from '../protocol/schemas.ts';
import { shortenProse } from './describe.ts';
import { isObject, toolNameOf, toolParts, withParts } from './tool-shape.ts';

export type ToolTier = 0 | 1 | 2;

export interface StubOptions {
  /** The user's newest message: what the tier is decided on. */
  readonly query: string;
  /** The conversation so far (Anthropic or OpenAI messages), scanned for tools already called. */
  readonly messages?: readonly unknown[];
  /** Tools offered as stubs in tier 1 (default: all). */
  readonly coreTools?: readonly string[];
  /** Extra words that signal a tool, per tool name; the tool's own name always does. */
  readonly triggers?: Readonly<Record<string, readonly string[]>>;
  /** A message of at most this many words, naming no tool and no action, is conversational. */
  readonly conversationalMaxWords?: number;
}

export interface StubSelection {
  readonly tier: ToolTier;
  readonly tools: ToolDefinition[];
  readonly full: string[];
  readonly stubbed: string[];
  readonly omitted: string[];
  readonly historyProtected: string[];
}

/** Words that ask for work rather than conversation: with one of them the turn is never tier 0. */
const ACTION_WORDS = new Set(
  'run read open edit write fix find search grep list create delete remove install test build commit push show check file files code change update add rename move copy debug explain look implement refactor make'.split(' '),
);

const STUB_DESCRIPTION_CHARS = 160;

export function selectTools(tools: readonly ToolDefinition[], options: StubOptions): StubSelection {
  const names = tools.map((tool) => toolNameOf(tool));
  const used = toolsUsedIn(options.messages ?? []);
  const historyProtected = names.filter((name): name is string => name !== null && used.has(name));
  const words = wordsOf(options.query);
  const detected = new Set(names.filter((name): name is string => name !== null && signals(name, words, options.query, options.triggers?.[name] ?? [])));
  const maxWords = options.conversationalMaxWords ?? 6;
  const conversational = detected.size === 0 && words.length <= maxWords && !words.some((word) => ACTION_WORDS.has(word));
  const tier: ToolTier = detected.size > 0 ? 2 : conversational && historyProtected.length === 0 ? 0 : 1;
  const core = new Set(options.coreTools ?? names.filter((name): name is string => name !== null));
  const selection: StubSelection = { tier, tools: [], full: [], stubbed: [], omitted: [], historyProtected };
  tools.forEach((tool, index) => {
    const name = names[index] ?? null;
    const label = name ?? `#${index}`;
    const keepFull = name === null || used.has(name) || (tier === 2 && detected.has(name));
    if (keepFull) {
      selection.tools.push(tool);
      selection.full.push(label);
    } else if (tier === 0 || (tier === 1 && !core.has(label))) {
      selection.omitted.push(label);
    } else {
      selection.tools.push(stubOf(tool));
      selection.stubbed.push(label);
    }
  });
  return selection;
}

/** A stub: the tool's name, its first sentence or so, and a schema that accepts any object. */
export function stubOf(tool: ToolDefinition): ToolDefinition {
  const parts = toolParts(tool);
  if (parts === null || tool['defer_loading'] === true) return tool;
  const summary = shortenProse((parts.description ?? '').split('\n')[0] ?? '', STUB_DESCRIPTION_CHARS);
  return withParts(tool, parts, `${summary} (stub: the full schema is sent once you ask for this tool)`.trimStart(), { type: 'object' });
}

/** Names of every tool called in the history: Anthropic `tool_use` blocks and OpenAI `tool_calls`. */
export function toolsUsedIn(messages: readonly unknown[]): Set<string> {
  const used = new Set<string>();
  for (const message of messages) {
    if (!isObject(message)) continue;
    const content = message['content'];
    if (Array.isArray(content)) {
      for (const block of content) {
        if (isObject(block) && block['type'] === 'tool_use' && typeof block['name'] === 'string') used.add(block['name']);
      }
    }
    const calls = message['tool_calls'];
    if (Array.isArray(calls)) {
      for (const call of calls) {
        const fn = isObject(call) ? call['function'] : undefined;
        if (isObject(fn) && typeof fn['name'] === 'string') used.add(fn['name']);
      }
    }
  }
  return used;
}

function signals(name: string, words: readonly string[], query: string, triggers: readonly string[]): boolean {
  const lower = query.toLowerCase();
  if (words.includes(name.toLowerCase())) return true;
  return triggers.some((trigger) => {
    const t = trigger.toLowerCase().trim();
    return t !== '' && (t.includes(' ') ? lower.includes(t) : words.includes(t));
  });
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
