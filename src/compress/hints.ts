/**
 * Environment error hints: one short line of additional context for errors that are about the machine rather
 * than the code. The caller adds it next to the output; it never replaces the error text.
 */

interface HintRule {
  readonly pattern: RegExp;
  readonly hint: (match: RegExpExecArray) => string;
}

const RULES: readonly HintRule[] = [
  {
    // bash: `foo: command not found`; zsh: `command not found: foo`; sh: `foo: not found`.
    pattern: /command not found: ([\w.+-]+)|(?:^|\n)(?:[^\n]*?:\s*)?([\w.+-]+): command not found(?=\r?\n|$)|(?:^|\n)(?:sh|\/bin\/sh): \d+: ([\w.+-]+): not found/,
    hint: (m) => `hint: \`${m[1] ?? m[2] ?? m[3] ?? 'the program'}\` is not installed or not on PATH here; check the project's setup or use another tool.`,
  },
  {
    pattern: /Cannot find module '([^']+)'|Cannot find package '([^']+)'|ERR_MODULE_NOT_FOUND/,
    hint: (m) => {
      const name = m[1] ?? m[2];
      return name !== undefined && !name.startsWith('.') && !name.startsWith('/')
        ? `hint: the Node package \`${packageName(name)}\` is not installed; dependencies may need installing (npm install).`
        : 'hint: a module path does not resolve; check the import path and that the file exists (or was built).';
    },
  },
  {
    pattern: /ModuleNotFoundError: No module named '([^']+)'|ImportError: No module named ([\w.]+)/,
    hint: (m) => `hint: the Python module \`${(m[1] ?? m[2] ?? '').split('.')[0] ?? ''}\` is not installed in the active environment (check the virtualenv).`,
  },
  {
    pattern: /ENOENT[^\n'"]*(?:'([^'\n]+)'|"([^"\n]+)")|ENOENT|([^\s:'"]+): No such file or directory|No such file or directory/,
    hint: (m) => {
      const path = m[1] ?? m[2] ?? m[3];
      return path !== undefined
        ? `hint: \`${path}\` does not exist relative to the working directory; check the path and the current directory.`
        : 'hint: a file or directory does not exist; check the path and the current directory.';
    },
  },
  {
    pattern: /EACCES|EPERM|Permission denied|permission denied/,
    hint: () => 'hint: permission denied by the environment; check file modes or ownership rather than the code.',
  },
];

/** The first matching hint line for the text, or null. Looks only at the first 64 KiB. */
export function environmentHint(text: string): string | null {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text;
  for (const rule of RULES) {
    const match = rule.pattern.exec(sample);
    if (match !== null) return rule.hint(match);
  }
  return null;
}

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
