/**
 * `tokenless stats diff ID`, the audit the design promises (pure): what the agent would have seen (the original) against
 * what it saw (the view), as a unified diff, with the record's figures and the markers that retrieve the original.
 * stats.db keeps no text; both sides come from the stash, kept there beside the candidate's own entries under their
 * content keys (the record's digests) for as long as the stash keeps them. When either is gone, the audit says so
 * and shows the digests, which still prove what was shown when the text turns up.
 */
import { unifiedDiff } from './stats-diff.ts';
import { describeSide, type KeptRecord } from './stats-kept.ts';

/** A side looked up in the stash: its text, or why it is not there. */
export type AuditSide = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'damaged' | 'not_recorded' };

export interface AuditFigures {
  readonly before_tokens: number;
  readonly after_tokens: number;
  readonly host_capped: boolean;
}

export interface Audit {
  readonly header: string;
  readonly diff: string | null;
  readonly truncated: boolean;
  /** Why there is no diff, when there is none. */
  readonly missing: string | null;
}

const WHY: Readonly<Record<Exclude<AuditSide, { ok: true }>['reason'], string>> = {
  unknown: 'not in the stash (expired and removed, recorded before views were kept there, or by another data dir)',
  expired: 'expired from the stash',
  damaged: 'damaged in the stash (its digest does not match)',
  not_recorded: 'not recorded (a row from before digests were kept)',
};

export function audit(kept: KeptRecord, title: string, figures: AuditFigures, ttlDays: number, original: AuditSide, view: AuditSide): Audit {
  const capped = figures.host_capped ? ', before capped at what the host shows' : '';
  const header = [
    `#${kept.id} ${title}: ${figures.before_tokens.toLocaleString('en-US')} -> ${figures.after_tokens.toLocaleString('en-US')} tokens (as stats list counts them${capped})`,
    ...kept.retrieve.map((command) => `marker: ${command}`),
  ].join('\n');
  if (!original.ok || !view.ok) {
    const gone =
      !original.ok && !view.ok && original.reason === view.reason
        ? [`the original and the view are ${WHY[original.reason]}`]
        : [!original.ok ? `the original is ${WHY[original.reason]}` : null, !view.ok ? `the view is ${WHY[view.reason]}` : null].filter((part) => part !== null);
    const missing = [
      `no diff: ${gone.join('; ')}. The stash keeps texts ${ttlDays} day(s) (stash_ttl_days in config.json).`,
      `original: ${describeSide(kept.before)}`,
      `view:     ${describeSide(kept.after)}`,
    ].join('\n');
    return { header, diff: null, truncated: false, missing };
  }
  const diff = unifiedDiff(original.text, view.text, { before: `original (sha256 ${kept.before.digest ?? '-'}, ${kept.before.bytes} bytes)`, after: `view (sha256 ${kept.after.digest ?? '-'}, ${kept.after.bytes} bytes)` });
  const cut = diff.truncated ? `… diff cut at ${diff.lines} lines (${diff.removed} removed, ${diff.added} added in all); the original: ${kept.retrieve[0] ?? 'not retrievable'}\n` : '';
  return { header, diff: diff.text + cut, truncated: diff.truncated, missing: null };
}
