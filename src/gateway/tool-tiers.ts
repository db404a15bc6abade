/**
 * CAL's tool tiers as the gateway applies them, pure: decided once, at a session's first request, and then kept
 * byte-identical for the rest of the session (a change to the tools array rewrites the whole cache). A tool that is
 * neither in the core set nor already used in the conversation becomes a stub: its name, the first sentence of its
 * description, a schema that accepts any object, and the `tokenless retrieve` line that prints its full definition.
 * A stubbed tool the agent starts using is promoted back to full only when the cache is cold anyway (the caller
 * decides when); until then its calls still validate (the stub's schema accepts them) and the client checks them
 * against its own definition.
 */
import type { ToolDefinition } from '../protocol/schemas.ts';
import { shortenProse } from '../schema/describe.ts';
import { toolsUsedIn } from '../schema/stubs.ts';
import { toolNameOf, toolParts, withParts } from '../schema/tool-shape.ts';
import { retrievalLine } from '../store/marker.ts';

/**
 * Tools kept whole from the first request: the ones Claude Code sessions mostly call. Measured on the 15 real corpus
 * sessions (sessions calling each: Bash, Edit, Read 14; Write 10; Glob 9; TodoWrite 7; Grep 6; every other tool 2
 * or fewer), so stubbing these would only buy promotions.
 */
export const CORE_TOOLS: readonly string[] = ['Bash', 'Edit', 'Read', 'Write', 'Glob', 'TodoWrite', 'Grep'];

const STUB_DESCRIPTION_CHARS = 160;

/** Names of the tools to stub: not core, not used in `messages`, and rewritable (server tools are never stubbed). */
export function toolsToStub(tools: readonly ToolDefinition[], messages: readonly unknown[], core: readonly string[] = CORE_TOOLS): string[] {
  const used = toolsUsedIn(messages);
  const keep = new Set(core);
  return tools.flatMap((tool) => {
    const name = toolNameOf(tool);
    return name !== null && !keep.has(name) && !used.has(name) && toolParts(tool) !== null && tool['defer_loading'] !== true ? [name] : [];
  });
}

/** The stub of one tool; `key` is the stash key of its full definition (JSON). */
export function stubWithRetrieval(tool: ToolDefinition, key: string): ToolDefinition {
  const parts = toolParts(tool);
  if (parts === null) return tool;
  const summary = shortenProse((parts.description ?? '').split('\n')[0] ?? '', STUB_DESCRIPTION_CHARS);
  return withParts(tool, parts, `${summary} (stub; its full definition: ${retrievalLine(key).trim()})`.trimStart(), { type: 'object' });
}

/** The full definition a stub's retrieval line prints. */
export function toolDefinitionText(tool: ToolDefinition): string {
  return JSON.stringify(tool, null, 2);
}

/** `tools` with each named one replaced by its stub (`keys`: name -> stash key); every other tool as it came. */
export function applyTiers(tools: readonly ToolDefinition[], keys: ReadonlyMap<string, string>): ToolDefinition[] {
  return tools.map((tool) => {
    const name = toolNameOf(tool);
    const key = name === null ? undefined : keys.get(name);
    return key === undefined ? tool : stubWithRetrieval(tool, key);
  });
}
