import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256, WASM_BUDGET_BYTES } from '../../../src/store/digest.ts';
import { moduleBase64 } from '../../../src/store/sha256-wasm-assembly.ts';
import { MODULE_BASE64, sha256Hex } from '../../../src/store/sha256-wasm.ts';

const reference = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('SHA-256 in WebAssembly', () => {
  it('the module carried as base64 is what the assembly source builds', () => {
    expect(MODULE_BASE64).toBe(moduleBase64());
  });

  it('gives node:crypto digest at every length around the block and padding boundaries', () => {
    for (let length = 0; length <= 200; length += 1) {
      const bytes = randomBytes(length);
      expect(sha256Hex(bytes), `length ${length}`).toBe(reference(bytes));
    }
  });

  it('gives the FIPS 180-4 examples, and the same digest for large and repeated inputs (memory grows, state resets)', () => {
    expect(sha256Hex(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    for (const length of [1_000_000, 3 * 65_536 + 7, 64]) {
      const bytes = randomBytes(length);
      expect(sha256Hex(bytes)).toBe(reference(bytes));
    }
  });

  it("digest.ts hands what passes the process's budget to node:crypto, with the same result", () => {
    for (const length of [WASM_BUDGET_BYTES / 2, WASM_BUDGET_BYTES, 10, WASM_BUDGET_BYTES + 1]) {
      const bytes = randomBytes(length);
      expect(sha256(bytes)).toBe(reference(bytes));
    }
  });
});
