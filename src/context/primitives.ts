/**
 * The TELOS primitives as pure functions: each returns a new IR that satisfies the invariant, or throws a typed
 * error and leaves the caller's IR as it was. `mark` (planning) lives in ./plan.ts and `refresh` in ./refresh.ts.
 */
import { createHash } from 'node:crypto';
import {
  checkInvariant,
  insertionIndex,
  refText,
  SLUG_PATTERN,
  TelosInvariantError,
  TelosRefError,
  type Block,
  type ContextIR,
  type IrMessage,
  type RefEntry,
} from './ir.ts';

export type PlaceTarget = 'tools' | 'system' | { readonly message: 'current' } | { readonly message: 'new'; readonly role: IrMessage['role'] };

/** place(): puts blocks into tools, system, the current message or a new one, each at its band's position. */
export function place(ir: ContextIR, target: PlaceTarget, blocks: readonly Block[]): ContextIR {
  const into = (segment: readonly Block[]) => blocks.reduce<Block[]>((acc, block) => {
    const next = [...acc];
    next.splice(insertionIndex(next, block), 0, block);
    return next;
  }, [...segment]);
  let next: ContextIR;
  if (target === 'tools') next = { ...ir, tools: into(ir.tools) };
  else if (target === 'system') next = { ...ir, system: into(ir.system) };
  else if (target.message === 'new') next = { ...ir, messages: [...ir.messages, { role: target.role, blocks: into([]) }] };
  else {
    const last = ir.messages.at(-1);
    if (last === undefined) throw new TelosInvariantError('messages', 0, 'no current message to place into');
    next = { ...ir, messages: [...ir.messages.slice(0, -1), { role: last.role, blocks: into(last.blocks) }] };
  }
  checkInvariant(next);
  return next;
}

/** pin(): writes (or rewrites) the PIN system block for `slug`. */
export function pin(ir: ContextIR, slug: string, payload: string): ContextIR {
  if (!SLUG_PATTERN.test(slug)) throw new TelosRefError(slug, 'malformed slug');
  const id = `pin:${slug}`;
  const block: Block = { id, band: 'PIN', kind: 'text', content: payload };
  const at = ir.system.findIndex((existing) => existing.id === id);
  if (at >= 0) return checked({ ...ir, system: ir.system.map((existing, index) => (index === at ? block : existing)) });
  return place(ir, 'system', [block]);
}

/** Registers a document in the ref-pool; its slug is frozen from now on. */
export function register(ir: ContextIR, slug: string, payload: string): ContextIR {
  if (!SLUG_PATTERN.test(slug)) throw new TelosRefError(slug, 'malformed slug');
  if (ir.refPool.some((entry) => entry.slug === slug)) throw new TelosRefError(slug, 'slug already registered (slugs are frozen)');
  return checked({ ...ir, refPool: [...ir.refPool, { slug, payload, version: 1 }] });
}

export type FoldRequest =
  | { readonly slugs: readonly string[]; readonly summary: string }
  | { readonly messageRange: readonly [number, number]; readonly summary: string };

/**
 * fold(): swaps payloads, never slugs. With `slugs`, each entry's payload becomes the summary. With `messageRange`
 * [from, to), those messages become one FOLD reference to a new ref-pool entry holding the summary; a range that
 * would separate a tool_use from its tool_result is refused.
 */
export function fold(ir: ContextIR, request: FoldRequest): ContextIR {
  if ('slugs' in request) {
    for (const slug of request.slugs) if (!ir.refPool.some((entry) => entry.slug === slug)) throw new TelosRefError(slug, 'unknown slug');
    const refPool = ir.refPool.map((entry): RefEntry => (request.slugs.includes(entry.slug) && entry.payload !== request.summary ? { ...entry, payload: request.summary, version: entry.version + 1 } : entry));
    return checked({ ...ir, refPool });
  }
  const [from, to] = request.messageRange;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to > ir.messages.length || from >= to) {
    throw new TelosInvariantError('messages', from, `bad fold range [${from}, ${to})`);
  }
  const folded = ir.messages.slice(from, to);
  assertPairsInside(folded, ir.messages.slice(0, from), ir.messages.slice(to), from);
  const ids = folded.flatMap((message) => message.blocks.map((block) => block.id));
  // Derived from the folded block ids, so folding the same span again names the same slug.
  const slug = `fold-${createHash('sha256').update(ids.join('\u0000')).digest('hex').slice(0, 16)}`;
  const withRef = ir.refPool.some((entry) => entry.slug === slug) ? fold(ir, { slugs: [slug], summary: request.summary }) : register(ir, slug, request.summary);
  const reference: IrMessage = { role: 'user', blocks: [{ id: `ref:${slug}`, band: 'FOLD', kind: 'ref', content: refText(slug) }] };
  return checked({ ...withRef, messages: [...ir.messages.slice(0, from), reference, ...ir.messages.slice(to)] });
}

function assertPairsInside(folded: readonly IrMessage[], before: readonly IrMessage[], after: readonly IrMessage[], from: number): void {
  const ids = (messages: readonly IrMessage[], kind: 'tool_use' | 'tool_result', field: 'id' | 'tool_use_id') =>
    new Set(messages.flatMap((message) => message.blocks).flatMap((block) => {
      const content = block.content as Record<string, unknown> | null;
      return block.kind === kind && typeof content?.[field] === 'string' ? [content[field]] : [];
    }));
  const usesInside = ids(folded, 'tool_use', 'id');
  const resultsInside = ids(folded, 'tool_result', 'tool_use_id');
  for (const id of ids(after, 'tool_result', 'tool_use_id')) {
    if (usesInside.has(id)) throw new TelosInvariantError('messages', from, `fold would separate tool_use ${id} from its tool_result`);
  }
  for (const id of ids(before, 'tool_use', 'id')) {
    if (resultsInside.has(id)) throw new TelosInvariantError('messages', from, `fold would separate tool_result ${id} from its tool_use`);
  }
}

function checked(ir: ContextIR): ContextIR {
  checkInvariant(ir);
  return ir;
}
