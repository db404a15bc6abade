/**
 * SHA-256 (FIPS 180-4) with its compression function in WebAssembly, for the digests a hook call takes: loading
 * node:crypto costs a hook process about 8 ms, and plain JavaScript runs cold in V8's interpreter (40 KB took 16 ms),
 * while WebAssembly is compiled to machine code as it loads (about 1 ms for this module). V8's first tier runs it at
 * about 25 MB/s, so ./digest.ts hands larger inputs to node:crypto. Same digest as node:crypto, byte for byte: a
 * test compares the two around every block and padding boundary and on random inputs.
 *
 * The module's source is ./sha256-wasm-assembly.ts; it is carried here as base64. Memory: the state H (8 words) at 0,
 * the round constants K at 32, the message schedule W at 288, the padded message from INPUT on.
 */

export const H_AT = 0;
export const K_AT = 32;
export const W_AT = 288;
const INPUT = 1024;
const PAGE = 65_536;

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** ./sha256-wasm-assembly.ts's moduleBase64(): a memory "m" and compress(ptr, blocks) "c". */
export const MODULE_BASE64 =
  'AGFzbQEAAAABBgFgAn9/AAMCAQAFAwEAAQcJAgFtAgABYwAACvgDAfUDAQx/A0BBACEMA0AgACAMQQJ0aigCACENIAxBAnQgDUEId0H/gfwHcSANQQh4QYD+g3hxcjYCoAIgDEEBaiIMQRBJDQALA0AgDEECdCAMQQJ0KALgASAMQQJ0KALkASENIA1BB3ggDUESeHMgDUEDdnNqIAxBAnQoAoQCaiAMQQJ0KAKYAiENIA1BEXggDUETeHMgDUEKdnNqNgKgAiAMQQFqIgxBwABJDQALQQAoAgAhAkEAKAIEIQNBACgCCCEEQQAoAgwhBUEAKAIQIQZBACgCFCEHQQAoAhghCEEAKAIcIQlBACEMA0AgCSAGQQZ4IAZBC3hzIAZBGXhzaiAGIAdxIAZBf3MgCHFzaiAMQQJ0KAIgaiAMQQJ0KAKgAmohCiACQQJ4IAJBDXhzIAJBFnhzIAIgA3EgAiAEcXMgAyAEcXNqIQsgCCEJIAchCCAGIQcgBSAKaiEGIAQhBSADIQQgAiEDIAogC2ohAiAMQQFqIgxBwABJDQALQQBBACgCACACajYCAEEAQQAoAgQgA2o2AgRBAEEAKAIIIARqNgIIQQBBACgCDCAFajYCDEEAQQAoAhAgBmo2AhBBAEEAKAIUIAdqNgIUQQBBACgCGCAIajYCGEEAQQAoAhwgCWo2AhwgAEHAAGohACABQQFrIgENAAsL';

// The project's TypeScript libraries (ES2023, no DOM) do not declare WebAssembly: the little this file uses of it.
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: { readonly m: WasmMemory; readonly c: (ptr: number, blocks: number) => void } };
}

interface Compressor {
  readonly memory: WasmMemory;
  readonly compress: (ptr: number, blocks: number) => void;
}

let compressor: Compressor | null = null;

function instance(): Compressor {
  if (compressor !== null) return compressor;
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const { exports } = new wasm.Instance(new wasm.Module(Buffer.from(MODULE_BASE64, 'base64')));
  new Uint32Array(exports.m.buffer, K_AT, 64).set(K);
  compressor = { memory: exports.m, compress: exports.c };
  return compressor;
}

/** The lowercase hex SHA-256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  const { memory, compress } = instance();
  const length = bytes.length;
  // The message, a 0x80 byte, zeros, and the bit length as 64 bits: a whole number of 64-byte blocks.
  const padded = (((length + 8) >> 6) + 1) << 6;
  const need = INPUT + padded;
  if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
  const heap = new Uint8Array(memory.buffer);
  heap.set(bytes, INPUT);
  heap.fill(0, INPUT + length, need);
  heap[INPUT + length] = 0x80;
  const view = new DataView(memory.buffer);
  view.setUint32(need - 8, Math.floor(length / 0x20000000), false);
  view.setUint32(need - 4, (length << 3) >>> 0, false);
  const state = new Uint32Array(memory.buffer, H_AT, 8);
  state.set(INITIAL);
  compress(INPUT, padded >> 6);
  let hex = '';
  for (const word of state) hex += word.toString(16).padStart(8, '0');
  return hex;
}
