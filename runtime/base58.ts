/**
 * Base58 in Bitcoin's alphabet, as Solana writes keys, hashes and signatures: text for text and byte
 * for byte what bs58 gives (each leading zero byte a leading '1'), plus counts and comparisons
 * decided on the text alone, where decoding would cost time quadratic in its length.
 */
import { ClientErrorCode, internalError } from "./errors.js";

/** The 58 digits in order of value, which is also ASCII order: equal-length numerals compare as strings. */
export const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]*$/;
const DIGITS = Buffer.from(BASE58_ALPHABET, "latin1");
/** A digit's value by its char code, -1 for characters outside the alphabet. */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 58; i++) VALUE[BASE58_ALPHABET.charCodeAt(i)] = i;
/** 58^5: a limb of the encoder holds five digits, and the decoder reads five at a time (< 2^30). */
const LIMB = 656356768;
const POW58 = [1, 58, 3364, 195112, 11316496, LIMB];
const scratchLimbs = new Float64Array(128);
const scratchText = Buffer.alloc(256);

/** Whether every character of `text` is a base58 digit (the empty text is: it decodes to no bytes). */
export function isBase58(text: string): boolean {
  return BASE58.test(text);
}

function leadingOnes(text: string): number {
  let z = 0;
  while (z < text.length && text.charCodeAt(z) === 49) z++;
  return z;
}

/** The base58 text of `bytes`, exactly bs58's `encode`. */
export function encodeBase58(bytes: Uint8Array): string {
  const n = bytes.length;
  const zeros = leadingZeroBytes(bytes);
  const need = Math.ceil(((n - zeros) * 1.3658) / 5) + 2;
  const limbs = need <= scratchLimbs.length ? scratchLimbs : new Float64Array(need);
  // Little-endian limbs in base 58^5, fed two input bytes at a time (limb · 2^16 < 2^46, exact).
  let used = 0;
  let i = zeros;
  if ((n - zeros) % 2 === 1) {
    limbs[0] = bytes[i++] as number;
    used = 1;
  }
  for (; i < n; i += 2) {
    let carry = ((bytes[i] as number) << 8) | (bytes[i + 1] as number);
    for (let j = 0; j < used; j++) {
      const x = (limbs[j] as number) * 65536 + carry;
      carry = Math.floor(x / LIMB);
      limbs[j] = x - carry * LIMB;
    }
    while (carry > 0) {
      const q = Math.floor(carry / LIMB);
      limbs[used++] = carry - q * LIMB;
      carry = q;
    }
  }
  const text = zeros + used * 5 <= scratchText.length ? scratchText : Buffer.alloc(zeros + used * 5);
  let p = 0;
  for (; p < zeros; p++) text[p] = 49; // '1'
  if (used > 0) {
    // The top limb without its leading zero digits, then five digits per limb.
    let top = limbs[used - 1] as number;
    let width = 0;
    for (let t = top; t > 0; t = Math.floor(t / 58)) width++;
    for (let m = width - 1; m >= 0; m--) {
      const q = Math.floor(top / 58);
      text[p + m] = DIGITS[top - q * 58] as number;
      top = q;
    }
    p += width;
    for (let j = used - 2; j >= 0; j--) {
      let limb = limbs[j] as number;
      for (let m = 4; m >= 0; m--) {
        const q = Math.floor(limb / 58);
        text[p + m] = DIGITS[limb - q * 58] as number;
        limb = q;
      }
      p += 5;
    }
  }
  return text.toString("latin1", 0, p);
}

function leadingZeroBytes(bytes: Uint8Array): number {
  let z = 0;
  while (z < bytes.length && bytes[z] === 0) z++;
  return z;
}

/** The bytes `text` stands for, or undefined when it is not base58: exactly bs58's `decodeUnsafe`. */
export function decodeBase58(text: string): Uint8Array | undefined {
  const n = text.length;
  const zeros = leadingOnes(text);
  const digits = n - zeros;
  // Little-endian limbs of 16 bits, fed five digits at a time (limb · 58^5 < 2^46, exact).
  const need = Math.ceil((digits * 0.7323) / 2) + 2;
  const limbs = need <= scratchLimbs.length ? scratchLimbs : new Float64Array(need);
  let used = 0;
  let i = zeros;
  let group = digits % 5 || 5;
  while (i < n) {
    let carry = 0;
    for (const end = i + group; i < end; i++) {
      const c = text.charCodeAt(i);
      const d = c < 128 ? (VALUE[c] as number) : -1;
      if (d < 0) return undefined;
      carry = carry * 58 + d;
    }
    const scale = POW58[group] as number;
    group = 5;
    for (let j = 0; j < used; j++) {
      const x = (limbs[j] as number) * scale + carry;
      carry = Math.floor(x / 65536);
      limbs[j] = x - carry * 65536;
    }
    while (carry > 0) {
      const q = Math.floor(carry / 65536);
      limbs[used++] = carry - q * 65536;
      carry = q;
    }
  }
  const high = used > 0 && (limbs[used - 1] as number) < 256 ? 1 : 0;
  const out = new Uint8Array(zeros + used * 2 - high);
  let p = out.length;
  for (let j = 0; j < used; j++) {
    const limb = limbs[j] as number;
    out[--p] = limb & 255;
    if (p > zeros) out[--p] = limb >>> 8;
  }
  return out;
}

/** `value` as the base58 of its 32 big-endian bytes, as hashes and roots are written; a bug outside 0 ≤ value < 2^256. */
export function encodeBase58Uint256(value: bigint): string {
  const hex = value.toString(16);
  if (value < 0n || hex.length > 64) throw internalError(ClientErrorCode.INTERNAL, `${value} does not fit 32 bytes`);
  return encodeBase58(Buffer.from(hex.padStart(64, "0"), "hex"));
}

/** The number `text` writes as 32 big-endian bytes, or undefined when it is not base58 of exactly 32 bytes. */
export function decodeBase58Uint256(text: string): bigint | undefined {
  // 32 bytes take at most 44 characters: longer text is not decoded (time quadratic in its length).
  if (text.length > 44) return undefined;
  const bytes = decodeBase58(text);
  if (bytes?.length !== 32) return undefined;
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, 32).toString("hex")}`);
}

/** POW[k] is the base58 of 256^k: a number of k bytes lies in [POW[k-1], POW[k]). */
const MAX_COUNTED_BYTES = 96;
const POW: string[] = [];
for (let k = 0; k <= MAX_COUNTED_BYTES; k++) {
  const bytes = new Uint8Array(k + 1);
  bytes[0] = 1;
  POW.push(encodeBase58(bytes));
}

/** Numerals without leading '1's compared as numbers: by length, then as strings. */
function compareNumerals(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  if (a.length === 0) return 0;
  // The first digits settle most comparisons (nearly all against a byte-count bound): cheaper than a string comparison.
  const first = a.charCodeAt(0) - b.charCodeAt(0);
  if (first !== 0) return first;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The order of the numbers two base58 texts write (a '1' is a zero digit, so "12" equals "2"),
 * without decoding; for texts of one decoded length this is the order of their bytes.
 */
export function compareBase58Numbers(a: string, b: string): number {
  const za = leadingOnes(a);
  const zb = leadingOnes(b);
  // As many leading '1's: the texts compare as the numerals after them do.
  if (za === zb) return compareNumerals(a, b);
  const length = a.length - za - (b.length - zb);
  if (length !== 0) return length;
  for (let i = 0; i < a.length - za; i++) {
    const d = a.charCodeAt(za + i) - b.charCodeAt(zb + i);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Whether `decodeBase58(text)` gives exactly `bytes` bytes (at most 64), without decoding: each
 * leading '1' is a zero byte, and the rest, a number N, needs k more bytes when 256^(k-1) <= N < 256^k.
 */
export function isBase58OfLength(text: string, bytes: number): boolean {
  if (!BASE58.test(text)) return false;
  const zeros = leadingOnes(text);
  const k = bytes - zeros;
  if (zeros === text.length) return k === 0;
  if (k <= 0 || k > 64) return false;
  const rest = zeros === 0 ? text : text.slice(zeros);
  return compareNumerals(rest, POW[k - 1]!) >= 0 && compareNumerals(rest, POW[k]!) < 0;
}

/**
 * How many bytes `decodeBase58(text)` gives, counted without decoding in time linear in the text;
 * undefined for text that is not base58 or would give more than 96 bytes.
 */
export function base58ByteCount(text: string): number | undefined {
  if (!BASE58.test(text)) return undefined;
  const zeros = leadingOnes(text);
  if (zeros === text.length) return zeros <= MAX_COUNTED_BYTES ? zeros : undefined;
  const rest = zeros === 0 ? text : text.slice(zeros);
  // d digits hold at least 58^(d-1) ≥ 256^(0.732·(d-1)): never fewer bytes than that.
  let k = Math.max(1, Math.floor((rest.length - 1) * 0.732));
  while (k <= MAX_COUNTED_BYTES && compareNumerals(rest, POW[k]!) >= 0) k++;
  return k + zeros <= MAX_COUNTED_BYTES ? k + zeros : undefined;
}
