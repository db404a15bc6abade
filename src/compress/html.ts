import { elide, retrievable } from '../reduce/candidate.ts';
import type { Compressor } from './types.ts';

const DROPPED_ELEMENTS = /<(script|style|noscript|template|svg|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENTS = /<!--[\s\S]*?-->/g;
const LINK = /<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi;
const BLOCK = /<\/?(p|div|br|hr|h[1-6]|li|ul|ol|tr|table|section|article|header|footer|nav|main|pre|blockquote|dt|dd|title)\b[^>]*>/gi;
const CELL = /<\/?(td|th)\b[^>]*>/gi;
const TAG = /<[^>]+>/g;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  mdash: '—',
  ndash: '–',
  hellip: '…',
};

/** Decodes numeric and the common named entities; unknown ones stay as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Readable text of an HTML page: blocks on their own lines, links as `text (url)`, scripts and styles dropped. */
export function htmlToText(html: string): string {
  const text = html
    .replace(COMMENTS, '')
    .replace(DROPPED_ELEMENTS, '')
    .replace(LINK, (_whole, dq: string | undefined, sq: string | undefined, bare: string | undefined, inner: string) => {
      const href = dq ?? sq ?? bare ?? '';
      const label = inner.replace(TAG, '').trim();
      if (href === '' || href.startsWith('#') || href.startsWith('javascript:')) return label;
      return label === '' || label === href ? href : `${label} (${href})`;
    })
    .replace(BLOCK, '\n')
    .replace(CELL, ' | ')
    .replace(TAG, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r]+/g, ' ').trim())
    // Block tags leave runs of empty lines; one line per block reads as well and costs less.
    .filter((line) => line !== '')
    .join('\n')
    .trim();
}

/** Operation `html_text`, retrievable: the readable text with links kept; the page is stashed and named at the end. */
export const extractHtml: Compressor = (input) => {
  const text = htmlToText(input.content);
  if (text === '') return null;
  const { entry, marker } = elide(input.content);
  return retrievable(`${text}\n[tokenless: HTML reduced to text; original page ${marker}]\n`, ['html_text'], [entry]);
};
