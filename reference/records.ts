/**
 * The plain records of a reference dataset, shared by the generator, the file format and
 * the store. Base58 and base64 values are strings; uint64 values that can exceed 2^53
 * (lamports, amounts, discriminators) are `U64`: a `number` when it is a safe integer,
 * otherwise a `bigint` (the same split that runtime `parseJson` produces). Slots, leaf
 * indexes, sequence numbers and block times are always safe-integer `number`s.
 */

/** A uint64 value: `number` up to 2^53 - 1, `bigint` above. */
export type U64 = number | bigint;

/** The compressed-token program: `account.owner` of every token account. */
export const TOKEN_PROGRAM = "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m";

export const U64_MAX = 18446744073709551615n;

export interface AccountDataRecord {
  /** The 8 discriminator bytes read as a little-endian u64. */
  discriminator: U64;
  /** Standard base64 (with `=` padding) of the data bytes, which exclude the discriminator. */
  data: string;
  /** Base58, 32 bytes. */
  dataHash: string;
}

/** A compressed account, spent or not. */
export interface AccountRecord {
  /** Base58, 32 bytes; unique in the dataset. */
  hash: string;
  /** Base58, 32 bytes, or null. At most one unspent account holds a given address. */
  address: string | null;
  data: AccountDataRecord | null;
  /** The owning program (base58 pubkey); TOKEN_PROGRAM for token accounts. */
  owner: string;
  lamports: U64;
  /** The state tree (base58 pubkey). */
  tree: string;
  /** Position in `tree`; (tree, leafIndex) is unique. */
  leafIndex: number;
  /** Null for accounts of a batched tree still in its output queue. */
  seq: number | null;
  slotCreated: number;
  /** Nullified: invisible to every method except the signature history. */
  spent: boolean;
}

export type TokenState = "initialized" | "frozen";

/** The token fields of the account with the same `hash` (whose owner is TOKEN_PROGRAM). */
export interface TokenRecord {
  hash: string;
  mint: string;
  /** The token owner (what the token methods call `owner`). */
  owner: string;
  amount: U64;
  delegate: string | null;
  state: TokenState;
  /** Standard base64, or null. */
  tlv: string | null;
}

/** A transaction and the token account hashes it created or spent. */
export interface SignatureRecord {
  /** Base58, 64 bytes; unique in the dataset. */
  signature: string;
  slot: number;
  /** Unix seconds of the slot's block. */
  blockTime: number;
  accounts: string[];
}

export interface Dataset {
  /** The generator seed, or null for a dataset not made by `generateDataset`. */
  seed: number | null;
  /** The highest indexed block slot: `context.slot` and `getIndexerSlot`. No record is later. */
  slot: number;
  accounts: AccountRecord[];
  tokens: TokenRecord[];
  signatures: SignatureRecord[];
}

/** Normalises a uint64 to the `U64` convention (number when safe, bigint above). */
export function u64(value: number | bigint): U64 {
  if (typeof value === "number") return value;
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
