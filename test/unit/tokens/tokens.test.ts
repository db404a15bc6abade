import { describe, expect, it } from 'vitest';
import { countTokens, tokenCounter } from '../../../src/tokens/count.ts';
import { estimateTokens } from '../../../src/tokens/estimate.ts';
import { loadCorpus } from '../../helpers/fixtures.ts';

describe('countTokens', () => {
  it('counts special-token strings in tool output as plain text instead of throwing', async () => {
    await expect(countTokens('before <|endoftext|> after')).resolves.toBeGreaterThan(3);
  });

  it('matches known o200k counts', async () => {
    await expect(countTokens('hello world')).resolves.toBe(2);
    await expect(countTokens('')).resolves.toBe(0);
  });
});

describe('estimateTokens', () => {
  it('is 0 for empty text and grows with content', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('a b c')).toBeLessThan(estimateTokens('a b c d e f g'));
  });

  it('stays within 35% of the real o200k count over the whole real corpus, and within 2x per case', async () => {
    const count = await tokenCounter();
    let estimated = 0;
    let counted = 0;
    for (const corpusCase of loadCorpus()) {
      const text = corpusCase.stdout + corpusCase.stderr;
      if (text.length < 200) continue;
      const e = estimateTokens(text);
      const c = count(text);
      estimated += e;
      counted += c;
      expect(e / c, corpusCase.id).toBeGreaterThan(0.5);
      expect(e / c, corpusCase.id).toBeLessThan(2);
    }
    expect(Math.abs(estimated / counted - 1)).toBeLessThan(0.35);
  });
});
