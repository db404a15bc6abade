import { describe, expect, it } from 'vitest';
import { compactListing } from '../../../src/filters/container/table.ts';
import { findFilter } from '../../../src/filters/registry.ts';
import { alignedToTsv } from '../../../src/reduce/aligned-table.ts';
import type { CommandOutput } from '../../../src/filters/types.ts';
import { stashKeyFor } from '../../../src/store/marker.ts';
import type { CorpusCase } from '../../helpers/fixtures.ts';
import { DEFAULT_CONTEXT, streamViews, type StreamViews } from '../../helpers/streams.ts';
import { CONTAINER_DIR, loadUnseen } from '../../helpers/unseen.ts';
import { argvForCase, measure } from './corpus.ts';

// Real docker, podman and kubectl listings from those tools' repositories (test/fixtures/container/SOURCE.md).
const cases = loadUnseen(CONTAINER_DIR);
const byId = (id: string): CorpusCase => {
  const c = cases.find((x) => x.id === id);
  if (c === undefined) throw new Error(`no case ${id}`);
  return c;
};

/** The filter's view of `stdout` as if `c`'s command printed it; null when it declines. Every lossy view must stash
 * the raw stdout byte for byte, whatever the input. */
function view(c: CorpusCase, stdout = c.stdout): StreamViews | null {
  const argv = argvForCase(c.command);
  if (argv === null) throw new Error(`${c.id}: not a single command`);
  const output: CommandOutput = { argv, stdout, stderr: c.stderr, exitCode: c.exitCode };
  const candidate = findFilter(argv)?.apply(output, DEFAULT_CONTEXT) ?? null;
  const views = streamViews(candidate, output);
  if (candidate !== null && views !== null) {
    expect(Buffer.byteLength(candidate.output), `${c.id}: never larger`).toBeLessThan(Buffer.byteLength(stdout));
    if (views.stdout.lossy) {
      const entry = candidate.stash.find((e) => e.key === stashKeyFor(stdout));
      expect(Buffer.from(entry?.bytes ?? []).equals(Buffer.from(stdout)), `${c.id}: stash holds the raw output`).toBe(true);
    } else {
      expect(views.stdout.text, `${c.id}: a lossless view is the output`).toBe(stdout);
    }
  }
  return views;
}

/**
 * Checks a tab-separated view against the raw listing without the filter's column finder: per blank-line separated
 * table, the header cells are the raw header's titles (split at runs of 2+ spaces), every row has that many cells,
 * its non-empty cells are the raw line's words in order, and each cell lies under its own column's title (overlaps
 * the span from that title's start to the next one's; right-aligned numbers end inside it).
 */
function expectCells(raw: string, tsv: string): void {
  const rawBlocks = raw.replace(/\n$/, '').split('\n\n');
  const tsvBlocks = tsv.replace(/\n$/, '').split('\n\n');
  expect(tsvBlocks).toHaveLength(rawBlocks.length);
  rawBlocks.forEach((block, b) => {
    const rawLines = block.split('\n');
    const rows = (tsvBlocks[b] ?? '').split('\n').map((l) => l.split('\t'));
    const header = rawLines[0] ?? '';
    const found = [...header.matchAll(/\S+(?: \S+)*/g)];
    const titles = found.map((m) => m[0]);
    const starts = found.map((m) => m.index);
    expect(rows[0]).toEqual(titles);
    expect(rows).toHaveLength(rawLines.length);
    rawLines.forEach((line, r) => {
      const cells = rows[r] ?? [];
      expect(cells, line).toHaveLength(titles.length);
      expect(cells.filter((x) => x !== '').join(' ')).toBe(line.trim().replace(/ +/g, ' '));
      let at = 0;
      cells.forEach((cell, j) => {
        if (cell === '') return;
        const pos = line.indexOf(cell, at);
        at = pos + cell.length;
        const from = starts[j] ?? 0;
        const to = starts[j + 1] ?? Infinity;
        expect(pos < to && at > from, `${line}: "${cell}" under ${titles[j]}`).toBe(true);
      });
    });
  });
}

/** The same cells laid out again the way tabwriter does, each column padded to its widest cell plus `gutter`. */
function relayout(tsv: string, gutter: number): string {
  const blocks = tsv.replace(/\n$/, '').split('\n\n').map((block) => {
    const rows = block.split('\n').map((l) => l.split('\t'));
    const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
    return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + gutter))).join('').trimEnd()).join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

// Recognised listings: the cells the filter reads, whether or not showing them pays.
const compacted = cases.filter((c) => compactListing(c.stdout) !== null);
const cellsOf = (c: CorpusCase): string => compactListing(c.stdout) ?? '';

describe('container listings from docker/cli, podman and kubectl', () => {
  it('every case goes to the container filter; the view is smaller, exactly the cells read, or the filter declines', () => {
    for (const c of cases) {
      const m = measure(c);
      expect(m.filter, c.id).toBe('container');
      expect(m.after, c.id).toBeLessThanOrEqual(m.before);
      if (m.view === null) continue;
      expect(m.after, c.id).toBeLessThan(m.before);
      expect(m.view.stdout).toEqual({ text: cellsOf(c), lossy: true });
    }
  });

  it('reads tables of all three tools, each cell exactly as in the raw output and in its own column', () => {
    const projects = new Set(compacted.map((c) => c.id.split('-')[0]));
    expect([...projects].sort()).toEqual(['docker', 'kubectl', 'podman']);
    expect(compacted.length).toBeGreaterThanOrEqual(15);
    for (const c of compacted) expectCells(c.stdout, cellsOf(c));
  });

  it('shows the tab-separated view only where it saves o200k tokens: wide padding, not 2-3 space gutters', () => {
    // Measured by scripts/bench-unseen.mjs (o200k): a tab costs about what a 2-8 space gutter did, so views of the
    // docker 28, podman and kubectl tables here saved a few tokens at most, and three grew by their retrieval line.
    const shown = cases.filter((c) => view(c) !== null).map((c) => c.id);
    expect(shown).toEqual(['docker-images-docs', 'docker-images-no-trunc-docs']);
  });

  it('docker ps and images: empty PORTS and EXTRA cells stay empty, right-aligned sizes stay in their column', () => {
    const ps = cellsOf(byId('docker-ps-golden')).split('\n');
    expect(ps[1]).toBe('container_id\tbusybox:latest\t"top"\tAbout a minute ago\tUp 1 minute\t\tc1');
    expect(ps[3]).toBe('container_id\tbusybox:latest\t"top"\tAbout a minute ago\tUp 1 minute\t80-82/tcp\tc3');
    const images = cellsOf(byId('docker-images-all-golden')).split('\n');
    expect(images[1]).toBe('myimage:latest\t87428fc52280\t0B\t0B\t');
    const exited = cellsOf(byId('docker-ps-exited-docs')).split('\n');
    expect(exited[2]).toBe("106ea823fe4e\tfedora:latest\t/bin/sh -c 'bash -l'\t2 weeks ago\tExited (0) 2 weeks ago\t\tdetermined_albattani");
  });

  it('kubectl get all and get a b: one table per kind, each on its own columns, the blank line between kept', () => {
    expect(cellsOf(byId('kubectl-get-all'))).toBe(
      'NAME\tREADY\tSTATUS\tRESTARTS\tAGE\npod/foo\t0/0\t\t0\t<unknown>\npod/bar\t0/0\t\t0\t<unknown>\n\n' +
        'NAME\tTYPE\tCLUSTER-IP\tEXTERNAL-IP\tPORT(S)\tAGE\nservice/baz\tClusterIP\t<none>\t<none>\t<none>\t<unknown>\n',
    );
    expect(cellsOf(byId('kubectl-get-services-nodes')).split('\n').slice(-2)).toEqual(['node/foo\tUnknown\t<none>\t<unknown>\t', '']);
  });

  it('declines listings whose rows stray into a gutter (hand-edited man page rows) instead of merging columns', () => {
    // podman-ps.1's last row starts NAMES two columns early; docker's reference pads a 64-character ID with one space.
    for (const id of ['podman-ps-running-docs', 'docker-ps-no-trunc-docs']) {
      expect(compactListing(byId(id).stdout), id).toBeNull();
      // Nor does the content fallback (table_compact, the same column finder) guess them.
      expect(alignedToTsv(byId(id).stdout), id).toBeNull();
    }
    // Before alignedToTsv checked its first line, PORTS and NAMES came out as one cell, `centos-test` read as a port.
    const fixed = byId('podman-ps-running-docs').stdout.replace('Up 23 seconds                                         test', 'Up 23 seconds                                           test');
    expectCells(fixed, compactListing(fixed) ?? '');
  });

  it('declines what is not one of these listings', () => {
    const pods = byId('kubectl-get-pods-watch');
    expect(view(pods, 'No resources found in test namespace.\n')).toBeNull();
    expect(view(pods, '')).toBeNull();
    expect(view(pods, `${pods.stdout}\n\n${pods.stdout}`)).toBeNull();
    expect(view(pods, pods.stdout.replace(/ {3}/g, '\t'))).toBeNull();
  });
});

describe('perturbed listings give the same cells or decline', () => {
  /** The cells read from a perturbed output (null: declined); its view, if any, is checked by `view`. */
  const read = (c: CorpusCase, stdout: string): string | null => {
    const shown = view(c, stdout);
    const cells = compactListing(stdout);
    // (A view of output without a final newline gets one before its retrieval line.)
    if (shown !== null) expect(shown.stdout.text.replace(/\n$/, '')).toBe(cells?.replace(/\n$/, ''));
    return cells;
  };

  it.each(compacted.map((c) => c.id))('%s: narrower and wider padding give the same cells', (id) => {
    const c = byId(id);
    const tsv = cellsOf(c);
    for (const gutter of [2, 3, 8, 20]) expect(read(c, relayout(tsv, gutter)), `gutter ${gutter}`).toBe(tsv);
    // Padding that wide always pays for its retrieval line.
    expect(view(c, relayout(tsv, 20))?.stdout.text).toBe(tsv);
  });

  it.each(compacted.map((c) => c.id))('%s: CRLF, colour, a leading warning, a cut last line', (id) => {
    const c = byId(id);
    const tsv = cellsOf(c);
    const raw = c.stdout;
    // Windows line ends: declined (the raw output, not a guess).
    expect(read(c, raw.replace(/\n/g, '\r\n'))).toBeNull();
    // A bold header and coloured rows (whole lines, as a terminal theme would): colour goes, cells stay.
    const coloured = raw.replace(/^(.+)$/gm, (line, _l, offset: number) => (offset === 0 ? `\x1b[1m${line}\x1b[0m` : `\x1b[32m${line}\x1b[0m`));
    expect(read(c, coloured)).toBe(tsv);
    // A coloured first cell padded by its byte count (escape codes counted as width) shifts the rest of its row left
    // once colour is gone: declined or still the raw cells.
    const cellColoured = raw.replace(/\n(\S+)( +)/, (_m, cell: string, pad: string) => `\n\x1b[31m${cell}\x1b[0m${pad.slice(Math.min(9, pad.length - 1))}`);
    const cellCells = read(c, cellColoured);
    if (cellCells !== null) expectCells(raw, cellCells);
    // A warning printed before the table is not a header: declined.
    expect(read(c, `WARNING: The requested image's platform (linux/arm64) does not match the detected host platform\n${raw}`)).toBeNull();
    // Output cut inside its last row (a killed or paged command): the rows before keep their cells.
    const lastRow = raw.trimEnd().lastIndexOf('\n') + 1;
    const cut = raw.slice(0, lastRow + Math.ceil((raw.trimEnd().length - lastRow) / 2));
    const cutCells = read(c, cut);
    if (cutCells !== null) {
      const rows = cutCells.split('\n');
      expect(rows.slice(0, -1).join('\n')).toBe(tsv.split('\n').slice(0, rows.length - 1).join('\n'));
      expect(rows.at(-1)?.split('\t').filter((x) => x !== '').join(' ')).toBe(cut.slice(lastRow).trim().replace(/ +/g, ' '));
    }
  });
});
