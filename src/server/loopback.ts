/**
 * Our local servers (`tokenless serve`, `tokenless gateway`) listen on 127.0.0.1, which a web page in the user's
 * browser can reach too: through DNS rebinding its requests carry the attacker's host name. Only a loopback Host
 * header is served (421 otherwise).
 */
export function isLoopbackHost(host: string | undefined): boolean {
  return /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(host ?? '');
}
