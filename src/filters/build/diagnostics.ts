/** One compiler or linter diagnostic, with the lines that continue it (tsc's elaborations, code frames). */
export interface Diagnostic {
  readonly file: string;
  readonly location: string;
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly more: readonly string[];
}

/** Quoted names inside a message (`'json' is never reassigned`, `Unused argument 'self'`): the part that differs
 * between diagnostics of one rule. */
const QUOTED = /'[^'\n]*'|\u2018[^\u2019\n]*\u2019|"[^"\n]*"|`[^`\n]*`/g;

/** Renders diagnostics grouped by file, then by code and message: a diagnostic repeated at several places is one
 * line with every `line:col`; diagnostics of one code whose messages differ only in quoted names share one line
 * with the message's template and each place's names (`18:7 'json', 44:7 'arg'`). Every location, code, message
 * and name is kept. */
export function renderGrouped(diagnostics: readonly Diagnostic[]): string[] {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const list = byFile.get(d.file) ?? [];
    list.push(d);
    byFile.set(d.file, list);
  }
  const result: string[] = [];
  for (const [file, list] of byFile) {
    result.push(`${file} (${list.length}):`);
    const groups = new Map<string, Diagnostic[]>();
    for (const d of list) {
      const key = `${d.severity} ${d.code}\u0000${d.message.replace(QUOTED, '{}')}\u0000${d.more.join('\n')}`;
      const group = groups.get(key) ?? [];
      group.push(d);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      const first = group[0];
      if (first === undefined) continue;
      const label = [first.severity === 'error' ? '' : first.severity, first.code].filter((p) => p !== '').join(' ');
      const times = group.length > 1 ? ` ×${group.length}` : '';
      const slots = varyingSlots(group.map((d) => d.message));
      const where = slots.length === 0
        ? group.map((d) => d.location).join(' ')
        : group.map((d) => `${d.location} ${pick(d.message, slots).join(' ')}`).join(', ');
      let slot = 0;
      const message = first.message.replace(QUOTED, (q) => (slots.includes(slot++) ? '{}' : q)).replace(/ {2,}/g, ' ');
      const head = label === '' ? where : `${where} ${label}`;
      result.push(slots.length === 0 ? `${head}${times}: ${message}` : `${label}${times}: ${message}: ${where}`.replace(/^: /, ''), ...first.more);
    }
  }
  return result;
}

/** Indexes of the quoted parts that differ between messages of one template. */
function varyingSlots(messages: readonly string[]): number[] {
  const parts = messages.map((m) => m.match(QUOTED) ?? []);
  const first = parts[0] ?? [];
  return first.flatMap((value, k) => (parts.every((p) => p[k] === value) ? [] : [k]));
}

function pick(message: string, slots: readonly number[]): string[] {
  const parts = message.match(QUOTED) ?? [];
  return slots.map((k) => parts[k] ?? '');
}
