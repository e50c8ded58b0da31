/** Address roles: one address held by several versions in turn, an address updated by the random bulk, and an address of no account. */
import { V1_TREE } from "../dataset-trees.js";
import type { AccountRecord } from "../records.js";
import { expect, merkleContextFacts, type MerkleContextFacts, type RoleRecords } from "./facts.js";
import { roleAddress, roleKey } from "./keys.js";
import { account, type RoleEntry, repeat } from "./plan.js";

/** One address updated `versions - 1` times: each update closes the old version and opens the new one in one transaction. */
export const ADDRESS_HISTORY = { versions: 4 } as const;

export const HISTORY_OWNER = "ownerWithAddressHistory";

export function addressHistoryPlan(seed: number): RoleEntry[] {
  const owner = roleKey(seed, HISTORY_OWNER);
  return repeat(ADDRESS_HISTORY.versions, () => account(owner, false, { chain: "addressHistory", tree: V1_TREE }));
}

export interface AddressFacts {
  /**
   * One address held by `hashes.length` versions in turn (oldest first; the last is unspent), each
   * update one transaction closing the old version and opening the new: `signatures` (oldest first)
   * is what getCompressionSignaturesForAddress finds.
   */
  addressWithHistory: { address: string; owner: string; hashes: string[]; signatures: string[] };
  /** A spent account with the transaction that opened it and the later one that closed it. */
  closedAccount: { hash: string; openedBy: string; closedBy: string };
  /** An address whose old version `spentHash` is spent and whose current version is `hash`. */
  updatedAddress: { address: string; spentHash: string; hash: string };
  /** A valid address of no account, in no address tree (first byte 0, as Light derives addresses: a valid new address). */
  unknownAddress: string;
}

export function addressFacts(records: RoleRecords): AddressFacts {
  const { dataset } = records;
  const updated = dataset.accounts.find((a) => a.spent && a.address !== null && records.addressHolder.has(a.address));
  expect(updated !== undefined, "no updated address");
  const updatedAddress = updated.address as string;

  const owner = records.key(HISTORY_OWNER);
  const own = records.accountsOf(owner);
  const versions = own.all;
  // Who opened and closed each version, and the version each update opened after closing the previous one.
  const hashes = new Set(versions.map((a) => a.hash));
  const historySignatures: string[] = [];
  const openedBy = new Map<string, string>();
  const closedBy = new Map<string, string>();
  const nextVersion = new Map<string, string>();
  for (const sig of dataset.signatures) {
    const opened = sig.opened.filter((h) => hashes.has(h));
    const closed = sig.closed.filter((h) => hashes.has(h));
    if (opened.length + closed.length === 0) continue;
    historySignatures.push(sig.signature);
    for (const h of opened) openedBy.set(h, sig.signature);
    for (const h of closed) closedBy.set(h, sig.signature);
    if (opened.length === 1 && closed.length === 1) nextVersion.set(closed[0] as string, opened[0] as string);
  }
  const successors = new Set(nextVersion.values());
  const firstVersion = versions.find((a) => !successors.has(a.hash));
  const chain: string[] = [];
  for (let h = firstVersion?.hash; h !== undefined; h = nextVersion.get(h)) chain.push(h);
  const address = versions[0]?.address ?? null;
  expect(
    chain.length === ADDRESS_HISTORY.versions && address !== null && versions.every((a) => a.address === address),
    "ownerWithAddressHistory's versions do not form one chain of one address",
  );
  expect(own.unspent.length === 1 && chain.at(-1) === own.unspent[0]?.hash, "the address history does not end in its one unspent version");
  // Oldest first: the chain order (same-slot transactions sort by signature, not by execution).
  const signatures = [openedBy.get(chain[0] as string) as string, ...chain.slice(0, -1).map((h) => closedBy.get(h) as string)];
  expect(
    signatures.length === historySignatures.length && signatures.every((s) => historySignatures.includes(s)),
    "the address history's transactions are not its updates",
  );
  const closedHash = chain[1] as string;
  const sigSlot = new Map(
    dataset.signatures.filter((x) => x.signature === openedBy.get(closedHash) || x.signature === closedBy.get(closedHash)).map((x) => [x.signature, x.slot]),
  );
  const openSlot = sigSlot.get(openedBy.get(closedHash) as string);
  const closeSlot = sigSlot.get(closedBy.get(closedHash) as string);
  expect(openSlot !== undefined && closeSlot !== undefined && openSlot <= closeSlot, "closedAccount is not opened before it is closed");
  return {
    addressWithHistory: { address, owner, hashes: chain, signatures },
    closedAccount: { hash: closedHash, openedBy: openedBy.get(closedHash) as string, closedBy: closedBy.get(closedHash) as string },
    updatedAddress: { address: updatedAddress, spentHash: updated.hash, hash: records.addressHolder.get(updatedAddress) as string },
    unknownAddress: roleAddress(records.seed, "unknownAddress").text,
  };
}

/** The `merkleContext` of the address history's current (last) version: a V1 state tree and its nullifier queue. */
export function historyMerkleContext(records: RoleRecords, facts: AddressFacts): MerkleContextFacts {
  const current = records.accountsOf(facts.addressWithHistory.owner).unspent.find((a) => a.hash === facts.addressWithHistory.hashes.at(-1));
  return merkleContextFacts(records.dataset, current as AccountRecord, "StateV1");
}
