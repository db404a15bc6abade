/**
 * Cache policies a gateway can run: each request's choice is made from what the session showed up to that request,
 * never from what comes after it (issue 27). The hindsight pick (per session, whichever policy saved most there) is
 * only ever reported as an upper bound; these rules are what the headline figures are priced with.
 */

const MINUTE = 60_000;
/** A gap longer than the 5-minute TTL is a pause: the 5-minute entry expired during it. */
export const PAUSE_MS = 5 * MINUTE;

export interface OnlineRule {
  /**
   * Keep the 5-minute TTL (and keep-warm pings, when on) until the session has shown this many pauses, then write at
   * 1 hour: a session that pauses often pays the 2x write once per entry instead of pings on every pause.
   * Infinity: never switch.
   */
  readonly switchAfterPauses: number;
  /** Bridge pauses with keep-warm pings (src/cost/keep-warm.ts), the ski-rental rule. */
  readonly keepWarm: boolean;
}

/**
 * Switch at the first pause: the rule needs no tuning (an entry that expired once is likely to expire again), so no
 * session chose it. Keep-warm is priced now (src/cost/keep-warm.ts) but stays off: with it on, `syt cost history` on
 * ../shared/corpus/transcripts/claude-code went from 1.2% to -3.0% saved, and on claude-code-more from -1.4% to 0.0%
 * (2026-12-04). Most of its cost is the pings after a session's last request, up to one re-write each: the transcript
 * does not record the session's end, so they are all counted.
 */
export const ONLINE_DEFAULT: OnlineRule = { switchAfterPauses: 1, keepWarm: false };

export interface OnlineDecision {
  readonly ttl: '5m' | '1h';
  readonly keepWarm: boolean;
}

/** The decision for the next request from the number of pauses seen so far (including the gap before it). */
export function decide(pausesSeen: number, rule: OnlineRule): OnlineDecision {
  const ttl = pausesSeen >= rule.switchAfterPauses ? '1h' : '5m';
  // The choice is between the two: pings bridge the pauses of a 5-minute entry; once the session has shown it pauses,
  // the 1-hour write (paid once per entry) replaces them.
  return { ttl, keepWarm: rule.keepWarm && ttl === '5m' };
}

/** Each request's decision, for one agent's requests sent at `times` (ms, in sent order): only earlier gaps count. */
export function onlineDecisions(times: readonly number[], rule: OnlineRule): OnlineDecision[] {
  let pauses = 0;
  return times.map((t, i) => {
    const previous = times[i - 1];
    if (previous !== undefined && t - previous > PAUSE_MS) pauses += 1;
    return decide(pauses, rule);
  });
}
