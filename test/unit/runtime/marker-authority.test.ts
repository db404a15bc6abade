/**
 * Issue 15, item 9: a marker is authorised for a session only when WE showed it there. Marker text that is merely
 * part of a view's content (a commit message quoting another session's marker) must not be recorded as shown.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { PROTOCOL_VERSION } from '../../../src/protocol/schemas.ts';
import { postTool } from '../../../src/runtime/post-tool.ts';
import { retrieveBytes } from '../../../src/runtime/retrieve.ts';
import { viewRun } from '../../../src/runtime/run-view.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { markerFor, markersIn } from '../../../src/store/marker.ts';
import { loadCorpusCase } from '../../helpers/fixtures.ts';
import { useTempDirs } from '../../helpers/temp.ts';

const tempDir = useTempDirs();
const gitLog = loadCorpusCase('git-log-stat-express');
const bigJson = loadCorpusCase('data-npm-view-versions-json').stdout;

/** A session's Bash result through post_tool. */
function bashResult(runtime: Runtime, sessionId: string, toolUseId: string, content: string) {
  return postTool(runtime, {
    protocol_version: PROTOCOL_VERSION,
    operation: 'post_tool',
    attribution: { agent_id: 'test', session_id: sessionId, tool_use_id: toolUseId },
    input: { tool_name: 'Bash', status: 'success', origin: 'command_output', content },
  });
}

/** Session A's lossy view of a JSON document: its marker is A's alone. */
function sessionAMarker(runtime: Runtime): string {
  const result = bashResult(runtime, 'A', 't1', bigJson);
  expect(result.disposition).toBe('applied');
  const [key] = result.stash_keys;
  expect(key).toBeDefined();
  return key ?? '';
}

describe('marker authority', () => {
  it('does not record a marker quoted in the content of session B\'s wrapped git log as shown to B', () => {
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
    const stolen = sessionAMarker(runtime);
    // Session B committed a message holding A's marker; its git log prints it near the top, inside the kept view.
    const lines = gitLog.stdout.split('\n');
    const stdout = [...lines.slice(0, 4), `    see ${markerFor(stolen)}`, ...lines.slice(4)].join('\n');
    const view = viewRun(
      runtime,
      { argv: ['git', 'log', '--stat'], stdout: Buffer.from(stdout), stderr: Buffer.alloc(0), exitCode: 0 },
      { agentId: 'test', sessionId: 'B' },
    );
    expect(view.disposition).toBe('applied');
    expect(markersIn(view.stdout.toString('utf8'))).toContain(stolen);
    expect(runtime.stash.wasShown('B', stolen)).toBe(false);
    expect(retrieveBytes(runtime, markerFor(stolen), { sessionId: 'B', visibleMarkers: [], anySession: false })).toMatchObject({ ok: false });
    // B's own marker, minted for this view, is B's to retrieve.
    const [own] = view.stashKeys;
    expect(own).toBeDefined();
    expect(runtime.stash.wasShown('B', own ?? '')).toBe(true);
    expect(retrieveBytes(runtime, markerFor(own ?? ''), { sessionId: 'B', visibleMarkers: [], anySession: false })).toMatchObject({ ok: true });
    expect(retrieveBytes(runtime, markerFor(stolen), { sessionId: 'A', visibleMarkers: [], anySession: false })).toMatchObject({ ok: true });
    runtime.close();
  });

  it('reports only minted markers as visible from post_tool', () => {
    const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
    const stolen = sessionAMarker(runtime);
    const quoting = JSON.stringify({ note: markerFor(stolen), versions: JSON.parse(bigJson) as unknown }, null, 2);
    const result = bashResult(runtime, 'B', 't2', quoting);
    expect(result.disposition).toBe('applied');
    expect(result.output).toContain(markerFor(stolen));
    expect(result.visible_markers).not.toContain(stolen);
    expect(result.visible_markers.every((key) => result.stash_keys.includes(key))).toBe(true);
    expect(runtime.stash.wasShown('B', stolen)).toBe(false);
    runtime.close();
  });
});
