/**
 * Poseidon outputs computed at build time (scripts/build.mjs) for the default dataset's trees, so the
 * embedded reference answers its first proofs without hashing its trees. An entry is keyed by 128 bits
 * of the SHA-256 of its inputs' canonical text: only the exact inputs find it. File: `PHPM1\n`, the
 * records' SHA-256, then sorted 48-byte records (key, output). Absent, damaged or off
 * (`PHOTON_POSEIDON_MEMO=off`): every call hashes.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const MAGIC = Buffer.from("PHPM1\n", "latin1");
const KEY = 16;
const RECORD = KEY + 32;

/** The memo file built with the package (dist/reference/trees/), next to the compiled module. */
export const DEFAULT_MEMO_FILE = fileURLToPath(new URL("./poseidon-memo.bin", import.meta.url));

/** The key of a call: 128 bits of SHA-256 of its canonical text (`2:1f:a0`). */
function keyOf(text: string): Buffer {
  return createHash("sha256").update(text, "latin1").digest().subarray(0, KEY);
}

/** A loaded memo: sorted records, found by binary search on the key. */
export class PoseidonMemo {
  private readonly records: Buffer;
  readonly size: number;

  private constructor(records: Buffer) {
    this.records = records;
    this.size = records.length / RECORD;
  }

  /** The memo in `bytes`, or null when they are not one (another header, a partial record, a checksum that does not match). */
  static fromBytes(bytes: Buffer): PoseidonMemo | null {
    const head = MAGIC.length + 32;
    if (bytes.length < head || !bytes.subarray(0, MAGIC.length).equals(MAGIC) || (bytes.length - head) % RECORD !== 0) return null;
    const records = bytes.subarray(head);
    if (!createHash("sha256").update(records).digest().equals(bytes.subarray(MAGIC.length, head))) return null;
    return new PoseidonMemo(records);
  }

  /** The output remembered for the call whose canonical text is `text`, or undefined. */
  get(text: string): bigint | undefined {
    const key = keyOf(text);
    const records = this.records;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const off = mid * RECORD;
      const c = records.compare(key, 0, KEY, off, off + KEY);
      if (c === 0) return BigInt(`0x${records.toString("hex", off + KEY, off + RECORD)}`);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }
}

/** The memo at `path`, or null when it is absent or malformed (never an error: without it, every call hashes). */
export function loadPoseidonMemo(path: string): PoseidonMemo | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  return PoseidonMemo.fromBytes(bytes);
}

/** Calls recorded while `recordPoseidon` is on: canonical text → output. */
export class PoseidonRecording {
  private readonly calls = new Map<string, bigint>();

  add(text: string, output: bigint): void {
    this.calls.set(text, output);
  }

  get size(): number {
    return this.calls.size;
  }

  /** The memo file's bytes: the records sorted by key. */
  bytes(): Buffer {
    const records = [...this.calls].map(([text, output]) => Buffer.concat([keyOf(text), Buffer.from(output.toString(16).padStart(64, "0"), "hex")]));
    records.sort((a, b) => a.compare(b, 0, KEY, 0, KEY));
    const body = Buffer.concat(records);
    return Buffer.concat([MAGIC, createHash("sha256").update(body).digest(), body]);
  }

  write(path: string): void {
    writeFileSync(path, this.bytes());
  }
}
