import { invocation, scriptName } from '../../reduce/argv.ts';
import { buildLogView } from '../build/native.ts';
import { stripAnsi } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';
import { BUN_RAN, bunTestView, jestView, mochaView, vitestView } from './js.ts';
import { cargoTestView, ctestView, goTestView } from './native.ts';
import { pytestView, unittestView } from './python.ts';
import { tapView } from './tap.ts';

type View = (name: string, output: CommandOutput) => StreamCandidate | null;

function byTool(name: string, tools: readonly string[], view: View, extra?: (args: readonly string[]) => boolean): CommandFilter {
  return {
    name,
    matches(argv) {
      const inv = invocation(argv);
      return inv !== null && tools.includes(inv.tool) && (extra === undefined || extra(inv.args));
    },
    apply: (output) => view(name, output),
  };
}

export const vitestFilter = byTool('vitest', ['vitest'], vitestView);
export const jestFilter = byTool('jest', ['jest'], jestView);
export const mochaFilter = byTool('mocha', ['mocha', '_mocha'], mochaView);
export const pytestFilter = byTool('pytest', ['pytest', 'py.test'], pytestView);
export const unittestFilter = byTool('unittest', ['unittest'], unittestView);
export const goTestFilter = byTool('go-test', ['go'], goTestView, (args) => args[0] === 'test');
export const cargoTestFilter = byTool('cargo-test', ['cargo'], cargoTestView, (args) => args[0] === 'test' || args[0] === 't');
export const ctestFilter = byTool('ctest', ['ctest'], ctestView);
/** `node --test` prints TAP when stdout is not a terminal (Node 20). */
export const nodeTestFilter = byTool('node-test', ['node'], tapView, (args) => args.some((arg) => arg === '--test' || arg.startsWith('--test-')));

/** Recognises a test runner from its output, for `npm test`, `make test` and the like. */
export function sniffTestView(name: string, output: CommandOutput): StreamCandidate | null {
  const text = stripAnsi(`${output.stdout}\n${output.stderr}`);
  if (/^\s*Test Files\s{2}/m.test(text)) return vitestView(name, output);
  if (/^Tests:\s+.*\d+ total/m.test(text)) return jestView(name, output);
  if (/^\s+\d+ passing \(/m.test(text)) return mochaView(name, output);
  if (/^=+ .*(?:passed|failed|error).* in [\d.]+s.* =+$/m.test(text)) return pytestView(name, output);
  if (new RegExp(BUN_RAN.source, 'm').test(text)) return bunTestView(name, output);
  if (/^Ran \d+ tests? in /m.test(text)) return unittestView(name, output);
  if (/^test result: /m.test(text)) return cargoTestView(name, output);
  if (/^\d+% tests passed, /m.test(text)) return ctestView(name, output);
  if (/^(?:ok|FAIL)\s+\S+\s+(?:[\d.]+s|\(cached\))/m.test(text)) return goTestView(name, output);
  if (/^TAP version \d+$/m.test(text)) return tapView(name, output);
  return null;
}

/** `npm test`, `pnpm test`, `yarn test`, `bun test`, `npm run test*`, `make test|check`: the runner is recognised from output. */
export const scriptTestFilter: CommandFilter = {
  name: 'script-test',
  matches(argv) {
    const script = scriptName(argv);
    return script !== null && /^(?:test|tests|check|unit|spec|e2e)(?:[:_-].*)?$/.test(script.script);
  },
  // A make target that runs no runner we know (a project's own test binary) is still a build log: compiler
  // commands and make's directory chatter fold, everything else stays.
  apply: (output) => sniffTestView('script-test', output) ?? (scriptName(output.argv)?.runner === 'make' ? buildLogView('script-test', output) : null),
};

export const TEST_FILTERS: readonly CommandFilter[] = [
  vitestFilter,
  jestFilter,
  mochaFilter,
  pytestFilter,
  unittestFilter,
  goTestFilter,
  cargoTestFilter,
  ctestFilter,
  nodeTestFilter,
  scriptTestFilter,
];
