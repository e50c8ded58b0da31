/**
 * String and integer formats shared by the generated validators, the client, the
 * reference indexer and the conformance runner. Validators reference `formats` by name,
 * so each function here is the single definition of its format.
 */
import bs58 from "bs58";

export const UINT64_MAX = 18446744073709551615n;

/**
 * Longest text the `base58` format accepts. Decoding base58 costs time quadratic in its length
 * (about 1 s for 30,000 characters), so unbounded text would let one request stall a server;
 * 4096 characters (about 3 KB of bytes) decode in well under a millisecond or two.
 */
export const MAX_BASE58_TEXT = 4096;

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]*$/;
/** The most bytes `base58ByteCount` counts (a 64-byte signature, with room for leading zero bytes). */
const MAX_COUNTED_BYTES = 96;

/**
 * POW[k] is base58 of 256^k. Canonical base58 numerals (no leading '1') compare like their
 * values when compared by length, then as strings (the alphabet is in ASCII order).
 */
const POW: string[] = [];
for (let k = 0; k <= MAX_COUNTED_BYTES; k++) {
  const bytes = new Uint8Array(k + 1);
  bytes[0] = 1;
  POW.push(bs58.encode(bytes));
}

/**
 * Two base58 numerals compared as the numbers they write, for text without leading `1`s or with as
 * many of them on both sides: by length, then as strings (the alphabet is in ASCII order).
 */
export function compareBase58Numerals(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  if (a.length === 0) return 0;
  // The first digits settle most comparisons (nearly every one against a byte-count bound): a string comparison costs more than two char codes.
  const first = a.charCodeAt(0) - b.charCodeAt(0);
  if (first !== 0) return first;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether `bs58.decodeUnsafe(value)` would give exactly `bytes` bytes (at most 64), without
 * decoding: each leading '1' is a zero byte, and the rest, a number N, needs k more bytes
 * exactly when 256^(k-1) <= N < 256^k.
 */
export function isBase58OfLength(value: string, bytes: number): boolean {
  if (!BASE58.test(value)) return false;
  let zeros = 0;
  while (zeros < value.length && value.charCodeAt(zeros) === 49) zeros++;
  const k = bytes - zeros;
  if (zeros === value.length) return k === 0;
  if (k <= 0 || k > 64) return false;
  const rest = zeros === 0 ? value : value.slice(zeros);
  return compareBase58Numerals(rest, POW[k - 1]!) >= 0 && compareBase58Numerals(rest, POW[k]!) < 0;
}

/**
 * How many bytes `decodeBase58(value)` gives, counted without decoding (each leading '1' a zero
 * byte, then the number's bytes, found against POW); -1 for text that is not base58 or would give
 * more than MAX_COUNTED_BYTES bytes. Time linear in the text, where decoding is quadratic.
 */
export function base58ByteCount(value: string): number {
  if (!BASE58.test(value)) return -1;
  let zeros = 0;
  while (zeros < value.length && value.charCodeAt(zeros) === 49) zeros++;
  if (zeros === value.length) return zeros <= MAX_COUNTED_BYTES ? zeros : -1;
  const rest = zeros === 0 ? value : value.slice(zeros);
  // d digits hold at least 58^(d-1) ≥ 256^(0.732·(d-1)): never fewer bytes than that.
  let k = Math.max(1, Math.floor((rest.length - 1) * 0.732));
  while (k <= MAX_COUNTED_BYTES && compareBase58Numerals(rest, POW[k]!) >= 0) k++;
  return k + zeros <= MAX_COUNTED_BYTES ? k + zeros : -1;
}

/** Decodes base58, or returns undefined when the text is not base58. */
export function decodeBase58(value: string): Uint8Array | undefined {
  return bs58.decodeUnsafe(value);
}

export function encodeBase58(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

// With the length a multiple of four, the same text as /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
// read a fifth faster (no group entered per four characters: account data is most of a page's text).
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Format checks by name, as referenced by `format:` in the spec. */
export const formats = {
  /** A base58 public key of exactly 32 bytes (at most 44 characters). */
  pubkey: (value: string): boolean => value.length <= 44 && isBase58OfLength(value, 32),
  /** A base58 hash of exactly 32 bytes. */
  hash: (value: string): boolean => value.length <= 44 && isBase58OfLength(value, 32),
  /** A base58 transaction signature of exactly 64 bytes. */
  signature: (value: string): boolean => value.length <= 88 && isBase58OfLength(value, 64),
  /** Any base58 text up to MAX_BASE58_TEXT characters (the empty string decodes to no bytes). */
  base58: (value: string): boolean => value.length <= MAX_BASE58_TEXT && BASE58.test(value),
  /** Standard base64 with `=` padding. */
  base64: (value: string): boolean => value.length % 4 === 0 && BASE64.test(value),
} as const;

export type FormatName = keyof typeof formats;

/** True for a uint64: a safe non-negative integer number, or a bigint in 0..2^64-1. */
export function isUint64(value: unknown): value is number | bigint {
  if (typeof value === "bigint") return value >= 0n && value <= UINT64_MAX;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
