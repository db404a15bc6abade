/**
 * The SHA-256 compression function of ./sha256-wasm.ts, assembled: the instructions below are the source of the
 * WebAssembly module that file carries as base64 (building it at run time cost a hook 2.6 ms in V8's interpreter).
 * A test checks that the two are the same bytes; after a change here, paste `moduleBase64()`'s output there.
 *
 * Memory: the state H (8 words) at 0, the round constants K at 32, the message schedule W at 288; words are
 * little-endian in memory, and the message's big-endian words are byte-swapped as they are loaded.
 */
import { H_AT, K_AT, W_AT } from './sha256-wasm.ts';

// --- a little assembler: each helper returns the bytes of one instruction -----------------------------------------

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit value. */
function sleb(n: number): number[] {
  const out: number[] = [];
  let value = n | 0;
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const get = (local: number): number[] => [0x20, ...uleb(local)];
const set = (local: number): number[] => [0x21, ...uleb(local)];
const tee = (local: number): number[] => [0x22, ...uleb(local)];
const i32 = (value: number): number[] => [0x41, ...sleb(value)];
const load = (offset: number): number[] => [0x28, 2, ...uleb(offset)];
const store = (offset: number): number[] => [0x36, 2, ...uleb(offset)];
const loop = (...body: number[][]): number[] => [0x03, 0x40, ...body.flat(), 0x0b];
const brIf = (depth: number): number[] => [0x0d, ...uleb(depth)];
const [add, sub, and, or, xor, shl, shrU, rotl, rotr, ltU] = [[0x6a], [0x6b], [0x71], [0x72], [0x73], [0x74], [0x76], [0x77], [0x78], [0x49]];

// Locals: the two parameters, then the working variables.
const [PTR, N, A, B, C, D, E, F, G, H, T1, T2, I, X] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const VARS = [A, B, C, D, E, F, G, H];

/** (x ror r1) ^ (x ror r2) ^ (x ror|shr r3), for the local x. */
const sigma = (x: number, r1: number, r2: number, r3: number, last: number[]): number[] => [...get(x), ...i32(r1), ...rotr, ...get(x), ...i32(r2), ...rotr, ...xor, ...get(x), ...i32(r3), ...last, ...xor];
/** i * 4: the byte offset of word i. */
const wordOffset = (): number[] => [...get(I), ...i32(2), ...shl];
/** i += 1; repeat the enclosing loop while i < end. */
const next = (end: number): number[] => [...get(I), ...i32(1), ...add, ...tee(I), ...i32(end), ...ltU, ...brIf(0)];

/** compress(ptr, n): folds n 64-byte blocks at ptr into the state H. */
function compressBody(): number[] {
  return [
    ...loop(
      // W[0..16): the block's big-endian words.
      i32(0),
      set(I),
      loop(
        [...get(PTR), ...wordOffset(), ...add, ...load(0), ...set(X)],
        [...wordOffset(), ...get(X), ...i32(8), ...rotl, ...i32(0x00ff00ff), ...and, ...get(X), ...i32(8), ...rotr, ...i32(0xff00ff00), ...and, ...or, ...store(W_AT)],
        next(16),
      ),
      // W[16..64): W[i-16] + s0(W[i-15]) + W[i-7] + s1(W[i-2]).
      loop(
        wordOffset(),
        [...wordOffset(), ...load(W_AT - 64)],
        [...wordOffset(), ...load(W_AT - 60), ...set(X), ...sigma(X, 7, 18, 3, shrU), ...add],
        [...wordOffset(), ...load(W_AT - 28), ...add],
        [...wordOffset(), ...load(W_AT - 8), ...set(X), ...sigma(X, 17, 19, 10, shrU), ...add],
        store(W_AT),
        next(64),
      ),
      VARS.flatMap((v, k) => [...i32(0), ...load(H_AT + 4 * k), ...set(v)]),
      i32(0),
      set(I),
      // The 64 rounds.
      loop(
        [...get(H), ...sigma(E, 6, 11, 25, rotr), ...add],
        [...get(E), ...get(F), ...and, ...get(E), ...i32(-1), ...xor, ...get(G), ...and, ...xor, ...add],
        [...wordOffset(), ...load(K_AT), ...add, ...wordOffset(), ...load(W_AT), ...add, ...set(T1)],
        [...sigma(A, 2, 13, 22, rotr), ...get(A), ...get(B), ...and, ...get(A), ...get(C), ...and, ...xor, ...get(B), ...get(C), ...and, ...xor, ...add, ...set(T2)],
        [...get(G), ...set(H), ...get(F), ...set(G), ...get(E), ...set(F), ...get(D), ...get(T1), ...add, ...set(E)],
        [...get(C), ...set(D), ...get(B), ...set(C), ...get(A), ...set(B), ...get(T1), ...get(T2), ...add, ...set(A)],
        next(64),
      ),
      VARS.flatMap((v, k) => [...i32(0), ...i32(0), ...load(H_AT + 4 * k), ...get(v), ...add, ...store(H_AT + 4 * k)]),
      [...get(PTR), ...i32(64), ...add, ...set(PTR)],
      [...get(N), ...i32(1), ...sub, ...tee(N), ...brIf(0)],
    ),
    0x0b,
  ];
}

const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const name = (text: string): number[] => [...uleb(text.length), ...[...text].map((ch) => ch.charCodeAt(0))];

/** The module's bytes: one exported memory "m" and one exported function "c" (compress). */
export function moduleBytes(): Uint8Array {
  const code = [...uleb(1), 12, 0x7f, ...compressBody()];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [2, ...name('m'), 0x02, 0, ...name('c'), 0x00, 0]),
    ...section(10, [1, ...uleb(code.length), ...code]),
  ]);
}


export function moduleBase64(): string {
  return Buffer.from(moduleBytes()).toString('base64');
}
