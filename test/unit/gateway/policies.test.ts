/** The gateway's policy edge: stash and shown markers before forwarding, and the original bytes whenever unsure. */
import { describe, expect, it } from 'vitest';
import { applyPolicies } from '../../../src/gateway/policies.ts';
import { TTL_5M_MS } from '../../../src/gateway/session-policy.ts';
import { parseMarker } from '../../../src/store/marker.ts';
import { StashStore } from '../../../src/store/stash.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const BASH = { name: 'Bash', description: 'Run a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } };
const BIG = Array.from({ length: 200 }, (_, i) => `row ${i}: an old result nobody needs`).join('\n');

function request(rounds: number): Record<string, unknown> {
  const messages: unknown[] = [{ role: 'user', content: 'go' }];
  for (let i = 0; i < rounds; i += 1) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: `c${i}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: i === 0 ? BIG : `ok ${i}` }] });
  }
  return { model: 'claude-sonnet-4-5', system: 'sys', tools: [BASH], messages };
}

describe('applyPolicies', () => {
  it('stashes a fold and records its marker as shown to the session before the request goes out', () => {
    const dir = tempDir();
    let now = 0;
    const policies = applyPolicies(dir, { fold: true, toolTiers: false }, () => now);
    const first = Buffer.from(JSON.stringify(request(5)));
    expect(policies.apply(first, 'sess').body).toBe(first);
    now = TTL_5M_MS + 1;
    const cold = policies.apply(Buffer.from(JSON.stringify(request(6))), 'sess');
    expect(cold.report).toMatchObject({ cold: true, folded_now: 1, folded: 1 });
    const key = parseMarker(/\[tokenless retrieve (\d+)\]/.exec(cold.body.toString('utf8'))?.[0] ?? '') ?? '';
    policies.close();
    const stash = StashStore.open(dir);
    try {
      const got = stash.get(key);
      expect(got.ok && got.bytes.toString('utf8')).toBe(BIG);
      expect(stash.wasShown('sess', key)).toBe(true);
    } finally {
      stash.close();
    }
  });

  it('forwards the original bytes when re-serialising would change any other byte', () => {
    let now = 0;
    const policies = applyPolicies(tempDir(), { fold: true, toolTiers: false }, () => now);
    policies.apply(Buffer.from(JSON.stringify(request(5), null, 1)), 'sess');
    now = TTL_5M_MS + 1;
    const pretty = Buffer.from(JSON.stringify(request(6), null, 1));
    const out = policies.apply(pretty, 'sess');
    expect(out.body).toBe(pretty);
    expect(out.report.fallback).toBe('not in canonical JSON form');
    policies.close();
  });

  it('folds nothing after an expiry when the request offers no Bash tool or names no session (issue 30 item 18)', () => {
    const dir = tempDir();
    let now = 0;
    const policies = applyPolicies(dir, { fold: true, toolTiers: false }, () => now);
    const noBash = (rounds: number) => Buffer.from(JSON.stringify({ ...request(rounds), tools: [] }));
    policies.apply(noBash(5), 'sess');
    now = TTL_5M_MS + 1;
    const withoutBash = policies.apply(noBash(6), 'sess');
    expect(withoutBash.report).toMatchObject({ folded_now: 0, folded: 0 });
    expect(withoutBash.body.toString('utf8')).not.toContain('tokenless retrieve');
    // A second session, with Bash but no x-claude-code-session-id: its markers could be recorded under no key the
    // model's shell names.
    const other = (rounds: number) => Buffer.from(JSON.stringify({ ...request(rounds), system: 'other' }));
    policies.apply(other(5), null);
    now = 2 * TTL_5M_MS + 2;
    const anonymous = policies.apply(other(6), null);
    expect(anonymous.report).toMatchObject({ folded_now: 0, folded: 0 });
    expect(anonymous.body.toString('utf8')).not.toContain('tokenless retrieve');
    policies.close();
  });
});
