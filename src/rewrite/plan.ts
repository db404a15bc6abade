// planRewrite: which top-level commands of a Bash tool command line run through `tokenless run`. The plan only
// ever inserts text at the start of a simple command; every other character of the line stays as typed.

import { parseShell, simpleCommands } from '../shell/parse.ts';
import { shellQuote } from '../shell/quote.ts';
import type { Command, List, Pipeline } from '../shell/types.ts';
import { literalValue } from '../shell/word.ts';
import { decideSimple, type DecideContext } from './decide.ts';
import type { RewriteInsertion, RewriteOptions, RewritePlan, RewriteSegment } from './types.ts';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const COMPOUND_REASON: Record<Exclude<Command['kind'], 'simple'>, string> = {
  subshell: 'inside a subshell: left as typed',
  group: 'inside a { …; } group: left as typed',
  arithmetic: 'arithmetic command',
  test: '[[ … ]] test',
};

/** Decides, for each top-level command of `command`, whether it runs through the wrapper. Pure; never throws. */
export function planRewrite(command: string, options: RewriteOptions): RewritePlan {
  const untouched = (reason: string, segments: readonly RewriteSegment[] = []): RewritePlan => ({
    command: null,
    segments,
    insertions: [],
    reason,
  });
  try {
    if (command.trim() === '') return untouched('empty command');
    const context = readOptions(options);
    if (typeof context === 'string') return untouched(context);
    const parsed = parseShell(command);
    if (parsed.kind === 'unparseable') return untouched(`cannot parse with certainty: ${parsed.message} (${parsed.code})`);

    const segments: RewriteSegment[] = [];
    const insertions: RewriteInsertion[] = [];
    const prefix = envPrefix(options.attributionEnv);
    for (const chain of parsed.script.list.items) {
      for (const pipeline of chain.pipelines) {
        pipeline.commands.forEach((node, i) => {
          const source = command.slice(node.start, node.end);
          const positional = positionReason(pipeline, i, chain.background);
          const decision =
            positional !== null ? { action: 'keep' as const, reason: positional }
            : node.kind === 'simple' ? decideSimple(node, source, context)
            : { action: 'keep' as const, reason: COMPOUND_REASON[node.kind] };
          segments.push({
            source,
            start: node.start,
            end: node.end,
            action: decision.action,
            reason: decision.reason,
            ...(decision.action === 'wrap' ? { viewArgv: decision.argv } : {}),
          });
          if (decision.action !== 'wrap') return;
          const wrapper = `${options.wrapperCommand} run -- `;
          if (decision.envAt === decision.wrapperAt) insertions.push({ offset: decision.envAt, text: prefix + wrapper });
          else {
            if (prefix !== '') insertions.push({ offset: decision.envAt, text: prefix });
            insertions.push({ offset: decision.wrapperAt, text: wrapper });
          }
        });
      }
    }
    const wrapped = segments.filter((segment) => segment.action === 'wrap').length;
    if (wrapped === 0) {
      const only = segments.length === 1 ? segments[0] : undefined;
      return untouched(only !== undefined ? `left as typed: ${only.reason}` : 'no command can be wrapped', segments);
    }
    const rewritten = applyInsertions(command, insertions);
    if (!sameShape(parsed.script.list, rewritten)) return untouched('the rewrite would change the command structure', segments);
    return { command: rewritten, segments, insertions, reason: `wrapped ${wrapped} of ${segments.length} commands` };
  } catch (error) {
    return untouched(`internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Why the command's place in the line forbids wrapping, or null. A pipe producer's output is another program's
 * input, which a filter would change; `|&` merges stderr into that input; a background job's output is not the
 * agent's to read and its `$!` must stay the real program.
 */
function positionReason(pipeline: Pipeline, index: number, background: boolean): string | null {
  if (background) return 'runs in the background (&)';
  if (pipeline.operators.includes('|&')) return 'pipeline with |&';
  if (index < pipeline.commands.length - 1) return 'its output feeds a pipe';
  return null;
}

/** Validates options that are ours to trust only once: the wrapper must be plain static words. */
function readOptions(options: RewriteOptions): DecideContext | string {
  for (const name of Object.keys(options.attributionEnv)) {
    if (!ENV_NAME.test(name)) return `invalid attribution variable name ${JSON.stringify(name)}`;
  }
  const parsed = parseShell(options.wrapperCommand);
  const item = parsed.kind === 'parsed' && parsed.script.list.items.length === 1 ? parsed.script.list.items[0] : undefined;
  const only = item?.pipelines.length === 1 ? item.pipelines[0]?.commands : undefined;
  const simple = only?.length === 1 ? only[0] : undefined;
  if (simple?.kind !== 'simple' || simple.assignments.length > 0 || simple.redirects.length > 0 || simple.words.length === 0) {
    return 'the wrapper command is not a plain command';
  }
  const values = simple.words.map((word) => literalValue(word.text));
  const ownPath = values.at(-1);
  if (values.some((value) => value === null) || typeof ownPath !== 'string') return 'the wrapper command is not static';
  return { options, ownPath };
}

function envPrefix(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${shellQuote(value)} `)
    .join('');
}

function applyInsertions(command: string, insertions: readonly RewriteInsertion[]): string {
  let out = command;
  for (const { offset, text } of [...insertions].sort((a, b) => b.offset - a.offset)) {
    out = out.slice(0, offset) + text + out.slice(offset);
  }
  return out;
}

/** A last guard: the rewritten line must parse into the same simple commands with the same redirects. */
function sameShape(original: List, rewritten: string): boolean {
  const after = parseShell(rewritten);
  if (after.kind !== 'parsed') return false;
  const a = simpleCommands(original);
  const b = simpleCommands(after.script.list);
  return a.length === b.length && a.every((command, i) => command.redirects.length === b[i]?.redirects.length);
}
