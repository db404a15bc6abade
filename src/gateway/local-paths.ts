/** The paths the gateway answers itself and never forwards upstream (imported by the session hook, so kept apart from the server). */

/** Where Prometheus scrapes, the same path as `tokenless serve`'s. */
export const GATEWAY_METRICS_PATH = '/metrics';

/** Where the SessionEnd hook says a session is over (hooks/gateway-session-end.ts): `{"session_id": "…"}`. */
export const SESSION_END_PATH = '/tokenless/session-end';
