/**
 * SHA-256, hex, of what the hook path hashes (stash keys, stats digests, filter-file trust): through WebAssembly
 * (./sha256-wasm.ts) for the first WASM_BUDGET_BYTES a process hashes, through node:crypto after that, where hashing
 * at the first tier's speed (about 25 MB/s) would cost more than loading node:crypto (about 8 ms). Both give the same
 * digest. Without WebAssembly (`node --jitless`), node:crypto throughout.
 */
import { builtin } from './builtin.ts';
import { sha256Hex } from './sha256-wasm.ts';

export const WASM_BUDGET_BYTES = 128 * 1024;

let wasmWorks = true;
let wasmBytesLeft = WASM_BUDGET_BYTES;

export function sha256(bytes: Uint8Array): string {
  if (wasmWorks && bytes.length <= wasmBytesLeft) {
    try {
      wasmBytesLeft -= bytes.length;
      return sha256Hex(bytes);
    } catch {
      wasmWorks = false;
    }
  }
  return builtin('node:crypto').createHash('sha256').update(bytes).digest('hex');
}
