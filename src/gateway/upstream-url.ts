/**
 * The one place the gateway decides where a request goes: the configured upstream, always. The URL is built from the
 * upstream's own origin and base path plus the request's path and query, and nothing else of the request target is
 * used. Only origin-form targets (`/path?query`, RFC 9112 §3.2.1) are accepted: an absolute-form (`http://host/x`),
 * authority-form (`host:443`), asterisk-form, or a target a URL parser would read as naming a host (`//host/x`,
 * `/\host/x`) is refused, so a client can never point the gateway, and the headers it forwards (`x-api-key`
 * included), at another host.
 */

/** The upstream URL for `target`, or null when the target is not a plain origin-form path (answer 400). */
export function upstreamUrl(upstream: URL, target: string): URL | null {
  // `//` and a backslash (WHATWG parsers read `\` as `/` in http URLs) would start an authority; controls and spaces
  // have no place in a request target.
  if (!target.startsWith('/') || target.startsWith('//') || /[\\\s\u0000-\u001f\u007f#]/u.test(target)) return null;
  let parsed: URL;
  try {
    parsed = new URL(target, PLACEHOLDER);
  } catch {
    return null;
  }
  // Belt and braces: whatever the parser made of the target, it must not have left the placeholder origin.
  if (parsed.origin !== PLACEHOLDER) return null;
  const url = new URL(upstream.href);
  // The target's path is normalised (`..` resolved) before the base path is put in front: it cannot climb out of it.
  url.pathname = upstream.pathname.replace(/\/$/u, '') + parsed.pathname;
  url.search = parsed.search;
  url.hash = '';
  return url.origin === upstream.origin ? url : null;
}

const PLACEHOLDER = 'http://upstream.invalid';
