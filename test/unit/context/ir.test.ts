import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkInvariant, EMPTY_IR, TelosInvariantError, TelosRefError, type Band, type Block, type ContextIR } from '../../../src/context/ir.ts';
import { fold, pin, place, register, type PlaceTarget } from '../../../src/context/primitives.ts';

const block = (id: string, band: Band, kind: Block['kind'] = 'text', content: unknown = id): Block => ({ id, band, kind, content });

describe('checkInvariant', () => {
  it('accepts PIN* FOLD* DROP* with tool_result blocks first', () => {
    const ir: ContextIR = {
      ...EMPTY_IR,
      system: [block('a', 'PIN'), block('b', 'FOLD'), block('c', 'DROP')],
      messages: [{ role: 'user', blocks: [block('r', 'FOLD', 'tool_result'), block('q', 'PIN'), block('t', 'DROP')] }],
    };
    expect(() => checkInvariant(ir)).not.toThrow();
  });

  it.each([
    ['FOLD before PIN in system', { ...EMPTY_IR, system: [block('b', 'FOLD'), block('a', 'PIN')] }, 'system'],
    ['DROP before FOLD in tools', { ...EMPTY_IR, tools: [block('b', 'DROP'), block('a', 'FOLD')] }, 'tools'],
    ['tool_result after text', { ...EMPTY_IR, messages: [{ role: 'user' as const, blocks: [block('q', 'PIN'), block('r', 'PIN', 'tool_result')] }] }, 'messages[0]'],
    ['duplicate ids', { ...EMPTY_IR, system: [block('a', 'PIN'), block('a', 'PIN')] }, 'system'],
  ])('raises a typed error for %s', (_name, ir, segment) => {
    expect(() => checkInvariant(ir)).toThrow(TelosInvariantError);
    try {
      checkInvariant(ir);
    } catch (error) {
      expect((error as TelosInvariantError).segment).toBe(segment);
    }
  });
});

describe('primitives', () => {
  it('place() puts each block at its band position', () => {
    let ir = place(EMPTY_IR, 'system', [block('d', 'DROP'), block('f', 'FOLD'), block('p', 'PIN')]);
    expect(ir.system.map((b) => b.id)).toEqual(['p', 'f', 'd']);
    ir = place(ir, { message: 'new', role: 'user' }, [block('q', 'PIN'), block('r', 'FOLD', 'tool_result')]);
    expect(ir.messages[0]?.blocks.map((b) => b.id)).toEqual(['r', 'q']);
  });

  it('fold(slugs) swaps the payload, never the slug, and refuses unknown slugs', () => {
    const ir = register(EMPTY_IR, 'doc.readme', 'long text');
    const folded = fold(ir, { slugs: ['doc.readme'], summary: 'short' });
    expect(folded.refPool).toEqual([{ slug: 'doc.readme', payload: 'short', version: 2 }]);
    expect(() => fold(ir, { slugs: ['nope'], summary: 's' })).toThrow(TelosRefError);
    expect(() => register(ir, 'doc.readme', 'again')).toThrow(TelosRefError);
  });

  it('fold(messageRange) replaces turns with a ref and refuses to split a tool call from its result', () => {
    let ir = place(EMPTY_IR, { message: 'new', role: 'user' }, [block('u1', 'FOLD')]);
    ir = place(ir, { message: 'new', role: 'assistant' }, [block('a1', 'FOLD', 'tool_use', { type: 'tool_use', id: 'x', name: 'Bash', input: {} })]);
    ir = place(ir, { message: 'new', role: 'user' }, [block('r1', 'FOLD', 'tool_result', { type: 'tool_result', tool_use_id: 'x', content: 'ok' })]);
    expect(() => fold(ir, { messageRange: [0, 2], summary: 's' })).toThrow(TelosInvariantError);
    const folded = fold(ir, { messageRange: [0, 3], summary: 'asked, ran Bash, ok' });
    expect(folded.messages).toHaveLength(1);
    expect(folded.refPool[0]?.payload).toBe('asked, ran Bash, ok');
    expect(folded.messages[0]?.blocks[0]?.content).toBe(`[ref:${folded.refPool[0]?.slug}]`);
  });
});

/** Random primitive calls, valid or not: any that throws must throw a typed error and change nothing. */
const bands = fc.constantFrom<Band>('PIN', 'FOLD', 'DROP');
const kinds = fc.constantFrom<Block['kind']>('text', 'tool_result', 'tool_use', 'other');
const slugs = fc.constantFrom('a', 'b', 'doc.1', 'Bad Slug', 'c');
const blockArb = fc.record({ id: fc.string({ minLength: 1, maxLength: 3 }), band: bands, kind: kinds, content: fc.string({ maxLength: 5 }) });
const target: fc.Arbitrary<PlaceTarget> = fc.oneof(
  fc.constant('tools' as const),
  fc.constant('system' as const),
  fc.constant({ message: 'current' as const }),
  fc.record({ message: fc.constant('new' as const), role: fc.constantFrom('user' as const, 'assistant' as const) }),
);
const op = fc.oneof(
  fc.record({ kind: fc.constant('place' as const), target, blocks: fc.array(blockArb, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('pin' as const), slug: slugs, payload: fc.string({ maxLength: 5 }) }),
  fc.record({ kind: fc.constant('register' as const), slug: slugs, payload: fc.string({ maxLength: 5 }) }),
  fc.record({ kind: fc.constant('foldSlugs' as const), slugs: fc.array(slugs, { maxLength: 2 }), summary: fc.string({ maxLength: 5 }) }),
  fc.record({ kind: fc.constant('foldRange' as const), from: fc.integer({ min: -1, max: 5 }), to: fc.integer({ min: 0, max: 6 }), summary: fc.string({ maxLength: 5 }) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

function apply(ir: ContextIR, step: Op): ContextIR {
  switch (step.kind) {
    case 'place':
      return place(ir, step.target, step.blocks);
    case 'pin':
      return pin(ir, step.slug, step.payload);
    case 'register':
      return register(ir, step.slug, step.payload);
    case 'foldSlugs':
      return fold(ir, { slugs: step.slugs, summary: step.summary });
    case 'foldRange':
      return fold(ir, { messageRange: [step.from, step.to], summary: step.summary });
  }
}

describe('TELOS properties', () => {
  it('the invariant holds after any sequence of primitives; failures are typed and change nothing', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (steps) => {
        let ir = EMPTY_IR;
        for (const step of steps) {
          const before = JSON.stringify(ir);
          try {
            ir = apply(ir, step);
          } catch (error) {
            expect(error instanceof TelosInvariantError || error instanceof TelosRefError).toBe(true);
            expect(JSON.stringify(ir)).toBe(before);
          }
          expect(() => checkInvariant(ir)).not.toThrow();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fold() never changes a slug: registered slugs stay, in order, byte-identical', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (steps) => {
        let ir = EMPTY_IR;
        for (const step of steps) {
          const slugsBefore = ir.refPool.map((entry) => entry.slug);
          let next = ir;
          try {
            next = apply(ir, step);
          } catch {
            continue;
          }
          const slugsAfter = next.refPool.map((entry) => entry.slug);
          if (step.kind === 'foldSlugs') expect(slugsAfter).toEqual(slugsBefore);
          expect(slugsAfter.slice(0, slugsBefore.length)).toEqual(slugsBefore);
          ir = next;
        }
      }),
      { numRuns: 300 },
    );
  });
});
