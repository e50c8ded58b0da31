/**
 * The notable entities of a generated dataset: their public keys (derived from the seed
 * and a role name, so the generator and `datasetProfile` agree without storing them) and
 * the shape constants the generator builds them from.
 */
import { encodeBase58 } from "@photon-indexer-kit/runtime";
import { Random } from "./random.js";

export interface Key {
  readonly text: string;
  readonly bytes: Uint8Array;
}

export function keyFromBytes(bytes: Uint8Array): Key {
  return { text: encodeBase58(bytes), bytes };
}

/** A 32-byte value below the BN254 field modulus, as Photon's Poseidon hashes are. */
export function asFieldElement(bytes: Uint8Array): Uint8Array {
  bytes[0] = (bytes[0] as number) % 0x30;
  return bytes;
}

/**
 * A 32-byte address value: its first byte is zero, as Light Protocol derives addresses
 * (light-protocol program-libs/hasher/src/hash_to_field_size.rs, `hashv_to_bn254_field_size_be`
 * truncates to 31 bytes), so it is a BN254 field element below the address trees' highest
 * value 2^248 - 1 (stateless.js `HIGHEST_ADDRESS_PLUS_ONE`).
 */
export function asAddress(bytes: Uint8Array): Uint8Array {
  bytes[0] = 0;
  return bytes;
}

/** The public key of a named role in the dataset of `seed`. */
export function roleKey(seed: number, role: string): Key {
  return keyFromBytes(new Random(seed, `role:${role}`).bytes(32));
}

/** An address value (see `asAddress`) for a named role (never produced by the generator's own stream). */
export function roleAddress(seed: number, role: string): Key {
  return keyFromBytes(asAddress(new Random(seed, `role:${role}`).bytes(32)));
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

/**
 * Token owners (the `owner` of token methods). Balance rows follow Photon's zero-balance rule: a
 * (token owner, mint) row exists once a non-zero amount was added to it (the ingester skips zero net
 * changes, photon HEAD:src/ingester/persist/mod.rs:387-403) and is never deleted, so a mint whose
 * accounts were all created with amount 0 has no row, and one whose accounts were all spent keeps a
 * row of 0. Random token amounts are 0 one time in ten; the roles below fix what their rows need.
 */
export const TOKEN_ROLES = {
  /** 40 mints, 1–3 unspent accounts each (the first of a non-zero amount, so each mint has a balance row), plus a spent one for every fifth mint. */
  manyMints: 40,
  /** 1000 unspent accounts of one mint, 10 spent ones (spent in the dataset's last slot). */
  with1000: { unspent: 1000, spent: 10 },
  /** 1001 unspent accounts, each of its own mint and of a non-zero amount (so 1001 balance rows too). */
  with1001: 1001,
} as const;

/**
 * The token owner for the zero-balance rule (see TOKEN_ROLES): its accounts of one mint (`zeroBalanceMint`)
 * held `spentAmounts` and are all spent (a row of 0); its only account of a second mint has amount 0 and is
 * unspent (no row); its `positive` unspent accounts of a third mint have non-zero amounts (a row).
 */
export const ZERO_BALANCE = { spentAmounts: [500, 700], positive: 2 } as const;

/** The owner of accounts in batched state trees, in each place a batched account can be. */
export const BATCHED_ROLE = {
  /** Unspent, appended to the tree (proved by a path, proveByIndex false). `seq` is null, as for every batched account. */
  inTree: 3,
  /** Unspent, created last: still in the tree's output queue (`inOutputQueue`; proveByIndex true). */
  inOutputQueue: 3,
  /** Spent in the dataset's last slot: still in the tree's input queue (`inInputQueue`). */
  inInputQueue: 2,
  /** Spent early: nullified in the tree. */
  nullified: 1,
} as const;

/** One address updated `versions - 1` times: each update closes the old version and opens the new one in one transaction. */
export const ADDRESS_HISTORY = { versions: 4 } as const;

/** A program owner whose unspent lamports sum above 2^53 (each account below it); a spent account holds more. */
export const BIG_BALANCE = {
  lamports: [2n ** 52n + 1n, 2n ** 52n + 3n, 2n ** 51n + 5n],
  spentLamports: 2n ** 62n,
} as const;

/**
 * A mint with more than a page of holders and a delegate with more than a page of unspent
 * delegated token accounts, built from the same token accounts: holder `i` (key
 * `holder:i`) holds one account of the mint, holder 0 two.
 */
export const HOLDERS = {
  /** Holders of the mint with a positive balance. */
  holders: 1001,
  /** Holder 0's two amounts: its balance is above 2^53. */
  topAmounts: [2n ** 53n + 1n, 5n],
  /** Holder i ≥ 1 holds (1 + i % tieGroups) · 10^6: about 25 holders share each balance. */
  tieGroups: 40,
  /** Holder `holders` (one more) had one account of the mint, spent: a balance of 0. */
  zeroHolders: 1,
  /** Holders 1..undelegated have no delegate; every other account of the mint is the delegate's. */
  undelegated: 2,
  /** A second mint, delegated too: `unspent` accounts of holders 3.., then `spent` spent ones. */
  secondMint: { unspent: 12, spent: 2 },
} as const;
