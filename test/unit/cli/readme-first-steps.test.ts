/** What a new user reads first must work: the README's install lines and its word on how long the tests take. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/root.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const shellBlocks = [...README.matchAll(/```sh\n([\s\S]*?)```/gu)].map((match) => match[1] ?? '');

describe('README first steps', () => {
  it('never tells you to install from the npm registry, where the package is not (npm install --global save-your-tokens regression)', () => {
    for (const block of shellBlocks) expect(block).not.toMatch(/npm install (--global|-g) save-your-tokens\b/u);
    expect(README).toContain('npm install --global ./save-your-tokens-0.1.0.tgz');
    expect(README).toMatch(/npm pack/u);
  });

  it('says how long the full suite takes and gives a quick subset (npm test takes 30 minutes unannounced regression)', () => {
    expect(README).toMatch(/npm test .*about 30 minutes on 2 cores/u);
    expect(shellBlocks.join('\n')).toMatch(/^npx vitest run test\/unit +# the quick subset/mu);
  });
});
