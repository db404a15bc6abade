import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { retrieveBytes } from '../../../src/runtime/retrieve.ts';
import { viewRun } from '../../../src/runtime/run-view.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import { markersIn } from '../../../src/store/marker.ts';
import { useTempDirs } from '../../helpers/temp.ts';
import { loadFreshCase } from './fs-search-fixtures.ts';

const tempDir = useTempDirs();

describe('folded listings through the run view', () => {
  it.each(['find-f-click', 'ls-laR-slugify', 'tree-a-slugify', 'grep-rn-slugify', 'rg-files-uuu-click', 'git-grep-n-color-click'])(
    '%s: the view carries a marker that retrieves the raw output byte for byte',
    (id) => {
      const c = loadFreshCase(id);
      const runtime = new Runtime(loadConfig({ TOKENLESS_DATA_DIR: tempDir() }));
      const raw = Buffer.from(c.stdout, 'utf8');
      const view = viewRun(runtime, { argv: c.argv, stdout: raw, stderr: Buffer.alloc(0), exitCode: 0 }, { agentId: 'test', sessionId: 's1' });
      expect(view.disposition).toBe('applied');
      expect(view.recoverability).toBe('retrievable');
      const text = view.stdout.toString('utf8');
      expect(text.length).toBeLessThan(c.stdout.length);
      const [marker] = markersIn(text);
      const got = retrieveBytes(runtime, marker ?? '', { sessionId: 's1', visibleMarkers: [], anySession: false });
      expect(got.ok && got.bytes.equals(raw)).toBe(true);
    },
  );
});
