import { invocation, scriptName } from '../../reduce/argv.ts';
import { stripAnsi } from '../text.ts';
import type { CommandFilter, CommandOutput, StreamCandidate } from '../types.ts';
import { sniffTestView } from '../test/index.ts';
import { eslintView, lineDiagnosticsView } from './lint.ts';
import { cargoBuildView, cmakeConfigureView, buildLogView } from './native.ts';
import { shellcheckView } from './shellcheck.ts';
import { tscView } from './tsc.ts';

type View = (name: string, output: CommandOutput) => StreamCandidate | null;

function byTool(name: string, test: (tool: string, args: readonly string[]) => boolean, view: View): CommandFilter {
  return {
    name,
    matches(argv) {
      const inv = invocation(argv);
      return inv !== null && test(inv.tool, inv.args);
    },
    apply: (output) => view(name, output),
  };
}

export const tscFilter = byTool('tsc', (tool) => tool === 'tsc' || tool === 'vue-tsc', tscView);
export const eslintFilter = byTool('eslint', (tool) => tool === 'eslint', eslintView);
export const pyLintFilter = byTool('py-lint', (tool, args) => ['flake8', 'mypy', 'pyflakes', 'pycodestyle', 'pylint'].includes(tool) || (tool === 'ruff' && args[0] !== 'format'), lineDiagnosticsView);
export const markdownlintFilter = byTool('markdownlint', (tool) => tool === 'markdownlint' || tool === 'markdownlint-cli2', lineDiagnosticsView);
export const shellcheckFilter = byTool('shellcheck', (tool) => tool === 'shellcheck', shellcheckView);
export const goBuildFilter = byTool('go-build', (tool, args) => tool === 'go' && ['build', 'vet', 'install'].includes(args[0] ?? ''), lineDiagnosticsView);
export const cargoBuildFilter = byTool('cargo-build', (tool, args) => tool === 'cargo' && ['build', 'b', 'check', 'c', 'clippy'].includes(args[0] ?? ''), cargoBuildView);
export const cmakeFilter = byTool('cmake', (tool) => tool === 'cmake', (name, output) => {
  const inv = invocation(output.argv);
  return inv !== null && inv.args.includes('--build') ? buildLogView(name, output) : cmakeConfigureView(name, output);
});
export const makeFilter = byTool('make', (tool) => tool === 'make' || tool === 'gmake' || tool === 'ninja', (name, output) => sniffScript(name, output) ?? buildLogView(name, output));

/** Recognises what an npm script or make target ran from its output (tsc, eslint, tests, flake8-style lines). */
function sniffScript(name: string, output: CommandOutput): StreamCandidate | null {
  const text = stripAnsi(`${output.stdout}\n${output.stderr}`);
  if (/^.+\(\d+,\d+\): error TS\d+/m.test(text) || /^.+:\d+:\d+ - error TS\d+/m.test(text)) return tscView(name, output);
  if (/^\s+\d+:\d+\s+(?:error|warning)\s/m.test(text)) return eslintView(name, output);
  return sniffTestView(name, output) ?? (/^.+:\d+:\d+: [A-Z]+\d+ /m.test(text) ? lineDiagnosticsView(name, output) : null);
}

/** `npm run build|lint|…`, `pnpm lint`: whatever tool the script ran, recognised from its output. */
export const scriptFilter: CommandFilter = {
  name: 'script',
  matches: (argv) => {
    const script = scriptName(argv);
    return script !== null && script.runner !== 'make';
  },
  apply: (output) => sniffScript('script', output),
};

export const BUILD_FILTERS: readonly CommandFilter[] = [tscFilter, eslintFilter, shellcheckFilter, markdownlintFilter, pyLintFilter, goBuildFilter, cargoBuildFilter, cmakeFilter, makeFilter, scriptFilter];
