/** The shape of `datasetProfile`'s answer: the notable entities of a generated dataset and their facts. */
import type { U64 } from "./records.js";

/** A memcmp filter of getCompressedAccountsByOwner and how many of the owner's unspent accounts it matches. */
export interface MemcmpCase {
  offset: number;
  /** Base58 of the compared bytes. */
  bytes: string;
  count: number;
}

export interface DatasetProfile {
  seed: number;
  /** The indexed slot: what every answer's context states and the slot method answers. */
  slot: number;
  /** `account.owner` of every token account. */
  tokenProgram: string;
  counts: { accounts: number; unspentAccounts: number; tokenAccounts: number; signatures: number; addresses: number };
  /** The dataset's trees by type (stateless.js's localnet keys): V1 and batched state trees, the V1 and batched address trees. */
  trees: { stateV1: string[]; stateV2: string[]; addressV1: string; addressV2: string };

  /**
   * A program owner with 2500 unspent accounts (several default pages) and some spent ones.
   * `signatures`: the transactions opening or closing its accounts (more than one page of
   * getCompressionSignaturesForOwner). Its unspent lamports sum above u64::MAX (`lamportsOverflow`):
   * Photon's u64 balance sum cannot hold them.
   */
  ownerWithManyAccounts: { owner: string; unspent: number; signatures: number; lamportsOverflow: boolean };
  /** Same owner: `tiedLeafIndexes` leaf indexes each held by two of its accounts (in two trees), so the hash tie-break decides. */
  ownerWithLeafIndexTies: { owner: string; tiedLeafIndexes: number };
  /** Exactly 1000 unspent: a full default page with a cursor, then an empty page with a null cursor. */
  ownerWith1000: { owner: string; unspent: number };
  /** Exactly 1001 unspent: a full default page, then a page of one with a null cursor. */
  ownerWith1001: { owner: string; unspent: number };
  /** Exactly one unspent account, `hash`, whose address, data and seq are null (the newest leaf of a batched tree, in its output queue). */
  ownerWithOneAccount: { owner: string; unspent: number; hash: string };
  /** Has only spent accounts, so every list is empty. */
  ownerWithOnlySpentAccounts: { owner: string; spent: number };
  /** A valid pubkey that owns nothing. */
  ownerWithNoAccounts: string;
  /** Unspent lamports summing to `balance`, above 2^53 (each account below it); a spent account held more. */
  ownerWithBigBalance: { owner: string; unspent: number; balance: U64 };
  /**
   * Accounts in batched (StateV2) state trees, every one with `seq` null as Photon sends it: `inTree` unspent and
   * appended to the tree (proveByIndex false), `inOutputQueue` unspent and still in the output queue (proveByIndex
   * true), `inInputQueue` spent and still in the input queue, `nullified` spent and nullified in the tree. Hashes
   * by (tree, leaf index).
   */
  ownerWithBatchedAccounts: { owner: string; unspent: number; inTree: string[]; inOutputQueue: string[]; inInputQueue: string[]; nullified: string[] };
  /**
   * One address held by `hashes.length` versions in turn (oldest first; the last is unspent), each
   * update one transaction closing the old version and opening the new: `signatures` (oldest first)
   * is what getCompressionSignaturesForAddress finds.
   */
  addressWithHistory: { address: string; owner: string; hashes: string[]; signatures: string[] };
  /** A spent account with the transaction that opened it and the later one that closed it. */
  closedAccount: { hash: string; openedBy: string; closedBy: string };

  /**
   * A program owner whose data starts with known prefixes. `filters` lists memcmp cases with
   * their match counts over the owner's `unspent` accounts (data null never matches);
   * `matching` and `nonMatching` are one of each (the latter matches nothing, even though
   * its bytes equal the owner's discriminator in one case: filters see data only).
   */
  memcmpOwner: { owner: string; unspent: number; withData: number; matching: MemcmpCase; nonMatching: MemcmpCase; filters: MemcmpCase[] };

  /**
   * A token owner with unspent accounts (`unspent`) in `mints` mints (≥ 30), each with a balance row (so
   * `mints` is also its number of balances); `mint` is one of them.
   */
  tokenOwnerWithManyMints: { owner: string; mints: number; mint: string; unspent: number };
  /** Exactly 1000 unspent token accounts, all of `mint`; its newest `sharedSlotSignatures` signatures share the dataset's last slot. */
  tokenOwnerWith1000TokenAccounts: { owner: string; mint: string; unspent: number; signatures: number; sharedSlotSignatures: number };
  /** Exactly 1001 unspent token accounts, each of its own mint and of a non-zero amount: `mints` (1001) balance rows, and more than 1000 signatures. */
  tokenOwnerWith1001TokenAccounts: { owner: string; unspent: number; mints: number; signatures: number };
  /** One token account, `hash`: frozen, with a delegate and a tlv. */
  tokenOwnerWithOneAccount: { owner: string; hash: string };
  /**
   * A token owner for Photon's zero-balance rule (spec/DECISIONS.md #35): its accounts of `mint` held non-zero
   * amounts and are all spent, so its balance row for `mint` is 0; its only account of `zeroAmountMint` is unspent
   * with amount 0, so that mint has no balance row (the ingester skips zero changes); `balances` rows in all.
   */
  ownerWithZeroBalance: { owner: string; mint: string; zeroAmountMint: string; balances: number };
  /** Balances above 2^53: `maxMint` sums to u64::MAX (a spent account of it also held u64::MAX), `sumMint` to 2^60 + 2^53 + 1. */
  tokenOwnerWithBigAmounts: { owner: string; maxMint: string; maxBalance: U64; sumMint: string; sumBalance: U64 };
  /** A valid pubkey with no token accounts. */
  tokenOwnerWithNoAccounts: string;
  /** A delegate of more than a page of unspent token accounts (`unspent`), over `mints` mints; `spent` more are spent. */
  delegateWithManyAccounts: { delegate: string; unspent: number; mints: number; spent: number };
  /**
   * A mint with more than a page of holders (`holders`, token owners with a balance row of the mint,
   * `zeroBalanceHolders` of them at 0 after spending): `tiedHolders` holders share their balance with another,
   * and `topHolder`'s balance is above 2^53. `supply`: the sum of the amounts of the mint's unspent token
   * accounts in the dataset (brute force over the records), which the holders' balances sum to.
   */
  mintWithManyHolders: {
    mint: string;
    holders: number;
    zeroBalanceHolders: number;
    tiedHolders: number;
    topHolder: { owner: string; balance: U64 };
    supply: U64;
  };

  /** An unspent account with an address and data. */
  knownHash: string;
  /** The address of `knownHash`. */
  knownAddress: string;
  /** A spent account: null by hash, absent from lists. */
  spentHash: string;
  /** The address of `spentHash`, held by no unspent account: null by address. */
  spentAddress: string;
  /** An address whose old version `spentHash` is spent and whose current version is `hash`. */
  updatedAddress: { address: string; spentHash: string; hash: string };
  /** A valid 32-byte hash of no account. */
  unknownHash: string;
  /** A valid address of no account, in no address tree (first byte 0, as Light derives addresses: a valid new address). */
  unknownAddress: string;
  /** An unspent account with lamports = u64::MAX and discriminator = u64::MAX. */
  accountWithBigLamports: { hash: string; lamports: U64; discriminator: U64 };
  /** An unspent token account with amount = u64::MAX. */
  tokenAccountWithMaxAmount: string;

  /** The lamports of `knownHash`'s account (what a balance lookup of `knownAddress` or `knownHash` answers). */
  knownLamports: U64;
  /**
   * The `merkleContext` of role accounts as a V2 answer carries it (src/common/typedefs/account/v2.rs:99-109):
   * `knownHash`'s (whichever state tree holds it), `ownerWithOneAccount.hash`'s (a batched state tree and its output
   * queue) and that of the current (last) version of `addressWithHistory` (a V1 state tree and its nullifier queue).
   * `treeType` is Light Protocol's tree type code.
   */
  merkleContexts: { knownHash: MerkleContextFacts; ownerWithOneAccount: MerkleContextFacts; addressWithHistory: MerkleContextFacts };
  /**
   * delegateWithManyAccounts' second mint: `unspent` unspent token accounts of it delegated to `delegate`, and `spent`
   * spent ones. The delegate's other unspent accounts are all of `mintWithManyHolders.mint`.
   */
  delegatedMint: { delegate: string; mint: string; unspent: number; spent: number };
  /** An unspent token account with an address of its own (`account.address`) and a non-zero `amount`. */
  tokenAccountWithAddress: { hash: string; address: string; amount: U64 };
  /**
   * The queues of the batched trees (getQueueElements, getQueueInfo). `stateTree` (the batched state tree of
   * `ownerWithBatchedAccounts.inOutputQueue[0]`) has `outputQueued` accounts in its output queue, the first at leaf
   * `outputFirstIndex` (above 0, so a `startIndex` of 0 is before it), and `inputQueued` spent accounts in its input
   * queue; `addressTree` (the batched address tree) has `addressQueued` addresses in its queue, `queuedAddress` the
   * first (oldest) of them. Each queue holds at least 4 elements.
   */
  batchedQueues: {
    stateTree: string;
    outputQueued: number;
    outputFirstIndex: number;
    inputQueued: number;
    addressTree: string;
    addressQueued: number;
    queuedAddress: string;
  };
  /** `ownerWithBatchedAccounts.inInputQueue[0]` and the transaction that spent it (its batched tree records its nullifier and tx hash). */
  batchedAccountClosed: { hash: string; closedBy: string };
  /** `tokenOwnerWithOneAccount.hash` and the transaction that created it. */
  tokenAccountOpened: { hash: string; openedBy: string };
}

/** An account's tree as a V2 answer's `merkleContext` names it. */
export interface MerkleContextFacts {
  treeType: number;
  tree: string;
  queue: string;
}
