/** One compiler or linter diagnostic, with the lines that continue it (tsc's elaborations, code frames). */
export interface Diagnostic {
  readonly file: string;
  readonly location: string;
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly more: readonly string[];
}

/** Renders diagnostics grouped by file, then by code and message: a diagnostic repeated at several places is one
 * line with every `line:col`; every location, code and message is kept. Non-diagnostic lines are kept before. */
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
      const key = `${d.severity} ${d.code}\u0000${d.message}\u0000${d.more.join('\n')}`;
      const group = groups.get(key) ?? [];
      group.push(d);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      const first = group[0];
      if (first === undefined) continue;
      const where = group.map((d) => d.location).join(' ');
      const label = [first.severity === 'error' ? '' : first.severity, first.code].filter((p) => p !== '').join(' ');
      const times = group.length > 1 ? ` ×${group.length}` : '';
      const head = label === '' ? where : `${where} ${label}`;
      result.push(`${head}${times}: ${first.message}`.replace(/ {2,}/g, ' '), ...first.more);
    }
  }
  return result;
}
