import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../src/context/chunker.ts';
import { ChunkSchema, type Chunk } from '../../../src/context/chunks.ts';
import { assemble, assembleByRelevance, score, triggerWeights } from '../../../src/context/select.ts';

const chunk = (id: string, triggers: string[], extra: Partial<Chunk> = {}): Chunk => ChunkSchema.parse({ id, triggers, summary: `${id} summary`, content: `content of ${id}`, ...extra });

describe('score and assemble', () => {
  it('weighs rare triggers over common ones and zeroes triggers at the IDF floor', () => {
    const chunks = [...Array.from({ length: 10 }, (_, i) => chunk(`c${i}`, ['project'])), chunk('alpha', ['project', 'alpha'])];
    const weights = triggerWeights(chunks, 10);
    expect(weights.get(' project ')).toBe(0);
    expect(weights.get(' alpha ')).toBeGreaterThan(0);
    expect(triggerWeights(chunks, 0).get(' project ')).toBeGreaterThan(0);
    const result = assemble(chunks, 'status of project alpha');
    expect(result.zone2).toEqual(['alpha']);
  });

  it('applies require_any, hard_exclude and penalty', () => {
    const chunks = [
      chunk('brooke-setup', ['agent', 'setup'], { negative_triggers: { require_any: ['brooke'], penalty: [], hard_exclude: [] } }),
      chunk('server', ['setup', 'server'], { negative_triggers: { require_any: [], penalty: [], hard_exclude: ['windows'] } }),
      chunk('noisy', ['setup'], { negative_triggers: { require_any: [], penalty: ['agent'], hard_exclude: [] } }),
    ];
    expect(assemble(chunks, 'agent setup on the server').zone2).toEqual(['server']);
    expect(assemble(chunks, 'brooke agent setup').zone2).toContain('brooke-setup');
    expect(score(chunks, 'server setup on windows').excluded).toEqual([{ id: 'brooke-setup', reason: 'require_any: none present' }, { id: 'server', reason: 'hard_exclude: windows' }]);
  });

  it('inherits from earlier turns at a decaying weight', () => {
    const chunks = [chunk('billing', ['invoice']), chunk('deploy', ['deploy']), chunk('x', ['y'])];
    expect(assemble(chunks, 'and the second one?').zone2).toEqual([]);
    expect(assemble(chunks, 'and the second one?', ['show me the invoice']).zone2).toEqual(['billing']);
    const inherited = score(chunks, 'deploy it', ['invoice one', 'invoice two']).scores.find((s) => s.id === 'billing');
    const direct = score(chunks, 'invoice', []).scores.find((s) => s.id === 'billing');
    expect(inherited!.score).toBeLessThan(direct!.score);
  });

  it('orders mandatory chunks first, then the selection by id, whatever the scores', () => {
    const chunks = [chunk('zeta', ['deploy', 'deploy now']), chunk('alpha', ['deploy']), chunk('identity', [], { mandatory: true }), chunk('rules', [], { mandatory: true })];
    const result = assemble(chunks, 'deploy now');
    expect(result.zone1).toEqual(['identity', 'rules']);
    expect(result.zone2).toEqual(['alpha', 'zeta']);
    expect(result.text.indexOf('identity')).toBeLessThan(result.text.indexOf('alpha'));
    expect(result.scores[0]?.id).toBe('zeta');
  });
});

describe('cache stability over 20 successive requests', () => {
  // 24 topic chunks t00..t23; request i asks about topics i, i+1, i+2 and i+5, so consecutive selections overlap.
  const topics = Array.from({ length: 24 }, (_, i) => `t${String(i).padStart(2, '0')}`);
  const chunks = [
    chunk('00-identity', [], { mandatory: true, content: 'You are the support agent. '.repeat(40) }),
    ...topics.map((id, i) => chunk(id, [`topic${i}`, `alias${i}`, `extra${i}`], { content: `Facts about topic ${i}. `.repeat(30) })),
  ];
  // A conversation keeps two topics for five requests and touches two others each time (a fixed LCG picks them);
  // how many of each topic's triggers are named varies, so relevance order varies as it does in real traffic.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 24;
  const queries = Array.from({ length: 20 }, (_, i) => {
    const sticky = [Math.floor(i / 5) * 2, Math.floor(i / 5) * 2 + 1];
    const picked = [...sticky];
    while (picked.length < 4) {
      const t = next();
      if (!picked.includes(t)) picked.push(t);
    }
    const mentions = picked.map((t, k) => ['topic', 'alias', 'extra'].slice(0, ((i * 7 + k * 5) % 3) + 1).map((word) => `${word}${t}`).join(' '));
    return `question ${i} about ${mentions.join(' and ')}`;
  });
  const lcp = (a: string, b: string) => {
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
    return n;
  };

  it('keeps the prefix the deterministic order promises, and beats relevance order', () => {
    const deterministic = queries.map((q) => assemble(chunks, q, [], { maxChunks: 4, minScore: 0.5, idfFloor: 10, summaryWeight: 0, penaltyWeight: 1, inheritance: 0.5 }));
    const relevance = queries.map((q) => assembleByRelevance(chunks, q, [], { maxChunks: 4, minScore: 0.5, idfFloor: 10, summaryWeight: 0, penaltyWeight: 1, inheritance: 0.5 }));
    let stable = 0;
    let relevant = 0;
    for (let i = 1; i < queries.length; i += 1) {
      const prev = deterministic[i - 1]!;
      const cur = deterministic[i]!;
      // Promise: zone 1 plus every leading chunk the two sorted selections share.
      let shared = 0;
      while (shared < cur.zone2.length && prev.zone2[shared] === cur.zone2[shared]) shared += 1;
      const promised = assemble(chunks, '', [], { maxChunks: 0, minScore: 1, idfFloor: 10, summaryWeight: 0, penaltyWeight: 1, inheritance: 0 }).text.length
        + cur.zone2.slice(0, shared).reduce((sum, id) => sum + `<chunk id="${id}">\n${chunks.find((c) => c.id === id)!.content}\n</chunk>\n`.length, 0);
      const got = lcp(prev.text, cur.text);
      expect(got).toBeGreaterThanOrEqual(promised);
      stable += got;
      relevant += lcp(relevance[i - 1]!, relevance[i]!);
    }
    expect(deterministic.every((a, i) => a.zone2.length === 4 && new Set(a.zone2).size === 4 && i >= 0)).toBe(true);
    expect(stable).toBeGreaterThan(relevant);
  });
});

describe('chunkDocument', () => {
  const doc = ['# Guide', 'Intro text. More.', '', '## Install', 'Run npm install. Then build.', '', '```', '# not a heading', '```', '', '## Usage', ...Array.from({ length: 40 }, (_, i) => `Paragraph ${i} about usage and options.\n`)].join('\n');

  it('splits on headings, never inside a code fence, and keeps chunks under budget', () => {
    const chunks = chunkDocument(doc, { maxTokens: 60, idPrefix: 'guide', maxTriggers: 5 });
    expect(chunks.map((c) => c.id).slice(0, 3)).toEqual(['guide-guide', 'guide-guide-install', 'guide-guide-usage']);
    expect(chunks.find((c) => c.id === 'guide-guide-install')?.content).toContain('# not a heading');
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.triggers.length > 0 && c.triggers.length <= 5)).toBe(true);
    expect(chunks[1]?.summary).toBe('Run npm install.');
    expect(chunkDocument(doc, { maxTokens: 60, idPrefix: 'guide', maxTriggers: 5 })).toEqual(chunks);
  });
});
