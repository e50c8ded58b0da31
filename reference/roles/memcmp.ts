/** The memcmp role: a program owner whose account data start with known prefixes, for getCompressedAccountsByOwner's data filters. */
import { encodeBase58 } from "@photon-indexer-kit/runtime";
import { Random } from "../random.js";
import type { AccountRecord } from "../records.js";
import { expect, type RoleRecords } from "./facts.js";
import { roleKey } from "./keys.js";
import { account, type RoleEntry, repeat } from "./plan.js";

/** Data prefixes of the memcmp owner's unspent accounts (data bytes, after the discriminator). */
export const MEMCMP = {
  /** 20 accounts start with these bytes. */
  prefixA: [0x01, 0x02, 0x03, 0x04],
  countA: 20,
  /** 15 accounts start with these (share [1, 2] with A, differ at offset 2). */
  prefixB: [0x01, 0x02, 0xff, 0x00],
  countB: 15,
  /** One account whose data is just [0x01]: too short to match [1, 2]. */
  short: [0x01],
  /** 12 accounts with data starting at a byte in 0x10..0x7f. */
  countOther: 12,
  /** 6 accounts with data null (never match). */
  countNull: 6,
  /** 4 spent accounts with prefix A (never returned). */
  spentA: 4,
  /** No account's data holds these bytes at offset 0. */
  absent: [0xde, 0xad, 0xbe, 0xef],
  /** The discriminator of every memcmp-owner account; its LE bytes are not in the data. */
  discriminator: 0xe0c1a2b3c4d5e6f7n,
} as const;

export const MEMCMP_OWNER = "memcmpOwner";

export function memcmpPlan(seed: number): RoleEntry[] {
  const owner = roleKey(seed, MEMCMP_OWNER);
  const d = MEMCMP.discriminator;
  const r = new Random(seed, "memcmp");
  const tail = (prefix: readonly number[]) => [...prefix, ...r.bytes(r.below(40))];
  return [
    ...repeat(MEMCMP.countA, () => account(owner, false, { data: tail(MEMCMP.prefixA), discriminator: d })),
    ...repeat(MEMCMP.countB, () => account(owner, false, { data: tail(MEMCMP.prefixB), discriminator: d })),
    account(owner, false, { data: [...MEMCMP.short], discriminator: d }),
    ...repeat(MEMCMP.countOther, () => account(owner, false, { data: tail([r.between(0x10, 0x7f)]), discriminator: d })),
    ...repeat(MEMCMP.countNull, () => account(owner, false, { data: null })),
    ...repeat(MEMCMP.spentA, () => account(owner, true, { data: tail(MEMCMP.prefixA), discriminator: d })),
  ];
}

/** A memcmp filter of getCompressedAccountsByOwner and how many of the owner's unspent accounts it matches. */
export interface MemcmpCase {
  offset: number;
  /** Base58 of the compared bytes. */
  bytes: string;
  count: number;
}

export interface MemcmpFacts {
  /**
   * A program owner whose data starts with known prefixes: `filters` are memcmp cases with their match
   * counts over its `unspent` accounts; `nonMatching` matches nothing (filters see data only).
   */
  memcmpOwner: { owner: string; unspent: number; withData: number; matching: MemcmpCase; nonMatching: MemcmpCase; filters: MemcmpCase[] };
}

function dataBytes(account: AccountRecord): Buffer | null {
  return account.data === null ? null : Buffer.from(account.data.data, "base64");
}

export function memcmpFacts(records: RoleRecords): MemcmpFacts {
  const owner = records.key(MEMCMP_OWNER);
  const data = records.accountsOf(owner).unspent.map(dataBytes);
  const memcmpCase = (offset: number, bytes: readonly number[]): MemcmpCase => {
    const wanted = Buffer.from(bytes);
    const count = data.filter((d) => d?.subarray(offset, offset + wanted.length).equals(wanted)).length;
    return { offset, bytes: encodeBase58(Uint8Array.from(bytes)), count };
  };
  const discriminatorLe = Buffer.alloc(8);
  discriminatorLe.writeBigUInt64LE(MEMCMP.discriminator);
  const filters = [
    memcmpCase(0, MEMCMP.prefixA),
    memcmpCase(0, MEMCMP.prefixA.slice(0, 2)),
    memcmpCase(2, MEMCMP.prefixB.slice(2, 3)),
    memcmpCase(0, MEMCMP.short),
    memcmpCase(0, MEMCMP.absent),
    memcmpCase(0, [...discriminatorLe]),
  ];
  const [matching, , , , nonMatching] = filters as [MemcmpCase, MemcmpCase, MemcmpCase, MemcmpCase, MemcmpCase, MemcmpCase];
  expect(matching.count === MEMCMP.countA && nonMatching.count === 0, "memcmp prefixes do not match their counts");
  return { memcmpOwner: { owner, unspent: data.length, withData: data.filter((d) => d !== null).length, matching, nonMatching, filters } };
}
