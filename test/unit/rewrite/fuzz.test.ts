import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planRewrite } from '../../../src/rewrite/plan.ts';
import { ATTRIBUTION, checkPlan, WRAPPER } from './check-plan.ts';

const WRAPPABLE = new Set(['git', 'ls', 'npm', 'cat', 'grep', 'head', 'cd', 'echo', 'sudo', 'tokenless', 'x']);
const isWrappable = (argv: readonly string[]): boolean => WRAPPABLE.has(argv[0] ?? '');

const PROGRAMS = ['git', 'ls', 'npm', 'cd', 'echo', 'sudo', 'tokenless', 'timeout 5', 'nice -n 1', 'env A=1', '"git"', 'g\\it', '$X', '~/x', 'x', 'exec', 'time', '!'];
const ARGS = ['status', '-la', '"a b"', "'c;d'", '$(ls)', '$(a && b)', '`date`', '${x}', '*.ts', '日本', '🎉', "$'\\n'", '$"x"', '"$(x ")")"', 'a#b', '\\&', '--', 'run'];
const REDIRECTS = ['>out', '2>&1', '2>/dev/null', '<in', '<<<x', '&>f', '3>&1', '>&2', '<<E\nbody && x\nE\n'];
const SEPARATORS = [' && ', ' || ', '; ', ' & ', ' | ', ' |& ', '\n', ' \\\n', ';', '&&'];
const STRUCTURE = ['(', ')', '{ ', '; }', 'FOO=1 ', 'TOKENLESS_DISABLED=1 ', ' # note', '(( 1 )) ', '[[ a ]] ', 'if ', '$(', '"', "'"];

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PROGRAMS) },
  { weight: 5, arbitrary: fc.constantFrom(...ARGS) },
  { weight: 2, arbitrary: fc.constantFrom(...REDIRECTS) },
  { weight: 3, arbitrary: fc.constantFrom(...SEPARATORS) },
  { weight: 2, arbitrary: fc.constantFrom(...STRUCTURE) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
);
const chaotic = fc.tuple(fc.array(piece, { maxLength: 24 }), fc.constantFrom(' ', '')).map(([parts, glue]) => parts.join(glue));
// Mostly well-formed lines, so that rewrites happen often enough to be checked.
const simple = fc
  .tuple(fc.constantFrom('', 'FOO=1 ', 'A="x y" '), fc.constantFrom(...PROGRAMS), fc.array(fc.constantFrom(...ARGS, ...REDIRECTS), { maxLength: 4 }))
  .map(([prefix, program, args]) => [prefix + program, ...args].join(' '));
const structured = fc
  .tuple(simple, fc.array(fc.tuple(fc.constantFrom(...SEPARATORS), simple), { maxLength: 4 }))
  .map(([first, rest]) => first + rest.map(([separator, command]) => separator + command).join(''));
const commandLine = fc.oneof(chaotic, structured);

describe('planRewrite on generated command lines', () => {
  it('never throws and only inserts our text at approved command starts', () => {
    const options = { wrapperCommand: WRAPPER, attributionEnv: ATTRIBUTION, isWrappable, exclude: ['npm publish'] };
    let rewritten = 0;
    fc.assert(
      fc.property(commandLine, (command) => {
        const plan = planRewrite(command, options);
        if (plan.command !== null) rewritten += 1;
        checkPlan(command, plan, isWrappable);
      }),
      { numRuns: 5000 },
    );
    // The generator must actually exercise rewrites, not only refusals.
    expect(rewritten).toBeGreaterThan(200);
  });

  it('survives arbitrary bytes', () => {
    const options = { wrapperCommand: WRAPPER, attributionEnv: ATTRIBUTION, isWrappable: () => true, exclude: [] };
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (command) => {
        checkPlan(command, planRewrite(command, options), () => true);
      }),
      { numRuns: 3000 },
    );
  });
});
