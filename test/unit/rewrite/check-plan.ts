// Invariants every rewrite plan must hold, shared by the fuzz and corpus tests.

import { expect } from 'vitest';
import { parseShell } from '../../../src/shell/parse.ts';
import { literalValue } from '../../../src/shell/word.ts';
import type { SimpleCommand } from '../../../src/shell/types.ts';
import type { RewritePlan } from '../../../src/rewrite/types.ts';

export const WRAPPER = "'/opt/syt/cli.js'";
export const ENV_PREFIX = "TOKENLESS_AGENT_ID=agent-1 TOKENLESS_TOOL_USE_ID='toolu 1' ";
export const ATTRIBUTION = { TOKENLESS_AGENT_ID: 'agent-1', TOKENLESS_TOOL_USE_ID: 'toolu 1' };
const WRAP_TEXT = `${WRAPPER} run -- `;

function topLevelSimple(source: string): SimpleCommand[] {
  const parsed = parseShell(source);
  if (parsed.kind !== 'parsed') return [];
  return parsed.script.list.items.flatMap((chain) =>
    chain.pipelines.flatMap((pipeline) => pipeline.commands.filter((c): c is SimpleCommand => c.kind === 'simple')),
  );
}

/** Checks that a plan only inserted our text at the start of approved top-level simple commands. */
export function checkPlan(original: string, plan: RewritePlan, isWrappable: (argv: readonly string[]) => boolean): void {
  expect(plan.reason).not.toMatch(/^internal error/);
  if (plan.command === null) {
    expect(plan.insertions).toEqual([]);
    return;
  }
  // Removing exactly what was inserted gives back the original, byte for byte.
  expect(plan.command.split(ENV_PREFIX).join('').split(WRAP_TEXT).join('')).toBe(original);
  let rebuilt = original;
  for (const insertion of [...plan.insertions].reverse()) {
    expect([ENV_PREFIX, WRAP_TEXT, ENV_PREFIX + WRAP_TEXT]).toContain(insertion.text);
    rebuilt = rebuilt.slice(0, insertion.offset) + insertion.text + rebuilt.slice(insertion.offset);
  }
  expect(rebuilt).toBe(plan.command);
  expect(parseShell(plan.command).kind).toBe('parsed');

  const commands = topLevelSimple(original);
  for (const insertion of plan.insertions) {
    const owner = commands.find((c) => c.words.some((word) => word.start === insertion.offset));
    expect(owner, `insertion at ${insertion.offset} is not at a word of a top-level command`).toBeDefined();
    if (owner === undefined) continue;
    if (insertion.text.startsWith('TOKENLESS_')) expect(owner.words[0]?.start).toBe(insertion.offset);
    if (insertion.text.endsWith(WRAP_TEXT)) {
      const from = owner.words.findIndex((word) => word.start === insertion.offset);
      const argv: string[] = [];
      for (const word of owner.words.slice(from)) {
        const value = literalValue(word.text);
        if (value === null) break;
        argv.push(value);
      }
      expect(isWrappable(argv)).toBe(true);
    }
  }
}
