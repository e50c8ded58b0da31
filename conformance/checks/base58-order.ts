/**
 * Order of base58 keys as the bytes they stand for (Photon orders hashes, signatures and public
 * keys by their bytes: `bytea` order, byte by byte, a shorter prefix first). Walks compare every
 * item's key with the one before it, so this decides most comparisons on the text alone and
 * decodes only where the text cannot tell.
 */

/** Bytes in `bytea` order: byte by byte, then the shorter first. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The longest key text compared as the bytes it stands for: Photon orders by hashes and public keys
 * (32 bytes, at most 44 characters) and signatures (64 bytes, at most 88). A longer key (only a
 * target's malformed answer has one; the schema check says so) compares as no bytes, as text that
 * is not base58 does: decoding it, or weighing its digits, costs time quadratic in its length, and a
 * page of 100,000-digit keys held the check for seconds per comparison.
 */
export const MAX_KEY_TEXT = 128;

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;
const LIMB = 2 ** 32;

/**
 * Base58 text decoded to its bytes (as `decodeBase58` does: one zero byte per leading `1`, then
 * the number's big-endian bytes), three digits at a time into 32-bit limbs rather than one digit
 * into bytes: walks compare every item's key, and this was their largest cost. Empty bytes for
 * text that is not base58 (as before: `decodeBase58(text) ?? new Uint8Array()`), and for text
 * longer than MAX_KEY_TEXT (no key Photon orders by is; decoding costs time quadratic in the length).
 */
export function base58Bytes(text: string): Uint8Array {
  if (text.length > MAX_KEY_TEXT) return new Uint8Array();
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++;
  const limbs = new Float64Array(Math.ceil(((text.length - zeros) * 5.858) / 32) + 1); // log2(58) < 5.858 bits a digit
  let used = 0;
  for (let i = zeros; i < text.length; ) {
    let chunk = 0;
    let scale = 1;
    for (let k = 0; k < 3 && i < text.length; k++, i++) {
      const c = text.charCodeAt(i);
      const d = c < 128 ? DIGIT[c]! : -1;
      if (d < 0) return new Uint8Array();
      chunk = chunk * 58 + d;
      scale *= 58;
    }
    let carry = chunk;
    for (let j = 0; j < used; j++) {
      const x = limbs[j]! * scale + carry; // < 2^32 · 58^3 + 2^18 < 2^53: exact
      carry = Math.floor(x / LIMB);
      limbs[j] = x - carry * LIMB;
    }
    while (carry > 0) {
      const next = Math.floor(carry / LIMB);
      limbs[used++] = carry - next * LIMB;
      carry = next;
    }
  }
  const top = used * 4;
  const bytes = new Uint8Array(zeros + top);
  for (let j = 0; j < used; j++) {
    const v = limbs[j]!;
    const at = bytes.length - 4 * j;
    bytes[at - 1] = v & 0xff;
    bytes[at - 2] = (v >>> 8) & 0xff;
    bytes[at - 3] = (v >>> 16) & 0xff;
    bytes[at - 4] = (v >>> 24) & 0xff;
  }
  // The top limb's leading zero bytes are not part of the number.
  let lead = 0;
  while (lead < top && bytes[zeros + lead] === 0) lead++;
  return lead === 0 ? bytes : bytes.subarray(lead);
}

/**
 * Bytes a base58 number of `d` digits (the first not `1`) decodes to, per digit count: one value,
 * or two with the d-digit text of the smallest number taking the larger count (base58 digits are
 * in ASCII order, so equal-length texts compare as their numbers).
 */
const LENGTHS: ({ lo: number; hi: number; boundary: string } | undefined)[] = [];

function byteLength(value: bigint): number {
  let n = 0;
  for (let v = value; v > 0n; v >>= 8n) n++;
  return n;
}

function toBase58(value: bigint): string {
  let out = "";
  for (let v = value; v > 0n; v /= 58n) out = ALPHABET[Number(v % 58n)] + out;
  return out;
}

function lengthsFor(d: number): { lo: number; hi: number; boundary: string } {
  let known = LENGTHS[d];
  if (known === undefined) {
    const lo = byteLength(58n ** BigInt(d - 1));
    const hi = byteLength(58n ** BigInt(d) - 1n);
    // 58^d spans less than 8 bits: at most one byte count is crossed within d digits.
    known = LENGTHS[d] = { lo, hi, boundary: lo === hi ? "" : toBase58(256n ** BigInt(lo)) };
  }
  return known;
}

/** Bytes of the number written by `text` from `from` on (its first digit not `1`): by digit count, and at a crossing by the text. */
function numberBytes(text: string, from: number): number {
  const { lo, hi, boundary } = lengthsFor(text.length - from);
  if (lo === hi) return lo;
  for (let i = 0; i < boundary.length; i++) {
    const c = text.charCodeAt(from + i);
    const e = boundary.charCodeAt(i);
    if (c !== e) return c > e ? hi : lo;
  }
  return hi; // equal to 256^lo
}

function leadingOnes(text: string): number {
  let z = 0;
  while (z < text.length && text.charCodeAt(z) === 49) z++;
  return z;
}

function isBase58(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || DIGIT[c]! < 0) return false;
  }
  return true;
}

const BASE58_TEXT = /^[1-9A-HJ-NP-Za-km-z]*$/;

/**
 * What decides most comparisons of `text` with another, read once per key: its leading `1`s and
 * the bytes of the number after them, packed (zeros · 2^20 + bytes); -1 where the text alone
 * cannot be compared (not base58, only `1`s, or longer than MAX_KEY_TEXT). Two keys of the same rank (≥ 0)
 * compare as `compareBase58` compares them on its fast path: more digits, or at equal length the
 * later text, is larger.
 */
export function base58Rank(text: string): number {
  const zeros = leadingOnes(text);
  if (zeros === text.length || text.length > MAX_KEY_TEXT || !BASE58_TEXT.test(text)) return -1;
  return zeros * 2 ** 20 + numberBytes(text, zeros);
}

/** `compareBase58(a, b)` given both texts' `base58Rank`: decided on the text where the ranks agree. */
export function compareRankedBase58(a: string, rankA: number, b: string, rankB: number): number {
  if (rankA >= 0 && rankA === rankB) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareBase58(a, b);
}

/**
 * The sign of comparing the bytes `a` and `b` stand for, exactly as `compareBytes(base58Bytes(a),
 * base58Bytes(b))` (text that is not base58, or longer than MAX_KEY_TEXT, is empty bytes). With as many leading `1`s (zero
 * bytes) and numbers of as many bytes, byte order is number order: more digits, or at equal
 * length the later text, is larger. Anything else is decoded.
 */
export function compareBase58(a: string, b: string): number {
  const za = leadingOnes(a);
  if (
    a.length <= MAX_KEY_TEXT &&
    b.length <= MAX_KEY_TEXT &&
    za === leadingOnes(b) &&
    za < a.length &&
    za < b.length &&
    isBase58(a) &&
    isBase58(b) &&
    numberBytes(a, za) === numberBytes(b, za)
  ) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareBytes(base58Bytes(a), base58Bytes(b));
}
