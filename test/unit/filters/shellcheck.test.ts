/**
 * shellcheck recognised by its output alone (run from `./scripts/lint.sh`, `make lint`, `mise run lint`): the tty
 * format's `In FILE line N:` blocks and `-f gcc` lines become one grouped diagnostics view that keeps every SC code,
 * location and message, and stashes the raw bytes. Fixtures: test/fixtures/shellcheck (SOURCE.md: the scripts of four
 * projects, ShellCheck 0.9.0).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recognise, recognisedView } from '../../../src/filters/recognise.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import { stripAnsi } from '../../../src/filters/text.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { ROOT } from '../../helpers/root.ts';
import { DEFAULT_CONTEXT } from '../../helpers/streams.ts';

const DIR = join(ROOT, 'test', 'fixtures', 'shellcheck');
const CASES = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

function load(name: string): CommandOutput {
  const stdout = readFileSync(join(DIR, name, 'stdout.txt'), 'utf8');
  return { argv: ['./scripts/lint.sh'], stdout, stderr: '', exitCode: Number(readFileSync(join(DIR, name, 'exit_code'), 'utf8').trim()) };
}

/** Every diagnostic the raw output names, as `file line code` and its message, read with patterns of this test's own. */
function rawDiagnostics(text: string): { key: string; message: string }[] {
  const found: { key: string; message: string }[] = [];
  let where = '';
  for (const line of stripAnsi(text).split('\n').map((l) => l.replace(/\r$/, ''))) {
    const header = /^In (\S+) line (\d+):$/.exec(line);
    if (header !== null) where = `${header[1]} ${header[2]}`;
    const marker = /^ *\^[-^]* (SC\d+) \(\w+\): (.*)$/.exec(line);
    if (marker !== null) found.push({ key: `${where} ${marker[1]}`, message: marker[2] ?? '' });
    const gcc = /^(\S+?):(\d+):\d+: \w+: (.*) \[(SC\d+)\]$/.exec(line);
    if (gcc !== null) found.push({ key: `${gcc[1]} ${gcc[2]} ${gcc[4]}`, message: gcc[3] ?? '' });
  }
  return found;
}

/** The view's diagnostics as `file line code`, from its `file (n):` groups and `line:col … SCxxxx` rows. */
function shownKeys(view: string): Set<string> {
  const keys = new Set<string>();
  let file = '';
  for (const line of view.split('\n')) {
    const group = /^(\S+) \(\d+\):$/.exec(line);
    if (group !== null) file = group[1] ?? '';
    const code = /\b(SC\d{4})\b/.exec(line)?.[1];
    if (code === undefined) continue;
    for (const m of line.matchAll(/(?:^|[\s,])(\d+):\d+\b/g)) keys.add(`${file} ${m[1]} ${code}`);
  }
  return keys;
}

/** A message is visible when each of its words outside quotes is in the view (quoted names may be listed apart). */
const messageShown = (message: string, view: string): boolean => message.replace(/'[^']*'|"[^"]*"|`[^`]*`/g, ' ').split(/\s+/).filter((w) => w !== '').every((w) => view.includes(w));

const PERTURB: Readonly<Record<string, (text: string) => string>> = {
  none: (text) => text,
  colour: (text) => text.split('\n').map((line) => (line === '' ? line : `\x1b[1;33m${line}\x1b[0m`)).join('\n'),
  crlf: (text) => text.replace(/\n/g, '\r\n'),
  'leading warning': (text) => `warning: shellcheck not pinned in .tool-versions\n${text}`,
  // A client's cut of a long result: the first 60 lines only.
  cut: (text) => `${text.split('\n').slice(0, 60).join('\n')}\n`,
};

describe('shellcheck by content', () => {
  it('has real outputs of four projects in both formats', () => {
    expect(CASES.filter((c) => c.startsWith('tty-')).length).toBeGreaterThanOrEqual(3);
    expect(CASES.filter((c) => c.startsWith('gcc-')).length).toBeGreaterThanOrEqual(2);
  });

  for (const name of CASES) {
    for (const [how, perturb] of Object.entries(PERTURB)) {
      it(`${name} (${how}): recognised, shorter, every code, location and message kept, raw bytes stashed`, () => {
        const raw = load(name);
        const output = { ...raw, stdout: perturb(raw.stdout) };
        expect(recognise(output.stdout, output.stderr)[0]?.filter.name).toBe('shellcheck');
        const view = recognisedView(output, DEFAULT_CONTEXT);
        expect(view).not.toBeNull();
        if (view === null) return;
        expect(view.output.length).toBeLessThan(output.stdout.length);
        const shown = stripAnsi(view.output);
        const keys = shownKeys(shown);
        const expected = rawDiagnostics(output.stdout);
        expect(expected.length).toBeGreaterThan(0);
        for (const d of expected) {
          expect(keys, d.key).toContain(d.key);
          expect(messageShown(d.message, shown), d.message).toBe(true);
        }
        if (how === 'leading warning') expect(shown).toContain('warning: shellcheck not pinned');
        expect(view.stash.map((entry) => Buffer.from(entry.bytes).toString('utf8'))).toContain(output.stdout);
      });
    }
  }

  it('gives the same line:col as -f gcc for the same script (tabs count one column)', () => {
    const tty = recognisedView(load('tty-perf-daemon'), DEFAULT_CONTEXT);
    const gcc = recognisedView(load('gcc-perf-daemon'), DEFAULT_CONTEXT);
    expect(tty !== null && gcc !== null).toBe(true);
    const locations = (text: string): string[] => [...text.matchAll(/(?:^|[\s,])(\d+:\d+)\b/g)].map((m) => m[1] ?? '').sort();
    expect(locations(tty?.output ?? '')).toEqual(locations(gcc?.output ?? ''));
  });

  it('drops the closing wiki links (each repeats a code and message) and keeps every `Did you mean:` fix', () => {
    const view = recognisedView(load('tty-git-resurrect'), DEFAULT_CONTEXT)?.output ?? '';
    expect(view).not.toContain('https://www.shellcheck.net/wiki/');
    const raw = load('tty-git-resurrect').stdout.split('\n');
    const fixes = raw.flatMap((line, i) => (line.startsWith('Did you mean:') ? [raw[i + 1] ?? ''] : []));
    expect(fixes.length).toBeGreaterThan(5);
    for (const fix of fixes) expect(view.split('\n'), fix).toContain(fix);
  });

  it('is the view of `shellcheck` by name too', () => {
    expect(findFilter(['shellcheck', 'x.sh'])?.name).toBe('shellcheck');
  });

  it('declines what is not shellcheck', () => {
    const prose = 'In the README line 3: we explain the flags.\nThe caret ^-- marks nothing here.\n';
    const gccC = 'main.c:3:5: warning: unused variable [-Wunused-variable]\nmain.c:9:1: error: expected ;\n';
    expect(recognise(prose, '').map((r) => r.filter.name)).not.toContain('shellcheck');
    expect(recognise(gccC, '').map((r) => r.filter.name)).not.toContain('shellcheck');
  });
});
