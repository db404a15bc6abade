// Invariants every rewrite plan must hold, shared by the fuzz and corpus tests.

import { expect } from 'vitest';
import { resolveWrapperValues } from '../../../src/permissions/shell-state.ts';
import { parseShell } from '../../../src/shell/parse.ts';
import { literalValue } from '../../../src/shell/word.ts';
import type { SimpleCommand } from '../../../src/shell/types.ts';
import type { RewritePlan } from '../../../src/rewrite/types.ts';

export const WRAPPER = "'/opt/syt/cli.js'";
export const ENV_PREFIX = "TOKENLESS_AGENT_ID=agent-1 TOKENLESS_TOOL_USE_ID='toolu 1' ";
export const ATTRIBUTION = { TOKENLESS_AGENT_ID: 'agent-1', TOKENLESS_TOOL_USE_ID: 'toolu 1' };
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The one text a plan inserts: the attribution prefix, the wrapper, and for a pipeline's last stage the producer. */
const INSERTION = new RegExp(`^(${escape(ENV_PREFIX)})?${escape(WRAPPER)} run( --view-as ('[^']*'|[^ ']+))? -- $`);

function topLevelSimple(source: string): SimpleCommand[] {
  const parsed = parseShell(source);
  if (parsed.kind !== 'parsed') return [];
  return parsed.script.list.items.flatMap((chain) =>
    chain.pipelines.flatMap((pipeline) => pipeline.commands.filter((c): c is SimpleCommand => c.kind === 'simple')),
  );
}

function insert(text: string, insertions: RewritePlan['insertions'], base: number): string {
  let out = text;
  for (const { offset, text: added } of [...insertions].reverse()) {
    const at = offset - base;
    if (at >= 0 && at <= out.length) out = out.slice(0, at) + added + out.slice(at);
  }
  return out;
}

/** Checks that a plan only inserted our text at the start of approved top-level simple commands, and guarded them. */
export function checkPlan(original: string, plan: RewritePlan, isWrappable: (argv: readonly string[]) => boolean): void {
  expect(plan.reason).not.toMatch(/^internal error/);
  if (plan.command === null) {
    expect(plan.insertions).toEqual([]);
    expect(plan.guards).toEqual([]);
    return;
  }
  for (const insertion of plan.insertions) expect(insertion.text).toMatch(INSERTION);
  // The line is the original with the insertions, each guarded command in a `command -v` check that runs either the
  // wrapped or the typed command.
  let rebuilt = '';
  let at = 0;
  for (const guard of plan.guards) {
    const inside = plan.insertions.filter(({ offset }) => offset >= guard.start && offset < guard.end);
    expect(inside).toHaveLength(1);
    const typed = original.slice(guard.start, guard.end);
    expect(literalValue(guard.name)).not.toContain('/');
    rebuilt += insert(original.slice(at, guard.start), plan.insertions.filter(({ offset }) => offset >= at && offset < guard.start), at);
    rebuilt += `case $(command -v ${guard.name}) in /*) ${insert(typed, inside, guard.start)};; *) ${typed};; esac`;
    at = guard.end;
  }
  rebuilt += insert(original.slice(at), plan.insertions.filter(({ offset }) => offset >= at), at);
  expect(rebuilt).toBe(plan.command);
  const unguarded = insert(original, plan.insertions, 0);
  expect(parseShell(unguarded).kind).toBe('parsed');

  const commands = topLevelSimple(original);
  for (const insertion of plan.insertions) {
    const owner = commands.find((c) => c.words[0]?.start === insertion.offset);
    expect(owner, `insertion at ${insertion.offset} is not at the first word of a top-level command`).toBeDefined();
    if (owner === undefined) continue;
    const viewAs = /--view-as ('([^']*)'|([^ ']+))/.exec(insertion.text);
    const argv: string[] = [];
    for (const word of owner.words) {
      const value = literalValue(word.text);
      if (value === null) break;
      argv.push(value);
    }
    const resolved = resolveWrapperValues(argv);
    const viewed = viewAs !== null ? (viewAs[2] ?? viewAs[3] ?? '').split(' ') : resolved.ok ? argv.slice(resolved.programIndex) : argv;
    expect(isWrappable(viewed)).toBe(true);
    const guarded = plan.guards.some((guard) => guard.start <= insertion.offset && insertion.offset < guard.end);
    const name = literalValue(owner.words[0]?.text ?? '');
    expect(guarded).toBe(name !== null && !name.includes('/'));
  }
}
