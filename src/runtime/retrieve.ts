import type { RetrieveRequest, RetrieveResult } from '../protocol/schemas.ts';
import { exactUtf8, markerId, parseMarker } from '../store/marker.ts';
import type { Runtime } from './runtime.ts';

export type RetrieveOutcome = { ok: true; bytes: Buffer } | { ok: false; reason: string };

export interface RetrieveAuthority {
  readonly sessionId: string | null;
  /** Keys the caller's own session state says the model has seen (SDK adapters keep this set). */
  readonly visibleMarkers: readonly string[];
  /** A person at a terminal (`--any-session`): no session check. */
  readonly anySession: boolean;
}

/**
 * Byte-exact recovery of a stashed original. Inside an agent session only a marker that session was shown is
 * answered: either it is in the caller's visible set or the store recorded it as shown to that session.
 */
export function retrieveBytes(runtime: Runtime, markerText: string, authority: RetrieveAuthority): RetrieveOutcome {
  const key = parseMarker(markerText);
  if (key === null) return { ok: false, reason: `not a marker: expected [tokenless retrieve ID], <<tokenless:ID>> or a bare ID (29 digits, or 24 hex as printed before)` };
  const visible = authority.visibleMarkers.map(parseMarker).includes(key);
  if (!authority.anySession && !visible) {
    if (authority.sessionId === null) {
      return { ok: false, reason: 'no session to authorise against (set TOKENLESS_SESSION_ID, or --any-session at a terminal)' };
    }
    if (!runtime.stash.wasShown(authority.sessionId, key)) {
      return { ok: false, reason: `marker ${markerId(key)} was not shown in session ${authority.sessionId}` };
    }
  }
  const got = runtime.stash.get(key);
  if (!got.ok) return { ok: false, reason: `marker ${markerId(key)} is ${got.reason}` };
  return { ok: true, bytes: got.bytes };
}

export function retrieve(runtime: Runtime, request: RetrieveRequest): { ok: true; result: RetrieveResult } | { ok: false; reason: string } {
  const outcome = retrieveBytes(runtime, request.input.marker, {
    sessionId: request.attribution.session_id,
    visibleMarkers: request.input.visible_markers,
    anySession: false,
  });
  if (!outcome.ok) return outcome;
  const exact = exactUtf8(outcome.bytes);
  return {
    ok: true,
    result:
      exact !== null
        ? { disposition: 'applied', content: exact }
        : { disposition: 'applied', content: outcome.bytes.toString('utf8'), content_base64: outcome.bytes.toString('base64') },
  };
}
