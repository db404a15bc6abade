/**
 * The savings dashboard: one self-contained HTML page, no JavaScript, no external resource (opens offline, safe to
 * mail). Absolute tokens and dollars, never ratios alone, with the formula next to each figure. Pure: data in, string out.
 */
import type { PricedSavings } from '../../src/cost/savings.ts';
import type { UsageGroup, UsageReport } from '../../src/cost/usage-report.ts';
import { NET_WHY, type NetFigure } from '../../src/cost/net.ts';
import type { TurnsReport } from '../../src/store/retrievals.ts';
import type { Summary } from '../../src/store/stats-query.ts';
import { int } from './format.ts';

export interface DashboardData {
  readonly generatedAt: string;
  readonly summary: Summary;
  readonly ours: PricedSavings;
  readonly usage: UsageReport;
  readonly transcriptSource: string;
  readonly notes: readonly string[];
  /** Retrievals and re-runs per view kind, and the net figure beside the gross one. */
  readonly turns: TurnsReport;
  readonly net: NetFigure;
}

const esc = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
const usd = (n: number): string => `${n < 0 ? '-' : ''}$${Math.abs(n) < 1 ? Math.abs(n).toFixed(4) : Math.abs(n).toFixed(2)}`;

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:24px auto;max-width:1100px;color:#1d2a30;background:#f7f9fa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #cfd8dc;padding-bottom:4px}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{background:#fff;border:1px solid #cfd8dc;border-radius:6px;padding:12px 16px;min-width:200px}
.card b{display:block;font-size:22px}.neg{color:#b3261e}.pos{color:#1b6e3a}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #dde3e6;padding:4px 8px;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left;max-width:360px;overflow:hidden;text-overflow:ellipsis}
.bar{display:inline-block;height:10px;background:#4fb3bf;vertical-align:middle}.formula{font-family:ui-monospace,monospace;font-size:12px;color:#37474f;background:#eef3f5;padding:6px 8px;border-radius:4px;margin:4px 0}
.muted{color:#607d8b;font-size:12px}`;

export function renderDashboard(data: DashboardData): string {
  const t = data.summary.totals;
  const u = data.usage.totals;
  const body = [
    `<h1>save-your-tokens: savings dashboard</h1>`,
    `<p class="muted">generated ${esc(data.generatedAt)} · ${int(t.records)} applied record(s) · transcripts: ${esc(data.transcriptSource)} (${int(u.requests)} request(s))</p>`,
    `<div class="cards">`,
    card('tokens saved by our operations (gross)', int(t.savedTokens), t.savedTokens),
    card('tokens saved, net of retrieval turns', int(data.net.net), data.net.net),
    card('dollars saved by our operations', usd(data.ours.dollars), data.ours.dollars),
    card('dollars saved by the provider cache', usd(u.cacheSaving), u.cacheSaving),
    card('dollars billed (transcripts)', usd(u.cost), 0),
    `</div>`,
    `<h2>Formulas</h2>`,
    formula(data.ours.formula),
    formula(data.usage.formulas.cacheSaving),
    formula(data.usage.formulas.billed),
    formula(`${data.net.formula} (${NET_WHY}): ${int(data.net.gross)} - ${int(data.net.retrieved)} - ${int(data.net.turnCost)} (${int(data.net.turns)} turn(s)) = ${int(data.net.net)}`),
    formula('tokens saved = before (capped at what the host shows: 30,000 characters of Bash output) - after; negative when an output grew'),
    `<h2>Our operations by day (UTC)</h2>`,
    savingsTable('day', data.ours.byDay),
    `<h2>Our operations by session</h2>`,
    savingsTable('session', data.ours.bySession),
    `<h2>Our operations by tool</h2>`,
    savingsTable('tool', data.ours.byTool),
    `<h2>Views that cost a turn, by view kind</h2>`,
    kindTable(data.turns),
    `<h2>Provider cache by day (UTC)</h2>`,
    usageTable('day', data.usage.byDay),
    `<h2>Provider cache by session</h2>`,
    usageTable('session', data.usage.bySession),
    `<h2>Provider cache by model</h2>`,
    usageTable('model', data.usage.byModel),
    `<h2>How these numbers were obtained</h2>`,
    `<ul>${data.notes.map((note) => `<li>${esc(note)}</li>`).join('')}</ul>`,
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>save-your-tokens savings</title><style>${STYLE}</style></head>
<body>
${body.join('\n')}
</body></html>
`;
}

function card(label: string, value: string, sign: number): string {
  const cls = sign < 0 ? ' class="neg"' : sign > 0 ? ' class="pos"' : '';
  return `<div class="card"><span class="muted">${esc(label)}</span><b${cls}>${esc(value)}</b></div>`;
}

function formula(text: string): string {
  return `<div class="formula">${esc(text)}</div>`;
}

function bar(value: number, max: number): string {
  const width = max <= 0 || value <= 0 ? 0 : Math.max(1, Math.round((value / max) * 160));
  return `<span class="bar" style="width:${width}px"></span>`;
}

function savingsTable(label: string, rows: readonly { key: string; savedTokens: number; dollars: number }[]): string {
  if (rows.length === 0) return '<p class="muted">no applied records</p>';
  const max = Math.max(...rows.map((r) => r.savedTokens));
  const body = rows
    .map((r) => `<tr><td>${esc(r.key)}</td><td class="${r.savedTokens < 0 ? 'neg' : ''}">${int(r.savedTokens)}</td><td>${usd(r.dollars)}</td><td style="text-align:left">${bar(r.savedTokens, max)}</td></tr>`)
    .join('');
  return `<table><tr><th>${esc(label)}</th><th>tokens saved</th><th>dollars saved</th><th></th></tr>${body}</table>`;
}

function kindTable(turns: TurnsReport): string {
  const switched = turns.switches.length === 0 ? '' : `<p class="muted">switched to lossless: ${turns.switches.map((s) => `${esc(s.view_kind)} in ${esc(s.project)} (${s.retrievals} of ${s.views})`).join('; ')}</p>`;
  if (turns.byViewKind.length === 0) return '<p class="muted">no views recorded</p>';
  const body = turns.byViewKind
    .map((k) => `<tr><td>${esc(k.viewKind)}</td><td>${int(k.views)}</td><td>${int(k.lossyViews)}</td><td>${int(k.retrievals)}</td><td>${int(k.targeted)}</td><td>${int(k.reruns)}</td><td class="${k.rate > 0.2 ? 'neg' : ''}">${(k.rate * 100).toFixed(1)}%</td><td>${int(k.printedTokens)}</td></tr>`)
    .join('');
  return `<table><tr><th>view kind</th><th>views</th><th>lossy</th><th>retrieved</th><th>of them part</th><th>re-run</th><th>rate</th><th>tokens printed</th></tr>${body}</table>${switched}`;
}

function usageTable(label: string, rows: readonly UsageGroup[]): string {
  if (rows.length === 0) return '<p class="muted">no transcripts read</p>';
  const max = Math.max(...rows.map((r) => r.cacheSaving));
  const body = rows
    .map(
      (r) =>
        `<tr><td>${esc(r.key)}</td><td>${int(r.requests)}</td><td>${int(r.input)}</td><td>${int(r.cacheRead)}</td><td>${int(r.cacheWrite5m + r.cacheWrite1h)}</td><td>${int(r.output)}</td><td>${usd(r.cost)}</td><td class="${r.cacheSaving < 0 ? 'neg' : ''}">${usd(r.cacheSaving)}</td><td style="text-align:left">${bar(r.cacheSaving, max)}</td></tr>`,
    )
    .join('');
  return `<table><tr><th>${esc(label)}</th><th>requests</th><th>input</th><th>cache read</th><th>cache write</th><th>output</th><th>billed</th><th>cache saved</th><th></th></tr>${body}</table>`;
}
