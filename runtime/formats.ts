/**
 * String and integer formats shared by the generated validators, the client, the
 * reference indexer and the conformance runner. Validators reference `formats` by name,
 * so each function here is the single definition of its format.
 */
import { isBase58, isBase58OfLength } from "./base58.js";

export const UINT64_MAX = 18446744073709551615n;

/**
 * Longest text the `base58` format accepts. Decoding base58 costs time quadratic in its length
 * (about 1 s for 30,000 characters), so unbounded text would let one request stall a server;
 * 4096 characters (about 3 KB of bytes) decode in well under a millisecond or two.
 */
export const MAX_BASE58_TEXT = 4096;

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
  base58: (value: string): boolean => value.length <= MAX_BASE58_TEXT && isBase58(value),
  /** Standard base64 with `=` padding. */
  base64: (value: string): boolean => value.length % 4 === 0 && BASE64.test(value),
} as const;

export type FormatName = keyof typeof formats;

/** True for a uint64: a safe non-negative integer number, or a bigint in 0..2^64-1. */
export function isUint64(value: unknown): value is number | bigint {
  if (typeof value === "bigint") return value >= 0n && value <= UINT64_MAX;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
