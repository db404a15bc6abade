/**
 * TELOS IR: one engine-neutral representation of a request's context. Three segments (tools, system, messages)
 * of blocks in bands PIN (long-lived), FOLD (cacheable, droppable on compaction), DROP (never cached: timestamps,
 * cwd, envelopes), plus a ref-pool of large documents referenced by frozen slugs. The one hard rule is the ordering
 * invariant checked here; everything else is advice to the planners.
 */

export type Band = 'PIN' | 'FOLD' | 'DROP';
export const BAND_RANK: Readonly<Record<Band, number>> = { PIN: 0, FOLD: 1, DROP: 2 };

export type BlockKind = 'text' | 'tool' | 'tool_use' | 'tool_result' | 'ref' | 'other';

/** One block. `content` is the wire object (Anthropic shape: a tool definition or a content block) or text. */
export interface Block {
  readonly id: string;
  readonly band: Band;
  readonly kind: BlockKind;
  readonly content: unknown;
}

export interface IrMessage {
  readonly role: 'user' | 'assistant';
  readonly blocks: readonly Block[];
}

/** A ref-pool entry: the slug is frozen at registration; `fold()` swaps the payload and bumps the version. */
export interface RefEntry {
  readonly slug: string;
  readonly payload: string;
  readonly version: number;
}

export interface ContextIR {
  readonly tools: readonly Block[];
  readonly system: readonly Block[];
  readonly refPool: readonly RefEntry[];
  readonly messages: readonly IrMessage[];
}

export const EMPTY_IR: ContextIR = { tools: [], system: [], refPool: [], messages: [] };

/** The IR broke its one invariant (or a structural rule placement depends on). Names where. */
export class TelosInvariantError extends Error {
  readonly segment: string;
  readonly index: number;
  constructor(segment: string, index: number, detail: string) {
    super(`TELOS invariant violated in ${segment} at block ${index}: ${detail}`);
    this.name = 'TelosInvariantError';
    this.segment = segment;
    this.index = index;
  }
}

/** A ref-pool rule was broken: an unknown slug, a slug registered twice, or a malformed slug. */
export class TelosRefError extends Error {
  readonly slug: string;
  constructor(slug: string, detail: string) {
    super(`ref-pool: ${detail}: ${slug}`);
    this.name = 'TelosRefError';
    this.slug = slug;
  }
}

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9._:-]{0,127}$/;

/** Throws TelosInvariantError unless every segment is PIN* FOLD* DROP* (tool_result blocks first in a message). */
export function checkInvariant(ir: ContextIR): void {
  checkSegment('tools', ir.tools);
  checkSegment('system', ir.system);
  const ids = new Set<string>();
  const seen = (segment: string, blocks: readonly Block[]) =>
    blocks.forEach((block, index) => {
      if (ids.has(block.id)) throw new TelosInvariantError(segment, index, `duplicate block id ${JSON.stringify(block.id)}`);
      ids.add(block.id);
    });
  seen('tools', ir.tools);
  seen('system', ir.system);
  ir.messages.forEach((message, m) => {
    const segment = `messages[${m}]`;
    const firstOther = message.blocks.findIndex((block) => block.kind !== 'tool_result');
    if (firstOther >= 0) {
      const late = message.blocks.findIndex((block, index) => index > firstOther && block.kind === 'tool_result');
      if (late >= 0) throw new TelosInvariantError(segment, late, 'tool_result blocks must come first in a message');
    }
    const cut = firstOther < 0 ? message.blocks.length : firstOther;
    checkSegment(segment, message.blocks.slice(0, cut));
    checkSegment(segment, message.blocks.slice(cut), cut);
    seen(segment, message.blocks);
  });
  const slugs = new Set<string>();
  for (const entry of ir.refPool) {
    if (slugs.has(entry.slug)) throw new TelosRefError(entry.slug, 'slug registered twice');
    slugs.add(entry.slug);
  }
}

function checkSegment(segment: string, blocks: readonly Block[], offset = 0): void {
  for (let index = 1; index < blocks.length; index += 1) {
    const before = blocks[index - 1]!;
    const block = blocks[index]!;
    if (BAND_RANK[block.band] < BAND_RANK[before.band]) {
      throw new TelosInvariantError(segment, index + offset, `${block.band} block ${JSON.stringify(block.id)} after ${before.band}`);
    }
  }
}

/** Where a block goes so the segment stays PIN* FOLD* DROP*: after the last block of the same or a lower band. */
export function insertionIndex(blocks: readonly Block[], block: Block): number {
  const inToolResults = block.kind === 'tool_result';
  let at = 0;
  blocks.forEach((existing, index) => {
    const sameGroup = (existing.kind === 'tool_result') === inToolResults;
    if (!inToolResults && existing.kind === 'tool_result') at = index + 1;
    else if (sameGroup && BAND_RANK[existing.band] <= BAND_RANK[block.band]) at = index + 1;
  });
  return at;
}

/** The text a ref-pool entry renders as, and the reference a message uses: stable while the slug is. */
export const refText = (slug: string): string => `[ref:${slug}]`;
export const renderRef = (entry: RefEntry): string => `<ref slug="${entry.slug}">\n${entry.payload}\n</ref>`;
