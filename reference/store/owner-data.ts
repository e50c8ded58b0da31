/** The account data bytes of a list, packed once for memcmp filters. */
import type { AccountRecord } from "../records.js";

/**
 * A list's account data bytes, decoded once, in the list's order: account i's bytes are
 * `bytes[start[i], start[i + 1])`, and `hasData[i]` is 0 where its data is null. memcmp
 * filters compare in place here instead of decoding base64 per account and call.
 */
export interface OwnerData {
  readonly bytes: Buffer;
  readonly start: Int32Array;
  readonly hasData: Uint8Array;
}

const EMPTY_DATA: OwnerData = { bytes: Buffer.alloc(0), start: new Int32Array(1), hasData: new Uint8Array(0) };

/** Decodes every row's data once into one buffer. */
export function packData(rows: readonly AccountRecord[]): OwnerData {
  if (rows.length === 0) return EMPTY_DATA;
  const parts: Buffer[] = [];
  const start = new Int32Array(rows.length + 1);
  const hasData = new Uint8Array(rows.length);
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    const data = (rows[i] as AccountRecord).data;
    start[i] = at;
    if (data === null) continue;
    const bytes = Buffer.from(data.data, "base64");
    hasData[i] = 1;
    parts.push(bytes);
    at += bytes.length;
  }
  start[rows.length] = at;
  return { bytes: Buffer.concat(parts, at), start, hasData };
}
