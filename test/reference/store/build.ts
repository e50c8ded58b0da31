/**
 * Small hand-built datasets for the store tests (independent of the generator): a few trees of
 * each type, program and token accounts created and spent by transactions in slot order,
 * addresses with several versions, V2 accounts in output and input queues, token amounts and
 * lamports up to u64 max, and keys with leading zero bytes (shorter base58 text) so that byte
 * order and text order differ. Plus an oracle comparator that decodes base58 (Buffer.compare),
 * independent of the store's `compareBase58Numbers`.
 */
import { decodeBase58, encodeBase58, type OrderKey } from "../../../runtime/index.js";
import { Random } from "../../../reference/random.js";
import {
  type AccountRecord,
  type AddressRecord,
  type Dataset,
  type SignatureRecord,
  TOKEN_PROGRAM,
  type TokenRecord,
  type TreeRecord,
  U64_MAX,
  u64,
} from "../../../reference/records.js";

/** Random bytes as base58, sometimes with one or two leading zero bytes. */
function key(rng: Random, length: number): string {
  const bytes = rng.bytes(length);
  if (rng.chance(0.2)) bytes[0] = 0;
  if (rng.chance(0.05)) bytes[1] = 0;
  return encodeBase58(bytes);
}

export interface Built {
  dataset: Dataset;
  programOwners: string[];
  tokenOwners: string[];
  /** A token owner all of whose accounts have amount 0 (no balance rows). */
  zeroOwner: string;
  mints: string[];
  delegates: string[];
  trees: { v1: TreeRecord; v2a: TreeRecord; v2b: TreeRecord; addressV1: TreeRecord; addressV2: TreeRecord };
}

export function buildDataset(seed: number, transactions = 160): Built {
  const rng = new Random(seed, "store-test");
  const tree = (type: TreeRecord["type"], queue: string | null): TreeRecord => {
    const pubkey = key(rng, 32);
    return { tree: pubkey, queue: queue ?? pubkey, type, height: 26, rootHistory: 2400, cpiContext: type.startsWith("State") ? key(rng, 32) : null, seq: 0 };
  };
  const trees = {
    v1: tree("StateV1", key(rng, 32)),
    v2a: tree("StateV2", key(rng, 32)),
    v2b: tree("StateV2", key(rng, 32)),
    addressV1: tree("AddressV1", key(rng, 32)),
    addressV2: tree("AddressV2", null),
  };
  const stateTrees = [trees.v1, trees.v2a, trees.v2b];
  const programOwners = Array.from({ length: 5 }, () => key(rng, 32));
  const tokenOwners = Array.from({ length: 6 }, () => key(rng, 32));
  const zeroOwner = tokenOwners[5] as string;
  // The first program owner is also a token owner (one key, two roles).
  tokenOwners[4] = programOwners[0] as string;
  const mints = Array.from({ length: 4 }, () => key(rng, 32));
  const delegates = [key(rng, 32), key(rng, 32), tokenOwners[1] as string];

  const accounts: AccountRecord[] = [];
  const tokens: TokenRecord[] = [];
  const signatures: SignatureRecord[] = [];
  const addresses: AddressRecord[] = [];
  const nextLeaf = new Map<string, number>();
  const live: AccountRecord[] = [];
  /** Accounts opened by the transaction being built: spendable from the next one on. */
  const born: AccountRecord[] = [];
  let seq = 0;
  let slot = 5000;

  const open = (at: number, address: string | null): AccountRecord => {
    const t = stateTrees[rng.below(stateTrees.length)] as TreeRecord;
    const leafIndex = nextLeaf.get(t.tree) ?? 0;
    nextLeaf.set(t.tree, leafIndex + 1);
    const isToken = rng.chance(0.4);
    const owner = isToken ? TOKEN_PROGRAM : (programOwners[rng.skewed(programOwners.length)] as string);
    const lamports = owner === programOwners[0] && rng.chance(0.5) ? u64(rng.u64() | (1n << 63n)) : rng.chance(0.3) ? 0 : rng.between(1, 1_000_000);
    const data = rng.chance(0.2)
      ? null
      : { discriminator: u64(rng.u64()), data: Buffer.from(rng.bytes(rng.below(12))).toString("base64"), dataHash: key(rng, 32) };
    const account: AccountRecord = {
      hash: key(rng, 32),
      address,
      data,
      owner,
      lamports,
      tree: t.tree,
      leafIndex,
      seq: ++seq,
      slotCreated: at,
      spent: false,
      inInputQueue: false,
      inOutputQueue: false,
    };
    accounts.push(account);
    if (isToken) {
      const tokenOwner = tokenOwners[rng.below(tokenOwners.length)] as string;
      const choice = rng.below(6);
      const amount = tokenOwner === zeroOwner ? 0 : choice === 0 ? 0 : choice === 1 ? u64(U64_MAX) : choice === 2 ? u64(rng.u64()) : 1 + 4 * rng.below(3);
      tokens.push({
        hash: account.hash,
        mint: mints[rng.below(mints.length)] as string,
        owner: tokenOwner,
        amount,
        delegate: rng.chance(0.5) ? null : (delegates[rng.below(delegates.length)] as string),
        state: rng.chance(0.2) ? "frozen" : "initialized",
        tlv: rng.chance(0.1) ? Buffer.from(rng.bytes(4)).toString("base64") : null,
      });
    }
    born.push(account);
    return account;
  };

  for (let n = 0; n < transactions; n++) {
    if (rng.chance(0.5)) slot += rng.between(1, 3);
    const opened: string[] = [];
    const closed: string[] = [];
    // Spend up to two live accounts; an account with an address gets a new version holding it.
    for (let k = rng.below(3); k > 0 && live.length > 4; k--) {
      const [gone] = live.splice(rng.below(live.length), 1) as [AccountRecord];
      gone.spent = true;
      closed.push(gone.hash);
      if (gone.address !== null && rng.chance(0.7)) opened.push(open(slot, gone.address).hash);
    }
    for (let k = rng.between(1, 2); k > 0; k--) {
      let address: string | null = null;
      if (rng.chance(0.3)) {
        const addressTree = rng.chance(0.5) ? trees.addressV1 : trees.addressV2;
        address = key(rng, 32);
        addresses.push({ address, tree: addressTree.tree, slot, queued: false });
      }
      opened.push(open(slot, address).hash);
    }
    signatures.push({ signature: key(rng, 64), slot, blockTime: 1_700_000_000 + slot, opened, closed });
    live.push(...born.splice(0));
  }

  // Dataset order: (slot, signature bytes) ascending.
  signatures.sort((a, b) => a.slot - b.slot || Buffer.compare(bytes(a.signature), bytes(b.signature)));
  // The newest leaves of each batched tree are still in its output queue; some spent batched accounts are still in the input queue.
  for (const t of [trees.v2a, trees.v2b]) {
    const cut = Math.floor((nextLeaf.get(t.tree) ?? 0) * 0.7);
    for (const a of accounts) {
      if (a.tree !== t.tree) continue;
      a.seq = null; // as Photon sends it for every batched-tree account
      a.inOutputQueue = a.leafIndex >= cut;
    }
  }
  for (const a of accounts) if (a.spent && (a.tree === trees.v2a.tree || a.tree === trees.v2b.tree)) a.inInputQueue = rng.chance(0.5);
  // The newest addresses of the V2 address tree are still queued.
  const v2Addresses = addresses.filter((a) => a.tree === trees.addressV2.tree);
  for (const a of v2Addresses.slice(Math.floor(v2Addresses.length / 2))) a.queued = true;

  return {
    dataset: { seed: null, slot: slot + 1, trees: Object.values(trees), accounts, tokens, signatures, addresses },
    programOwners,
    tokenOwners,
    zeroOwner,
    mints,
    delegates,
    trees,
  };
}

export function bytes(base58: string): Buffer {
  const decoded = decodeBase58(base58);
  if (decoded === undefined) throw new TypeError(`not base58: ${base58}`);
  return Buffer.from(decoded);
}

function valueAt(row: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, p) => (node as Record<string, unknown>)[p], row);
}

/** The oracle's comparator for an order: decoded bytes by Buffer.compare, integers as bigint. */
export function oracle(order: readonly OrderKey[]): (a: unknown, b: unknown) => number {
  return (a, b) => {
    for (const k of order) {
      const x = valueAt(a, k.field);
      const y = valueAt(b, k.field);
      let c: number;
      if (k.compare === "integer") c = BigInt(x as bigint) < BigInt(y as bigint) ? -1 : BigInt(x as bigint) > BigInt(y as bigint) ? 1 : 0;
      else if (k.compare === "base58-bytes") c = Buffer.compare(bytes(x as string), bytes(y as string));
      else c = String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
      if (c !== 0) return k.direction === "asc" ? c : -c;
    }
    return 0;
  };
}
