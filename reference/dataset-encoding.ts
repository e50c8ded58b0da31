/** The dataset generator's deterministic text and byte encoders: random base58 hashes and signatures, block times, token data layout. */
import { BASE58_ALPHABET } from "@photon-indexer-kit/runtime";
import type { Random } from "./random.js";
import type { TokenState, U64 } from "./records.js";
import type { Key } from "./roles/keys.js";

export const FIRST_SLOT = 301_000_000;
export const FIRST_BLOCK_TIME = 1_732_000_000;

const ALPHABET = Buffer.from(BASE58_ALPHABET, "latin1");
const textBuffer = Buffer.alloc(128);
/**
 * Random canonical base58 text of a fixed byte length, drawn as `length` digits whose first is at
 * least `firstDigit`, chosen so the text is exactly the base58 of `bytes` bytes with a non-zero first byte
 * (signatures: 87 digits, first ≥ 2; hashes: 43 digits, first ≥ 4, below the BN254 modulus).
 */
export function base58Text(rng: Random, length: number, firstDigit: number): string {
  const out = textBuffer;
  out[0] = ALPHABET[firstDigit + rng.below(58 - firstDigit)] as number;
  let x = 0;
  let left = 0;
  for (let i = 1; i < length; i++) {
    if (left === 0) {
      x = rng.u32();
      left = 5;
    }
    const q = Math.floor(x / 58);
    out[i] = ALPHABET[x - q * 58] as number;
    x = q;
    left--;
  }
  return out.toString("latin1", 0, length);
}
export const SIGNATURE_TEXT = { length: 87, firstDigit: 2 } as const;
export const HASH_TEXT = { length: 43, firstDigit: 4 } as const;

export function blockTime(slot: number): number {
  return FIRST_BLOCK_TIME + Math.floor(((slot - FIRST_SLOT) * 2) / 5);
}

/** The extensions' bytes as they follow the option tag in token data: u32 LE length, then the bytes. */
export function tlvWithLength(tlv: Uint8Array): Buffer {
  const out = Buffer.alloc(4 + tlv.length);
  out.writeUInt32LE(tlv.length, 0);
  out.set(tlv, 4);
  return out;
}

/** The borsh layout of compressed token data: mint, owner, amount (u64 LE), Option<delegate>, state, Option<tlv>. */
export function tokenLayout(mint: Key, owner: Key, amount: U64, delegate: Key | null, state: TokenState, tlv: Uint8Array | null): Uint8Array {
  const size = 32 + 32 + 8 + 1 + (delegate ? 32 : 0) + 1 + 1 + (tlv ? 4 + tlv.length : 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(mint.bytes, 0);
  out.set(owner.bytes, 32);
  view.setBigUint64(64, BigInt(amount), true);
  let p = 72;
  out[p++] = delegate ? 1 : 0;
  if (delegate) {
    out.set(delegate.bytes, p);
    p += 32;
  }
  out[p++] = state === "frozen" ? 1 : 0;
  out[p++] = tlv ? 1 : 0;
  if (tlv) {
    view.setUint32(p, tlv.length, true);
    out.set(tlv, p + 4);
  }
  return out;
}
