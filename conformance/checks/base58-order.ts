/**
 * Order of base58 keys as the bytes they stand for (Photon orders hashes, signatures and public
 * keys by their bytes: `bytea` order, byte by byte, a shorter prefix first). Walks compare every
 * item's key with the one before it, so most comparisons are decided on the text alone: with as
 * many leading `1`s (zero bytes) and numbers of as many bytes (the runtime's `base58ByteCount`,
 * counted without decoding), byte order is number order: more digits, or at equal length the later
 * text (the alphabet is in ASCII order), is larger. Anything else is decoded and compared.
 */
import { base58ByteCount, compareBase58Numbers, decodeBase58 } from "@photon-indexer-kit/runtime";

/**
 * The longest key text compared as bytes (Photon's keys: at most 44 characters, signatures 88). A longer
 * key compares as no bytes, as non-base58 text does, since decoding it is quadratic in its length.
 */
export const MAX_KEY_TEXT = 128;

const NO_BYTES = new Uint8Array();

/** The bytes a key stands for: `decodeBase58`'s, or none for text that is not base58 or is longer than MAX_KEY_TEXT. */
export function base58Bytes(text: string): Uint8Array {
  return (text.length <= MAX_KEY_TEXT && decodeBase58(text)) || NO_BYTES;
}

function leadingOnes(text: string): number {
  let z = 0;
  while (z < text.length && text.charCodeAt(z) === 49) z++;
  return z;
}

/**
 * What decides most comparisons of `text`, read once per key: leading `1`s and decoded bytes, packed
 * (zeros · 2^20 + bytes); -1 where text alone cannot compare. Equal ranks compare by text: longer, then later, is larger.
 */
export function base58Rank(text: string): number {
  if (text.length > MAX_KEY_TEXT) return -1;
  const zeros = leadingOnes(text);
  if (zeros === text.length) return -1;
  const bytes = base58ByteCount(text);
  return bytes === undefined ? -1 : zeros * 2 ** 20 + bytes;
}

/** `compareBase58Bytes(a, b)` given both texts' `base58Rank`: decided on the text where the ranks agree. */
export function compareRankedBase58(a: string, rankA: number, b: string, rankB: number): number {
  if (rankA >= 0 && rankA === rankB) return compareBase58Numbers(a, b);
  return Buffer.compare(base58Bytes(a), base58Bytes(b));
}

/** The sign of comparing the bytes `a` and `b` stand for (`Buffer.compare` of `base58Bytes`), decided on the text where it can be. */
export function compareBase58Bytes(a: string, b: string): number {
  return compareRankedBase58(a, base58Rank(a), b, base58Rank(b));
}
