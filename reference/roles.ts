/**
 * The notable entities of a generated dataset: their public keys (derived from the seed
 * and a role name, so the generator and `datasetProfile` agree without storing them) and
 * the shape constants the generator builds them from.
 */
import { encodeBase58Fast } from "./base58.js";
import { Random } from "./random.js";

export interface Key {
  readonly text: string;
  readonly bytes: Uint8Array;
}

export function keyFromBytes(bytes: Uint8Array): Key {
  return { text: encodeBase58Fast(bytes), bytes };
}

/** A 32-byte value below the BN254 field modulus, as Photon's Poseidon hashes are. */
export function asFieldElement(bytes: Uint8Array): Uint8Array {
  bytes[0] = (bytes[0] as number) % 0x30;
  return bytes;
}

/** The public key of a named role in the dataset of `seed`. */
export function roleKey(seed: number, role: string): Key {
  return keyFromBytes(new Random(seed, `role:${role}`).bytes(32));
}

/** A 32-byte hash for a named role (never produced by the generator's own stream). */
export function roleHash(seed: number, role: string): Key {
  return keyFromBytes(asFieldElement(new Random(seed, `role:${role}`).bytes(32)));
}

/** Program owners of compressed accounts with a fixed number of unspent accounts. */
export const OWNER_ROLES = {
  /** 2500 unspent (100 pairs of them share a leafIndex in two trees), 60 spent. */
  ownerWithManyAccounts: { unspent: 2500, tiePairs: 100, spent: 60 },
  /** Exactly 1000 unspent: one full default page, then an empty page. */
  ownerWith1000: { unspent: 1000, spent: 25 },
  /** Exactly 1001 unspent: a full default page and a page of one. */
  ownerWith1001: { unspent: 1001, spent: 5 },
  /** One unspent account (address, data and seq all null), two spent. */
  ownerWithOneAccount: { unspent: 1, spent: 2 },
  /** Only spent accounts: zero unspent. */
  ownerWithOnlySpentAccounts: { unspent: 0, spent: 3 },
} as const;

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

/** Token owners (the `owner` of token methods). */
export const TOKEN_ROLES = {
  /** 40 mints, 1–3 unspent accounts each, plus a spent one for every fifth mint. */
  manyMints: 40,
  /** 1000 unspent accounts of one mint, 10 spent ones (spent in the dataset's last slot). */
  with1000: { unspent: 1000, spent: 10 },
  /** 1001 unspent accounts, each of its own mint (so 1001 balances too). */
  with1001: 1001,
} as const;
