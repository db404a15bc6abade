import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandsOf } from '../../../src/compress/command-source.ts';
import { invertView } from '../../../src/compress/inverse.ts';
import { foldLines, foldLog, isImportantLogLine } from '../../../src/compress/log.ts';
import { cleanTerminalText } from '../../../src/reduce/terminal.ts';
import { routeContent } from '../../../src/compress/policy.ts';
import { arbitrate } from '../../../src/runtime/arbitrate.ts';
import { anchorToOriginal, type Candidate } from '../../../src/reduce/candidate.ts';
import { contentCases, type ContentCase } from './content-cases.ts';
import { markersMatchStash } from './reconstruct.ts';

const options = { searchPathSharing: true };

/** The view the policy adopts for a Bash read of `content`, as run and post_tool show it. */
function viewOf(content: string, command: string): Candidate | null {
  const routed = routeContent(content, { origin: 'command_output', toolName: 'Bash', commands: commandsOf(command) }, options);
  return arbitrate(content, routed.candidates.map((c) => anchorToOriginal(c, content)))?.candidate ?? null;
}

/** Real-world variants of a captured output. */
const PERTURBATIONS: Readonly<Record<string, (text: string) => string>> = {
  crlf: (text) => text.replace(/\r?\n/g, '\r\n'),
  colour: (text) => text.replace(/^(\S+)/gm, '\x1b[36m$1\x1b[0m'),
  truncated: (text) => text.slice(0, Math.floor(text.length * 0.6)),
  'leading junk': (text) => `warning: could not read ~/.config/tool.rc, using defaults\n${text}`,
};

/** Every view, whatever its input: honest about what it can give back. */
function expectHonest(view: Candidate, original: string, where: string): void {
  expect(markersMatchStash(view), where).toBe(true);
  if (view.recoverability === 'lossless') {
    expect(invertView(view.output, view.operations), where).toBe(original);
    return;
  }
  // Every marker of a shown view names the one stash entry holding the whole original (anchorToOriginal).
  expect(view.stash.length, where).toBe(1);
  expect(Buffer.from(view.stash[0]?.bytes ?? []).toString('utf8'), where).toBe(original);
}

/** Fresh cases of a kind, at least three sources each (test/fixtures/content/SOURCES.md). */
const KINDS: readonly { kind: string; op: RegExp; minSaving: number }[] = [
  { kind: 'lockfile', op: /lockfile_summary/, minSaving: 0.5 },
  { kind: 'jsonl', op: /jsonl_schema/, minSaving: 0.9 },
  { kind: 'table', op: /table_sample/, minSaving: 0.8 },
  { kind: 'minified', op: /minified_head/, minSaving: 0.9 },
  { kind: 'json', op: /json_|toon/, minSaving: 0.02 },
  { kind: 'log', op: /log_fold|ansi_strip/, minSaving: 0.1 },
];

const saving = (before: string, after: string): number => 1 - after.length / before.length;

describe.each(KINDS)('$kind files from other projects', ({ kind, op, minSaving }) => {
  const cases = contentCases(kind);

  it('has at least three sources', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases.map((c) => [c.id, c] as [string, ContentCase]))('%s: shortened recoverably', (_id, c) => {
    const view = viewOf(c.stdout, c.command);
    if (kind === 'log' && view === null) {
      // A log with nothing to fold stays as it is; the policy never invents a view.
      expect(foldLog({ content: c.stdout, origin: 'command_output', toolName: 'Bash', contentType: 'build_log' }, options)).toBeNull();
      return;
    }
    expect(view?.operations.join('+'), c.id).toMatch(op);
    if (view === null) return;
    expectHonest(view, c.stdout, c.id);
    expect(saving(c.stdout, view.output), c.id).toBeGreaterThan(minSaving);
  });

  it.each(cases.map((c) => [c.id, c] as [string, ContentCase]))('%s: every perturbation gets an honest view or none', (_id, c) => {
    for (const [name, perturb] of Object.entries(PERTURBATIONS)) {
      const text = perturb(c.stdout);
      const view = viewOf(text, c.command);
      if (view === null) continue;
      expectHonest(view, text, `${c.id} ${name}`);
      expect(Buffer.byteLength(view.output), `${c.id} ${name}`).toBeLessThan(Buffer.byteLength(text));
    }
  });
});

describe('perturbations that must still be recognised', () => {
  it.each([
    ['lockfile', ['crlf', 'truncated', 'leading junk']],
    ['jsonl', ['crlf', 'truncated', 'leading junk']],
    ['table', ['crlf', 'truncated', 'leading junk']],
    ['minified', ['crlf', 'truncated', 'leading junk']],
    ['log', ['crlf', 'colour', 'truncated', 'leading junk']],
  ] as const)('%s: %j', (kind, names) => {
    for (const c of contentCases(kind)) {
      const plain = viewOf(c.stdout, c.command);
      if (plain === null) continue;
      for (const name of names) {
        const view = viewOf(PERTURBATIONS[name]?.(c.stdout) ?? '', c.command);
        expect(view?.operations.join('+'), `${c.id} ${name}`).toMatch(KINDS.find((k) => k.kind === kind)?.op ?? /x/);
      }
    }
  });
});

describe('source, docs and config read through the shell', () => {
  it.each(contentCases('editable').map((c) => [c.id, c] as [string, ContentCase]))('%s stays byte-exact, perturbed or not', (_id, c) => {
    for (const text of [c.stdout, ...Object.values(PERTURBATIONS).map((p) => p(c.stdout))]) {
      expect(viewOf(text, c.command)).toBeNull();
    }
  });
});

describe('log folding keeps every error, warning and stack line', () => {
  const important = (text: string): string[] => cleanTerminalText(text).split('\n').filter((l) => l.trim() !== '' && isImportantLogLine(l));

  it('on every real log, plain and perturbed', () => {
    for (const c of contentCases('log')) {
      for (const text of [c.stdout, ...Object.values(PERTURBATIONS).map((p) => p(c.stdout))]) {
        const view = viewOf(text, c.command);
        if (view === null) continue;
        const shown = new Set(view.output.split('\n'));
        for (const line of important(text)) expect(shown.has(line), `${c.id}: ${line}`).toBe(true);
      }
    }
  });

  const level = fc.constantFrom('INFO', 'DEBUG', 'INFO', 'INFO', 'WARN', 'ERROR');
  const logLine = fc
    .tuple(fc.integer({ min: 0, max: 59 }), level, fc.constantFrom('GET /api/items', 'request served', 'cache miss for key', 'connect() failed'), fc.nat({ max: 5000 }), fc.uuid())
    .map(([s, lvl, msg, n, id]) => `2026-12-01T10:00:${String(s).padStart(2, '0')}.123Z ${lvl} ${msg} ${n} ${id}`);
  const stackLine = fc.constantFrom('    at handler (/srv/app/index.js:12:5)', '  File "app.py", line 3, in main', 'Caused by: java.io.IOException');

  it('on generated logs (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 8, arbitrary: logLine }, { weight: 1, arbitrary: stackLine }), { minLength: 1, maxLength: 300 }), fc.boolean(), (lines, repeat) => {
        const all = repeat ? lines.flatMap((l) => [l, l]) : lines;
        const { lines: folded } = foldLines(all);
        const shown = new Set(folded);
        for (const line of all) if (isImportantLogLine(line)) expect(shown.has(line), line).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
