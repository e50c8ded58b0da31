/** What the role modules read of a dataset to state their profile facts, and the check that refuses a dataset the generator did not make. */
import { internalError } from "@photon-indexer-kit/runtime";
import { RefErrorCode, ReferenceIndexerError } from "../errors.js";
import { TOKEN_PROGRAM } from "../records.js";
import type { AccountRecord, Dataset, TreeRecord, TreeType } from "../records.js";
import { TREE_TYPE_CODE } from "../trees/answers.js";
import { roleKey } from "./keys.js";

export class ProfileError extends ReferenceIndexerError {
  override name = "ProfileError";
  constructor(message: string) {
    super(RefErrorCode.PROFILE, message);
  }
}

export function expect(ok: boolean, what: string): asserts ok {
  if (!ok) throw new ProfileError(`dataset does not match generateDataset output: ${what}`);
}

/** An owner's accounts in dataset order. */
export interface OwnerAccounts {
  readonly all: readonly AccountRecord[];
  readonly unspent: readonly AccountRecord[];
  readonly spent: readonly AccountRecord[];
}

/** A generated dataset's records grouped once for the role modules: the accounts of the role owners (and of the token program), by owner. */
export class RoleRecords {
  private readonly byOwner = new Map<string, { all: AccountRecord[]; unspent: AccountRecord[]; spent: AccountRecord[] }>();
  /** The hash of the unspent account holding each address. */
  readonly addressHolder = new Map<string, string>();
  readonly unspentTotal: number;
  private readonly treeTypes: Map<string, TreeType>;
  private spentTokens: Set<string> | undefined;

  /** `ownerRoles`: the roles whose accounts `accountsOf` answers. */
  constructor(
    readonly dataset: Dataset,
    readonly seed: number,
    ownerRoles: readonly string[],
  ) {
    this.treeTypes = new Map(dataset.trees.map((t) => [t.tree, t.type]));
    for (const owner of [...ownerRoles.map((role) => this.key(role)), TOKEN_PROGRAM]) this.byOwner.set(owner, { all: [], unspent: [], spent: [] });
    let unspentTotal = 0;
    for (const a of dataset.accounts) {
      const owned = this.byOwner.get(a.owner);
      owned?.all.push(a);
      if (a.spent) {
        owned?.spent.push(a);
        continue;
      }
      owned?.unspent.push(a);
      unspentTotal++;
      if (a.address !== null) this.addressHolder.set(a.address, a.hash);
    }
    this.unspentTotal = unspentTotal;
  }

  /** A role's public key (base58). */
  key(role: string): string {
    return roleKey(this.seed, role).text;
  }

  /** The accounts of a role owner named to the constructor, or of the token program. */
  accountsOf(owner: string): OwnerAccounts {
    const owned = this.byOwner.get(owner);
    if (owned === undefined) throw internalError(RefErrorCode.INTERNAL, `the profile did not group the accounts of ${owner}`);
    return owned;
  }

  treeType(tree: string): TreeType | undefined {
    return this.treeTypes.get(tree);
  }

  /** The hashes of the spent token accounts. */
  spentTokenHashes(): Set<string> {
    this.spentTokens ??= new Set(this.accountsOf(TOKEN_PROGRAM).spent.map((a) => a.hash));
    return this.spentTokens;
  }
}

/** The one transaction of the dataset that opened (created) or closed (spent) account `hash`. */
export function transactionOf(dataset: Dataset, hash: string, side: "opened" | "closed"): string {
  const found = dataset.signatures.filter((s) => s[side].includes(hash));
  expect(found.length === 1, `account ${hash} is ${side} by ${found.length} transactions, not one`);
  return found[0]?.signature as string;
}

/** An account's tree as a V2 answer's `merkleContext` names it. */
export interface MerkleContextFacts {
  treeType: number;
  tree: string;
  queue: string;
}

/** The `merkleContext` facts of `account`: its tree's type code and queue (the tree of type `want` when given). */
export function merkleContextFacts(dataset: Dataset, account: AccountRecord, want?: TreeType): MerkleContextFacts {
  const tree = dataset.trees.find((t) => t.tree === account.tree);
  expect(
    tree !== undefined && (want === undefined || tree.type === want),
    `the tree of account ${account.hash} is not a ${want ?? "known"} tree of the dataset`,
  );
  const { type, queue } = tree as TreeRecord;
  return { treeType: TREE_TYPE_CODE[type], tree: account.tree, queue };
}
