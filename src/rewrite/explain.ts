// Human-readable account of a rewrite plan, for `tokenless rewrite "<command>"`.

import type { RewritePlan } from './types.ts';

/** One line for the outcome, then one line per top-level command: its action, its text and why. */
export function explainRewrite(plan: RewritePlan): string {
  const lines = [plan.command === null ? 'unchanged: the command runs as typed' : `rewritten: ${plan.command}`];
  lines.push(`reason: ${plan.reason}`);
  if (plan.segments.length > 0) lines.push('commands:');
  for (const segment of plan.segments) {
    lines.push(`  ${segment.action.padEnd(4)}  ${oneLine(segment.source)}`);
    lines.push(`        ${segment.reason}`);
  }
  return lines.join('\n');
}

// A segment may span lines (continuations, quoted newlines); keep the listing one line per segment.
function oneLine(text: string): string {
  const flat = text.replaceAll('\n', '\\n');
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
