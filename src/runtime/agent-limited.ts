/**
 * Output the agent limited itself: `… | tokenless run -- head -2500` prints the lines the agent asked for out of
 * its own stdin. Shortening that further would count the agent's choice as our saving (README, "Honest accounting"),
 * so such a run passes through. The rule for "only selects lines" is the rewriter's (pipeline.ts); `sort`, `uniq` and
 * `cat` print every line they read, so they limit nothing.
 */
import { selectsLines } from '../rewrite/pipeline.ts';
import { shellQuote } from '../shell/quote.ts';
import type { SimpleCommand, Word } from '../shell/types.ts';

const LIMITING = new Set(['head', 'tail', 'grep', 'egrep', 'fgrep']);

export function limitsItsInput(argv: readonly string[]): boolean {
  const [program, ...args] = argv;
  if (program === undefined) return false;
  if (program === 'sed') return sedPrintsSelection(args);
  if (!LIMITING.has(program)) return false;
  let at = 0;
  const words: Word[] = argv.map((arg) => {
    const text = shellQuote(arg);
    const word = { text, start: at, end: at + text.length, flags: [] };
    at += text.length + 1;
    return word;
  });
  const simple: SimpleCommand = { kind: 'simple', start: 0, end: at, assignments: [], words, redirects: [], flags: [] };
  return selectsLines(simple);
}

/** `sed -n SCRIPT` (or `sed -n -e SCRIPT…`) on stdin: prints only what its script selects. */
function sedPrintsSelection(args: readonly string[]): boolean {
  if (!args.some((arg) => arg === '-n' || arg === '--quiet' || arg === '--silent' || /^-n[Ee]?$/.test(arg))) return false;
  const operands: string[] = [];
  let scripts = 0;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '-e' || arg === '--expression') {
      scripts += 1;
      i += 1;
    } else if (arg === '-f' || arg === '--file' || arg === '-i' || arg.startsWith('-i') || arg.startsWith('--in-place')) return false;
    else if (!arg.startsWith('-') || arg === '-') operands.push(arg);
  }
  // The first operand is the script unless -e gave one; any other operand is a file, which sed reads instead of stdin.
  return operands.length === (scripts > 0 ? 0 : 1);
}
