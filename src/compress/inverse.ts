/**
 * The documented inverses of the views called lossless. A view is lossless only when its inverse gives back the
 * original bytes exactly; a compressor that cannot show that labels its view retrievable and stashes the original
 * (`exactOrStashed`). The property test in test/unit/compress/inverse.test.ts holds every compressor to this.
 */
import { decode } from '@toon-format/toon';
import { lossless, type Candidate } from '../reduce/candidate.ts';
import { expandDiffHeaders } from './diff.ts';
import { decodeSearchPaths } from './search-paths.ts';
import { trailingWhitespace, withWholeOriginal } from './view.ts';

/** Operation name -> the function that turns that operation's output back into its input. */
const INVERSES: Readonly<Record<string, (view: string) => string>> = {
  json_compact: prettyJsonValues,
  diff_header_compact: expandDiffHeaders,
  search_path_sharing: decodeSearchPaths,
  csv_compact: quoteEveryField,
  toon: fromToon,
};

/** The original bytes a lossless view stands for, or null when one of its operations has no inverse. */
export function invertView(view: string, operations: readonly string[]): string | null {
  let text = view;
  for (let i = operations.length - 1; i >= 0; i--) {
    const inverse = INVERSES[operations[i] ?? ''];
    if (inverse === undefined) return null;
    try {
      text = inverse(text);
    } catch {
      // A view its inverse cannot even read is no view of the original.
      return null;
    }
  }
  return text;
}

/**
 * A view is lossless when `invertView` gives the original back; otherwise the same view is retrievable: the whole
 * original is stashed and named by a last line, so nothing is called lossless that is not.
 */
export function exactOrStashed(original: string, view: string, operations: readonly string[], what: string): Candidate {
  if (invertView(view, operations) === original) return lossless(view, operations);
  return withWholeOriginal(original, view, operations, what);
}

/**
 * Inverse of `json_compact`: every line of the view is one compact JSON value, printed back the way jq and
 * `JSON.stringify(v, null, 2)` print it (two-space indent, `": "`, `[]`/`{}` for empty containers), joined by
 * newlines; the view's trailing whitespace is kept.
 */
export function prettyJsonValues(view: string): string {
  const trailing = trailingWhitespace(view);
  const body = view.slice(0, view.length - trailing.length);
  return body.split('\n').map((line) => prettyJson(line, '  ')).join('\n') + trailing;
}

/** Inverse of `toon`: decoded, printed as compact JSON, then laid out as `json_compact`'s inverse does. */
export function fromToon(view: string): string {
  const trailing = trailingWhitespace(view);
  return prettyJsonValues(JSON.stringify(decode(view.slice(0, view.length - trailing.length))) + trailing);
}

/** Re-indents compact JSON text (no whitespace outside strings); tokens are copied unchanged. */
export function prettyJson(compact: string, indent: string): string {
  const out: string[] = [];
  let depth = 0;
  let i = 0;
  const n = compact.length;
  const newline = (d: number): string => `\n${indent.repeat(d)}`;
  while (i < n) {
    const ch = compact[i] as string;
    if (ch === '"') {
      let end = i + 1;
      while (end < n && compact[end] !== '"') end += compact[end] === '\\' ? 2 : 1;
      out.push(compact.slice(i, end + 1));
      i = end + 1;
      continue;
    }
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      if (compact[i + 1] === close) {
        out.push(ch + close);
        i += 2;
        continue;
      }
      depth++;
      out.push(ch, newline(depth));
    } else if (ch === '}' || ch === ']') {
      depth--;
      out.push(newline(depth), ch);
    } else if (ch === ',') {
      out.push(',', newline(depth));
    } else if (ch === ':') {
      out.push(': ');
    } else {
      out.push(ch);
    }
    i++;
  }
  return out.join('');
}

/** Inverse of `csv_compact` for a CSV that quoted every field: every field quoted again, `"` doubled. */
export function quoteEveryField(view: string): string {
  let out = '';
  let i = 0;
  const n = view.length;
  let field = '';
  let atFieldStart = true;
  const flush = (): void => {
    out += `"${field.replaceAll('"', '""')}"`;
    field = '';
  };
  while (i < n) {
    const ch = view[i] as string;
    if (ch === '"' && atFieldStart) {
      // A field that had to stay quoted: copy its content unescaped, then re-escape it in flush.
      let end = i + 1;
      for (;;) {
        const quote = view.indexOf('"', end);
        if (quote < 0) {
          end = n;
          break;
        }
        if (view[quote + 1] === '"') {
          field += view.slice(end, quote + 1);
          end = quote + 2;
          continue;
        }
        field += view.slice(end, quote);
        end = quote + 1;
        break;
      }
      i = end;
      atFieldStart = false;
      continue;
    }
    if (ch === ',') {
      flush();
      out += ',';
      atFieldStart = true;
      i++;
    } else if (ch === '\n' || (ch === '\r' && view[i + 1] === '\n')) {
      flush();
      out += ch === '\r' ? '\r\n' : '\n';
      atFieldStart = true;
      i += ch === '\r' ? 2 : 1;
    } else {
      field += ch;
      atFieldStart = false;
      i++;
    }
  }
  if (!atFieldStart || field !== '' || (out !== '' && !out.endsWith('\n'))) flush();
  return out;
}
