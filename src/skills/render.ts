/**
 * `syt skills` as text (pure): one row per skill, cut to the width and never wrapped (names are cut with "…"), then
 * the persistent layer's figures and how the Skill-tool hook answers, wrapped to the same width.
 */
import type { SkillRow, SkillsReport } from './budget.ts';
import { percentOver } from './loader.ts';

const n = (value: number): string => value.toLocaleString('en-US');

const LEVEL_LABEL: Record<SkillRow['if_loaded'], string> = { within: 'fits', warn: 'note', compact: 'note+compact', reject: 'refused' };

/** The figures of the header: what every request carries before any skill is loaded. */
function layerLine(report: SkillsReport): string {
  const layer = report.layer;
  const over = layer.used > layer.budget ? `, ${percentOver(layer)}% over` : '';
  return `Persistent layer: ${n(layer.used)} of ${n(layer.budget)} tokens in every request${over} (context files ${n(report.always_tokens)}, skill listing ${n(report.listing_tokens)}); ${report.profile} profile, ${n(report.context_window)}-token window. o200k token counts.`;
}

export function renderSkills(report: SkillsReport, width: number): string {
  const cols = Math.max(60, Math.min(width, 200));
  if (report.skills.length === 0) return wrap(`No skills found: Claude Code lists none from this project, the user's skills or enabled plugins (its own built-in skills are not on disk and not counted). ${layerLine(report)}`, cols);
  const fixed = [
    { title: 'from', width: 7, cell: (r: SkillRow) => r.source },
    { title: 'every req', width: 9, cell: (r: SkillRow) => n(r.listed_tokens), right: true },
    { title: 'loaded', width: 8, cell: (r: SkillRow) => n(r.body_tokens), right: true },
    { title: 'layer', width: 10, cell: (r: SkillRow) => r.layer },
    { title: 'if loaded', width: 12, cell: (r: SkillRow) => LEVEL_LABEL[r.if_loaded] },
  ];
  const nameWidth = Math.max(8, Math.min(40, cols - fixed.reduce((sum, c) => sum + c.width + 1, 0)));
  const cut = (text: string, w: number): string => (text.length > w ? `${text.slice(0, w - 1)}…` : text);
  const pad = (text: string, w: number, right = false): string => (right ? cut(text, w).padStart(w) : cut(text, w).padEnd(w));
  const row = (name: string, cells: readonly string[]): string => [pad(name, nameWidth), ...fixed.map((c, i) => pad(cells[i] ?? '', c.width, c.right === true))].join(' ').trimEnd();
  const differ = report.skills.filter((r) => r.if_loaded !== r.if_loaded_counted);
  const lines = [
    row('skill', fixed.map((c) => c.title)),
    ...report.skills.map((r) => row(r.name, fixed.map((c) => c.cell(r)))),
    '',
    ...wrap(layerLine(report), cols).split('\n'),
    ...wrap('"every req": the listing line each request carries; "loaded": what calling the skill adds, for the rest of the session. "if loaded": what the Skill-tool hook (installed by syt init) answers when the skill alone is loaded: it lets a load through within budget, adds a note up to 20% over (asking for compaction past 5%), and refuses it above.', cols).split('\n'),
    ...(differ.length === 0 ? [] : wrap(`The hook counts with the fast estimate (the tokenizer is too slow to load on the hook path); by o200k counts the answer would be: ${differ.map((r) => `${r.name} ${LEVEL_LABEL[r.if_loaded_counted]}`).join(', ')}.`, cols).split('\n')),
  ];
  return lines.join('\n');
}

/** Greedy word wrap. */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/u)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}
