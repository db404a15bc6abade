// Static reading of single words: what a word means when that is knowable without running the shell.

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;

/** Whether a word in command-prefix position is a `NAME=value` (or `NAME+=`, `NAME[i]=`) assignment. */
export function isAssignmentWord(text: string): boolean {
  return ASSIGNMENT.test(text);
}

/** The variable name an assignment word sets, or null when the word is no assignment. */
export function assignmentName(text: string): string | null {
  return ASSIGNMENT.exec(text)?.[1] ?? null;
}

/**
 * Whether bash expands a `~` in this word because it looks like an assignment: outside POSIX mode bash expands a
 * tilde after the `=` and after each `:` of any `NAME=…` word, even an ordinary argument (`cat x=~/.bashrc` reads
 * `x=/home/u/.bashrc`). Quoting is not looked at: a quoted `~` only makes this answer "expands" more often.
 */
export function assignmentTilde(text: string): boolean {
  return ASSIGNMENT.test(text) && /[=:]~/.test(text);
}

/** Characters that end a word or trigger an expansion when unquoted; any of them makes a word non-static. */
const UNQUOTED_DYNAMIC = new Set(['$', '`', '*', '?', '[', '{', ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/**
 * The literal value of a word after quote removal, or null when the shell could make it anything else:
 * parameter, command, arithmetic, tilde, brace or glob expansion, ANSI-C and locale quotes.
 * A leading `=` counts as dynamic too because zsh expands `=cmd` to a path.
 */
export function literalValue(text: string): string | null {
  if (text.startsWith('~') || text.startsWith('=') || assignmentTilde(text)) return null;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined) return null;
      if (next !== '\n') out += next;
      i += 2;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return null;
      out += text.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      const inner = readDoubleQuoted(text, i + 1);
      if (inner === null) return null;
      out += inner.value;
      i = inner.end;
    } else if (UNQUOTED_DYNAMIC.has(c)) {
      return null;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The value of a double-quoted part starting after its opening quote, when it holds no expansion. */
function readDoubleQuoted(text: string, from: number): { value: string; end: number } | null {
  let value = '';
  let j = from;
  while (j < text.length) {
    const c = text.charAt(j);
    if (c === '"') return { value, end: j + 1 };
    if (c === '$' || c === '`') return null;
    if (c === '\\') {
      const next = text[j + 1];
      if (next === undefined) return null;
      // Inside double quotes a backslash only escapes these; before anything else it stays literal.
      if (next === '$' || next === '`' || next === '"' || next === '\\') value += next;
      else if (next !== '\n') value += `\\${next}`;
      j += 2;
    } else {
      value += c;
      j += 1;
    }
  }
  return null;
}

/** A heredoc delimiter after quote removal; any quoting makes the body literal. */
export function heredocDelimiter(text: string): { delimiter: string; quoted: boolean } {
  let delimiter = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '\\' && i + 1 < text.length) {
      delimiter += text.charAt(i + 1);
      quoted = true;
      i += 2;
    } else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      const end = close < 0 ? text.length : close;
      delimiter += text.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else {
      delimiter += c;
      i += 1;
    }
  }
  return { delimiter, quoted };
}
