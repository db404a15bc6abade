/**
 * The gateway's edge for ./session-policy.ts: it parses a request, remembers each session between requests, puts
 * the originals of what it folded or stubbed in the stash (and records their markers as shown to the session, so
 * `tokenless retrieve` answers them there) before the request is forwarded, and falls back to the original bytes
 * whenever anything is unexpected: a body it cannot parse or would not re-serialise byte for byte, a stash that
 * cannot be written, a breakpoint count that would change.
 */
import { StashStore } from '../store/stash.ts';
import { parseBody, type ParsedBody } from './canonical-json.ts';
import { canRetrieve, countBreakpoints, sessionKey, stepSession, type PolicySwitches, type SessionMemory } from './session-policy.ts';

export type { PolicySwitches } from './session-policy.ts';

export interface PolicyReport {
  readonly cold: boolean;
  readonly folded_now: number;
  readonly folded: number;
  readonly stubbed: number;
  /** Why the request went out as it came, when a policy would have changed it. */
  readonly fallback?: string;
}

/** Sessions remembered at once; the oldest is forgotten first (a forgotten session starts over: no folds, no tiers). */
const MAX_SESSIONS = 512;
const MAX_BREAKPOINTS = 4;

export function applyPolicies(dataDir: string, switches: PolicySwitches, now: () => number) {
  const sessions = new Map<string, SessionMemory>();
  let stash: StashStore | null = null;
  const store = (): StashStore => (stash ??= StashStore.open(dataDir));
  return {
    /** `parsed`: what `body` holds, parsed and checked (./canonical-json.ts), when it was, for the next step to reuse. */
    apply(original: Buffer, sessionId: string | null): { body: Buffer; report: PolicyReport; parsed?: ParsedBody } {
      const none = (fallback?: string): { body: Buffer; report: PolicyReport } => ({
        body: original,
        report: { cold: false, folded_now: 0, folded: 0, stubbed: 0, ...(fallback === undefined ? {} : { fallback }) },
      });
      const parsed = parseBody(original);
      if (parsed === null) return none();
      const body = parsed.document;
      if (!Array.isArray(body['messages'])) return none();
      const key = sessionKey(body);
      const step = stepSession(body, sessions.get(key), now(), switches, canRetrieve(body, sessionId));
      const report: PolicyReport = { cold: step.cold, folded_now: step.foldedNow, folded: step.folded, stubbed: step.stubbed };
      const changed = step.folded > 0 || step.stubbed > 0;
      if (changed && countBreakpoints(step.body) !== countBreakpoints(body)) return none('breakpoints would change');
      if (changed && countBreakpoints(step.body) > MAX_BREAKPOINTS) return none('more than four breakpoints');
      // Re-serialising must leave every other byte as the client sent it (the cached prefix is those bytes): only a
      // body in JSON.stringify's own form (Claude Code's) comes back identical, so any other is forwarded as it came.
      if (changed && !parsed.canonical) return none('not in canonical JSON form');
      try {
        if (step.stash.length > 0) {
          const put = store().put(step.stash);
          if (!put.ok) return none(`stash: ${put.reason}`);
        }
        if (step.shown.length > 0 && sessionId !== null) store().recordShown(sessionId, step.shown);
      } catch (error) {
        // Nothing is shortened that could not be brought back: without the stash the request goes out as it came.
        return none(`stash: ${(error as Error).message}`);
      }
      sessions.delete(key);
      sessions.set(key, step.memory);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value ?? '');
      return changed
        ? { body: Buffer.from(JSON.stringify(step.body), 'utf8'), report, parsed: { document: step.body, canonical: true, unfaithful: null } }
        : { body: original, report, parsed };
    },
    close(): void {
      stash?.close();
    },
  };
}
