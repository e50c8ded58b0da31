/**
 * A deterministic dataset generator: same seed and size, same records (and so the same
 * file bytes) on every machine.
 *
 * The dataset is a timeline of compressed accounts in stateless.js's localnet trees (two V1
 * state trees, five batched state trees, a V1 and a batched address tree). About a fifth are
 * compressed-token accounts (owned by TOKEN_PROGRAM, with token records); the rest belong to
 * program owners. Every account is opened by one transaction and, when spent, closed by one
 * later (or same-slot) transaction; an update is one transaction closing the old version and
 * opening the new one, which keeps the address. Around the random bulk, fixed "role" entities
 * cover every edge the conformance suite checks (see roles.ts and `datasetProfile`).
 *
 * The last 3% of slots are "late": batched-tree accounts created then stay in their output
 * queue (`inOutputQueue`, never spent), batched-tree accounts spent then stay in the input queue
 * (`inInputQueue`), and addresses of batched-tree accounts created then stay in the batched
 * address tree's queue (`queued`). Every batched-tree account has `seq` null, queued or not, as
 * Photon sends it (records.ts `AccountRecord.seq`).
 */
import { internalError } from "@photon-indexer-kit/runtime";
import { compareBase58, encodeBase58Fast } from "./base58.js";
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";
import { Random } from "./random.js";
import { TOKEN_PROGRAM, U64_MAX, u64 } from "./records.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TokenRecord, TokenState, TreeRecord, U64 } from "./records.js";
import {
  ADDRESS_HISTORY,
  BATCHED_ROLE,
  BIG_BALANCE,
  HOLDERS,
  MEMCMP,
  OWNER_ROLES,
  TOKEN_ROLES,
  ZERO_BALANCE,
  asAddress,
  keyFromBytes,
  roleKey,
} from "./roles.js";
import type { Key } from "./roles.js";

export { datasetProfile } from "./profile.js";
export type { DatasetProfile } from "./profile.js";

export interface GenerateOptions {
  /** Any safe integer. Default 1. */
  seed?: number;
  /** Total compressed accounts, spent ones and token accounts included. Default 20,000; at least MIN_ACCOUNTS. */
  accounts?: number;
}

/** The smallest size that holds every role entity (about 7,800 accounts) plus some random bulk. */
export const MIN_ACCOUNTS = 10_000;

/** V1 trees (state and address): light-protocol cli/accounts/merkle_tree_pubkey_smt1….json and address_merkle_tree_amt1….json hold height 26 and 2400 roots (Photon's tests use the same: src/ingester/parser/state_update.rs:418). */
const V1_HEIGHT = 26;
const V1_ROOT_HISTORY = 2400;
/**
 * Batched trees: light-protocol program-libs/batched-merkle-tree/src/constants.rs (crate 0.11, Photon's
 * dependency) DEFAULT_BATCH_STATE_TREE_HEIGHT 32, DEFAULT_BATCH_ADDRESS_TREE_HEIGHT 40 and
 * DEFAULT_BATCH_ROOT_HISTORY_LEN 200, which the localnet accounts use (cli/accounts/batch_state_merkle_tree_bmt1….json
 * and batch_address_merkle_tree_amt2….json: height 32 / 40, root_history_capacity 200).
 */
/**
 * A V1 address tree's sequence number before its first address: initialisation appends the zero element,
 * updates it and appends the highest element (light-protocol program-libs/indexed-merkle-tree/src/lib.rs
 * `init` + `add_highest_element`; Photon reports 3 for such a tree, indexed_merkle_tree/proof.rs:99-116;
 * see trees/indexed-tree.ts). Batched trees start at 0.
 */
const V1_ADDRESS_INIT_SEQ = 3;
const BATCHED_STATE_HEIGHT = 32;
const BATCHED_ADDRESS_HEIGHT = 40;
const BATCHED_ROOT_HISTORY = 200;

function v1State(tree: string, queue: string, cpiContext: string): Omit<TreeRecord, "seq"> {
  return { tree, queue, type: "StateV1", height: V1_HEIGHT, rootHistory: V1_ROOT_HISTORY, cpiContext };
}

function batchedState(tree: string, queue: string, cpiContext: string): Omit<TreeRecord, "seq"> {
  return { tree, queue, type: "StateV2", height: BATCHED_STATE_HEIGHT, rootHistory: BATCHED_ROOT_HISTORY, cpiContext };
}

/**
 * stateless.js's localnet trees (light-protocol js/stateless.js/src/constants.ts: `localTestActiveStateTreeInfos`,
 * `getDefaultAddressTreeInfo` for V1, `getBatchAddressTreeInfo` whose queue is the tree itself), in this order:
 * smt1, smt2 (V1 state), bmt1–bmt5 (batched state), amt1 (V1 address), amt2 (batched address).
 */
export const LOCALNET_TREES: readonly Omit<TreeRecord, "seq">[] = [
  v1State("smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT", "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148", "cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4"),
  v1State("smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho", "nfq2hgS7NYemXsFaFUCe3EMXSDSfnZnAe27jC6aPP1X", "cpi2cdhkH5roePvcudTgUL8ppEBfTay1desGh8G8QxK"),
  batchedState("bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU", "oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto", "cpi15BoVPKgEPw5o8wc2T816GE7b378nMXnhH3Xbq4y"),
  batchedState("bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi", "oq2UkeMsJLfXt2QHzim242SUi3nvjJs8Pn7Eac9H9vg", "cpi2yGapXUR3As5SjnHBAVvmApNiLsbeZpF3euWnW6B"),
  batchedState("bmt3ccLd4bqSVZVeCJnH1F6C8jNygAhaDfxDwePyyGb", "oq3AxjekBWgo64gpauB6QtuZNesuv19xrhaC1ZM1THQ", "cpi3mbwMpSX8FAGMZVP85AwxqCaQMfEk9Em1v8QK9Rf"),
  batchedState("bmt4d3p1a4YQgk9PeZv5s4DBUmbF5NxqYpk9HGjQsd8", "oq4ypwvVGzCUMoiKKHWh4S1SgZJ9vCvKpcz6RT6A8dq", "cpi4yyPDc4bCgHAnsenunGA8Y77j3XEDyjgfyCKgcoc"),
  batchedState("bmt5yU97jC88YXTuSukYHa8Z5Bi2ZDUtmzfkDTA2mG2", "oq5oh5ZR3yGomuQgFduNDzjtGvVWfDRGLuDVjv9a96P", "cpi5ZTjdgYpZ1Xr7B1cMLLUE81oTtJbNNAyKary2nV6"),
  {
    tree: "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2",
    queue: "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F",
    type: "AddressV1",
    height: V1_HEIGHT,
    rootHistory: V1_ROOT_HISTORY,
    cpiContext: null,
  },
  {
    tree: "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx",
    queue: "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx",
    type: "AddressV2",
    height: BATCHED_ADDRESS_HEIGHT,
    rootHistory: BATCHED_ROOT_HISTORY,
    cpiContext: null,
  },
];

/** The state trees accounts live in: smt1, smt2 (V1, kept level so leaf indexes repeat across them), bmt1–bmt5 (batched). */
export const TREES: readonly string[] = LOCALNET_TREES.slice(0, 7).map((t) => t.tree);

/** Indexes into LOCALNET_TREES. */
const BMT1 = 2;
const STATE_TREES = 7;
const AMT1 = 7;
const AMT2 = 8;
const TREE_INDEX = new Map(LOCALNET_TREES.map((t, i) => [t.tree, i]));
/** `place` kinds below 0; 0 or more is a tree index. */
const ANY = -1;
const V1 = -2;
const BATCHED = -3;

/** The empty side of a transaction (frozen: records are never edited after generation). */
const NONE = Object.freeze([]) as unknown as string[];
const FIRST_SLOT = 301_000_000;
const FIRST_BLOCK_TIME = 1_732_000_000;
/** The last 3% of the timeline is late (see the file comment). */
const LATE_FRACTION = 0.97;
/** Token data discriminators: v1 (2), and the v2/v3 ones ([0,…,0,3] and [0,…,0,4] read LE). */
const TOKEN_DISCRIMINATORS: readonly U64[] = [2, 3n << 56n, 4n << 56n];

/** One planned account of a role entity. */
interface RoleAccount {
  kind: "account";
  owner: Key;
  spent: boolean;
  /** Two unspent accounts with the same leafIndex in the two v1 trees. */
  tie?: boolean;
  address?: boolean;
  /** Explicit data bytes, `null` for no data, undefined for the owner's random style. */
  data?: number[] | null;
  discriminator?: U64;
  lamports?: U64;
  /** The tree kind (ANY, V1, BATCHED) or a tree index; default ANY. */
  tree?: number;
  /** "early": before the late part of the timeline; "tail": at its very end (late). */
  when?: "early" | "tail";
  /** The last step of the timeline (newest leaf of bmt1, in its output queue). */
  last?: boolean;
  /** When a spent account is closed: "early" before the late part, "late" in the last slot; default a random later slot. */
  close?: "early" | "late";
  /** Versions of one address: the first entry of a chain opens it, each later one updates it. */
  chain?: string;
}

/** One planned token account of a role entity. */
interface RoleToken {
  kind: "token";
  owner: Key;
  mint: Key;
  amount?: U64;
  /** A random amount that is never 0 (so the (owner, mint) pair has a balance row: roles.ts TOKEN_ROLES). */
  positive?: boolean;
  spent: boolean;
  /** Spent in the dataset's last slot (many signatures share that slot). */
  spentLast?: boolean;
  /** A given delegate, or whether to pick a random one. */
  delegate?: boolean | Key;
  tlv?: boolean;
  state?: TokenState;
  when?: undefined;
}

type RoleEntry = RoleAccount | RoleToken;

function repeat<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

function roleEntries(seed: number): RoleEntry[] {
  const key = (role: string) => roleKey(seed, role);
  const acc = (owner: Key, spent: boolean, extra: Partial<RoleAccount> = {}): RoleAccount => ({ kind: "account", owner, spent, ...extra });
  const tok = (owner: Key, mint: Key, spent: boolean, extra: Partial<RoleToken> = {}): RoleToken => ({ kind: "token", owner, mint, spent, ...extra });
  const entries: RoleEntry[] = [];

  const many = key("ownerWithManyAccounts");
  const m = OWNER_ROLES.ownerWithManyAccounts;
  entries.push(acc(many, false, { address: true, data: [7, 7, 7, 7, 7, 7, 7, 7], lamports: U64_MAX, discriminator: U64_MAX }));
  entries.push(acc(many, false, { lamports: 2n ** 53n + 1n, discriminator: 2n ** 53n + 1n }));
  entries.push(...repeat(m.tiePairs, () => acc(many, false, { tie: true, when: "early" })));
  entries.push(...repeat(m.unspent - 2 * m.tiePairs - 2, () => acc(many, false)));
  entries.push(...repeat(m.spent, () => acc(many, true)));

  const w1000 = key("ownerWith1000");
  entries.push(acc(w1000, false, { address: true, data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] }));
  entries.push(...repeat(OWNER_ROLES.ownerWith1000.unspent - 1, () => acc(w1000, false)));
  entries.push(acc(w1000, true, { address: true }));
  entries.push(...repeat(OWNER_ROLES.ownerWith1000.spent - 1, () => acc(w1000, true)));

  const w1001 = key("ownerWith1001");
  entries.push(...repeat(OWNER_ROLES.ownerWith1001.unspent, () => acc(w1001, false)));
  entries.push(...repeat(OWNER_ROLES.ownerWith1001.spent, () => acc(w1001, true)));

  const one = key("ownerWithOneAccount");
  entries.push(acc(one, false, { address: false, data: null, last: true, when: "tail", tree: BMT1, lamports: 0 }));
  entries.push(...repeat(OWNER_ROLES.ownerWithOneAccount.spent, () => acc(one, true)));
  const onlySpent = key("ownerWithOnlySpentAccounts");
  entries.push(...repeat(OWNER_ROLES.ownerWithOnlySpentAccounts.spent, () => acc(onlySpent, true)));

  const mc = key("memcmpOwner");
  const d = MEMCMP.discriminator;
  const tail = (r: Random, prefix: readonly number[]) => [...prefix, ...r.bytes(r.below(40))];
  const r = new Random(seed, "memcmp");
  entries.push(...repeat(MEMCMP.countA, () => acc(mc, false, { data: tail(r, MEMCMP.prefixA), discriminator: d })));
  entries.push(...repeat(MEMCMP.countB, () => acc(mc, false, { data: tail(r, MEMCMP.prefixB), discriminator: d })));
  entries.push(acc(mc, false, { data: [...MEMCMP.short], discriminator: d }));
  entries.push(...repeat(MEMCMP.countOther, () => acc(mc, false, { data: tail(r, [r.between(0x10, 0x7f)]), discriminator: d })));
  entries.push(...repeat(MEMCMP.countNull, () => acc(mc, false, { data: null })));
  entries.push(...repeat(MEMCMP.spentA, () => acc(mc, true, { data: tail(r, MEMCMP.prefixA), discriminator: d })));

  const batched = key("ownerWithBatchedAccounts");
  entries.push(...repeat(BATCHED_ROLE.inTree, () => acc(batched, false, { tree: BATCHED, when: "early" })));
  entries.push(...repeat(BATCHED_ROLE.inOutputQueue, () => acc(batched, false, { tree: BATCHED, when: "tail" })));
  entries.push(...repeat(BATCHED_ROLE.inInputQueue, () => acc(batched, true, { tree: BATCHED, when: "early", close: "late" })));
  entries.push(...repeat(BATCHED_ROLE.nullified, () => acc(batched, true, { tree: BATCHED, when: "early", close: "early" })));

  const history = key("ownerWithAddressHistory");
  entries.push(...repeat(ADDRESS_HISTORY.versions, () => acc(history, false, { chain: "addressHistory", tree: V1 })));

  const bigBalance = key("ownerWithBigBalance");
  entries.push(...BIG_BALANCE.lamports.map((lamports) => acc(bigBalance, false, { lamports: u64(lamports) })));
  entries.push(acc(bigBalance, true, { lamports: u64(BIG_BALANCE.spentLamports) }));

  const manyMints = key("tokenOwnerWithManyMints");
  const mintsOfMany = repeat(TOKEN_ROLES.manyMints, (i) => key(`manyMints:${i}`));
  mintsOfMany.forEach((mint, i) => {
    entries.push(...repeat(1 + (i % 3), (k) => tok(manyMints, mint, false, { positive: k === 0 })));
    if (i % 5 === 0) entries.push(tok(manyMints, mint, true));
  });
  const t1000 = key("tokenOwnerWith1000TokenAccounts");
  const mint1000 = key("mintOf1000");
  entries.push(...repeat(TOKEN_ROLES.with1000.unspent, () => tok(t1000, mint1000, false)));
  entries.push(...repeat(TOKEN_ROLES.with1000.spent, () => tok(t1000, mint1000, true, { spentLast: true })));
  const t1001 = key("tokenOwnerWith1001TokenAccounts");
  entries.push(...repeat(TOKEN_ROLES.with1001, (i) => tok(t1001, key(`mints1001:${i}`), false, { positive: true })));
  const tOne = key("tokenOwnerWithOneAccount");
  entries.push(tok(tOne, mintsOfMany[0] as Key, false, { delegate: true, tlv: true, state: "frozen" }));
  const zero = key("tokenOwnerWithZeroBalance");
  const zeroMint = key("zeroBalanceMint");
  entries.push(...ZERO_BALANCE.spentAmounts.map((amount) => tok(zero, zeroMint, true, { amount })));
  entries.push(tok(zero, mintsOfMany[1] as Key, false, { amount: 0, delegate: false, tlv: false, state: "initialized" }));
  entries.push(...repeat(ZERO_BALANCE.positive, () => tok(zero, mintsOfMany[2] as Key, false, { positive: true })));
  const big = key("tokenOwnerWithBigAmounts");
  const bigMint = key("bigAmountMint");
  const bigSumMint = key("bigSumMint");
  entries.push(tok(big, bigMint, false, { amount: U64_MAX }), tok(big, bigMint, true, { amount: U64_MAX }));
  entries.push(tok(big, bigSumMint, false, { amount: 2n ** 53n + 1n }), tok(big, bigSumMint, false, { amount: 2n ** 60n }));

  const delegate = key("delegateWithManyAccounts");
  const holdersMint = key("mintWithManyHolders");
  const secondMint = key("delegatedMint2");
  const holder = repeat(HOLDERS.holders + HOLDERS.zeroHolders, (i) => key(`holder:${i}`));
  const [top0, top1] = HOLDERS.topAmounts;
  entries.push(
    tok(holder[0] as Key, holdersMint, false, { amount: u64(top0), delegate }),
    tok(holder[0] as Key, holdersMint, false, { amount: u64(top1), delegate }),
  );
  for (let i = 1; i < HOLDERS.holders; i++) {
    const amount = (1 + (i % HOLDERS.tieGroups)) * 1_000_000;
    entries.push(tok(holder[i] as Key, holdersMint, false, { amount, delegate: i <= HOLDERS.undelegated ? false : delegate }));
  }
  entries.push(tok(holder[HOLDERS.holders] as Key, holdersMint, true, { amount: 3_000_000, delegate }));
  const { unspent: m2Unspent, spent: m2Spent } = HOLDERS.secondMint;
  entries.push(...repeat(m2Unspent, (i) => tok(holder[3 + i] as Key, secondMint, false, { delegate })));
  entries.push(...repeat(m2Spent, (i) => tok(holder[3 + m2Unspent + i] as Key, secondMint, true, { delegate })));
  return entries;
}

/** Plan steps below 0; a step of 0 or more is the index of a role entry. */
const Plan = { Single: -1, Update: -2, Token: -3 } as const;

interface ProgramOwner {
  text: string;
  /** 0 anchor-style (8 random discriminator bytes), 1 small discriminators, 2 no data, 3 mixed. */
  style: number;
  discriminators: U64[];
}

/** Where an account lands: tree index, leaf index, and its seq (null in a batched tree). */
interface Where {
  t: number;
  leafIndex: number;
  seq: number | null;
  /** Still in a batched tree's output queue. */
  queued: boolean;
}

export function generateDataset({ seed = 1, accounts = 20_000 }: GenerateOptions = {}): Dataset {
  if (!Number.isSafeInteger(seed)) throw new ReferenceIndexerError(RefErrorCode.OPTIONS, `seed must be a safe integer, got ${seed}`);
  if (!Number.isSafeInteger(accounts) || accounts < MIN_ACCOUNTS) {
    throw new ReferenceIndexerError(RefErrorCode.OPTIONS, `accounts must be an integer of at least ${MIN_ACCOUNTS}, got ${accounts}`);
  }
  return new Generator(seed, accounts).run();
}

class Generator {
  private readonly rng: Random;
  private readonly roles: RoleEntry[];
  private readonly plan: Int32Array;
  private readonly span: number;
  private readonly lateSlot: number;
  private readonly owners: ProgramOwner[];
  private readonly tokenOwners: Key[];
  private readonly mints: Key[];
  private readonly delegates: Key[];
  /** Next leaf index per state tree. */
  private readonly leafCount = new Float64Array(STATE_TREES);
  /** Sequence number per tree (state and address), as of `curSlot`. */
  private readonly seqCount = Float64Array.from(LOCALNET_TREES, (t) => (t.type === "AddressV1" ? V1_ADDRESS_INIT_SEQ : 0));
  /** Nullifications scheduled for a later slot: [slot offset * STATE_TREES + tree]. */
  private readonly pending: Int32Array;
  private curSlot = FIRST_SLOT - 1;
  private readonly accounts: AccountRecord[] = [];
  private readonly tokens: TokenRecord[] = [];
  private readonly signatures: SignatureRecord[] = [];
  private readonly addresses: AddressRecord[] = [];
  /** Unspent program accounts with an address, not in an output queue: what an update may replace (with their owners). */
  private readonly updatable: AccountRecord[] = [];
  private readonly updatableOwners: ProgramOwner[] = [];
  /** The newest version of each address chain (roles.ts ADDRESS_HISTORY). */
  private readonly chains = new Map<string, AccountRecord>();
  /** Tie-pair role entries waiting for the two v1 trees to be level. */
  private readonly pendingTies: RoleAccount[] = [];
  /** The open transaction of the current slot that generic program (0) or token (1) outputs may join. */
  private readonly sharedTx: (SignatureRecord | null)[] = [null, null];
  private readonly hashBytes = new Uint8Array(32);

  constructor(
    private readonly seed: number,
    total: number,
  ) {
    this.rng = new Random(seed, "dataset");
    this.roles = roleEntries(seed);
    let roleAccounts = 0;
    let roleTokens = 0;
    for (const e of this.roles) {
      if (e.kind === "token") roleTokens++;
      else roleAccounts += e.tie === true ? 2 : 1;
    }
    const tokenTotal = Math.max(Math.round(total / 5), roleTokens + Math.ceil(total / 100));
    const genericTokens = tokenTotal - roleTokens;
    const rest = total - tokenTotal - roleAccounts;
    const updates = Math.floor(rest * 0.05);
    const singles = rest - updates;
    const size = this.roles.length + singles + updates + genericTokens;
    this.span = Math.max(1000, Math.floor(total / 8));
    this.pending = new Int32Array(this.span * STATE_TREES);
    this.lateSlot = this.slotOf(Math.floor(size * LATE_FRACTION), size);
    this.plan = this.makePlan(size, singles, updates, genericTokens);

    const rng = this.rng;
    this.owners = Array.from({ length: Math.max(64, Math.floor(singles / 6)) }, (_, i) => {
      const style = i % 4;
      const discriminators = style === 1 ? [rng.between(1, 255), rng.between(256, 65535)] : [u64(rng.u64()), u64(rng.u64()), u64(rng.u64())];
      return { text: encodeBase58Fast(rng.bytes(32)), style, discriminators };
    });
    this.tokenOwners = Array.from({ length: Math.max(50, Math.floor(genericTokens / 5)) }, () => keyFromBytes(rng.bytes(32)));
    this.mints = Array.from({ length: Math.max(30, Math.floor(tokenTotal / 200)) }, () => keyFromBytes(rng.bytes(32)));
    this.delegates = Array.from({ length: 24 }, () => keyFromBytes(rng.bytes(32)));
  }

  /**
   * The shuffled timeline: role entries marked "tail" at the very end (the `last` one last),
   * those marked "early" moved out of the late part, everything else anywhere.
   */
  private makePlan(size: number, singles: number, updates: number, genericTokens: number): Int32Array {
    const plan = new Int32Array(size);
    const tail: number[] = [];
    let p = 0;
    this.roles.forEach((e, i) => {
      if (e.when === "tail") tail.push(i);
      else plan[p++] = i;
    });
    plan.fill(Plan.Single, p, (p += singles));
    plan.fill(Plan.Update, p, (p += updates));
    plan.fill(Plan.Token, p, (p += genericTokens));
    const body = size - tail.length;
    this.rng.shuffle(plan.subarray(0, body));
    tail.sort((a, b) => Number((this.roles[a] as RoleAccount).last === true) - Number((this.roles[b] as RoleAccount).last === true));
    plan.set(tail, body);
    const isEarly = (step: number) => step >= 0 && this.roles[step]?.when === "early";
    let lateStart = 0;
    while (this.slotOf(lateStart, size) < this.lateSlot) lateStart++;
    for (let at = lateStart; at < body; at++) {
      if (!isEarly(plan[at] as number)) continue;
      let q = this.rng.below(lateStart);
      while (isEarly(plan[q] as number)) q = this.rng.below(lateStart);
      const step = plan[at] as number;
      plan[at] = plan[q] as number;
      plan[q] = step;
    }
    return plan;
  }

  private slotOf(step: number, size: number): number {
    return FIRST_SLOT + Math.floor((step * this.span) / size);
  }

  private get endSlot(): number {
    return FIRST_SLOT + this.span - 1;
  }

  run(): Dataset {
    const size = this.plan.length;
    const lc = this.leafCount;
    for (let d = 0; d < size; d++) {
      const slot = this.slotOf(d, size);
      if (slot > this.curSlot) this.advance(slot);
      if (this.pendingTies.length > 0 && lc[0] === lc[1]) this.flushTies(slot);
      const late = slot >= this.lateSlot;
      const step = this.plan[d] as number;
      if (step === Plan.Single) this.generic(slot, late);
      else if (step === Plan.Update) this.update(slot, late);
      else if (step === Plan.Token) this.genericToken(slot, late);
      else {
        const role = this.roles[step] as RoleEntry;
        if (role.kind === "token") this.roleToken(role, slot, late);
        else this.roleAccount(role, slot, late);
      }
    }
    this.advance(this.endSlot);
    if (this.pendingTies.length > 0) {
      if (lc[0] !== lc[1]) throw internalError(RefErrorCode.INTERNAL, "the v1 trees never became level for the pending leaf-index ties");
      this.flushTies(this.endSlot);
    }
    const trees = LOCALNET_TREES.map((t, i) => ({ ...t, seq: this.seqCount[i] as number }));
    return {
      seed: this.seed,
      slot: this.endSlot + 2,
      trees,
      accounts: this.accounts,
      tokens: this.tokens,
      signatures: this.sortedSignatures(),
      addresses: this.addresses,
    };
  }

  /** Signatures by (slot, signature bytes): bucketed by slot, then each slot's few sorted. */
  private sortedSignatures(): SignatureRecord[] {
    const sigs = this.signatures;
    const start = new Int32Array(this.span + 1);
    for (const s of sigs) start[s.slot - FIRST_SLOT + 1] = (start[s.slot - FIRST_SLOT + 1] as number) + 1;
    for (let i = 1; i <= this.span; i++) start[i] = (start[i] as number) + (start[i - 1] as number);
    const out = new Array<SignatureRecord>(sigs.length);
    const next = start.slice(0, this.span);
    for (const s of sigs) {
      const at = next[s.slot - FIRST_SLOT] as number;
      next[s.slot - FIRST_SLOT] = at + 1;
      out[at] = s;
    }
    for (let i = 0; i < this.span; i++) {
      const from = start[i] as number;
      const to = start[i + 1] as number;
      if (to - from < 2) continue;
      const group = out.slice(from, to).sort((a, b) => compareBase58(a.signature, b.signature));
      for (let k = 0; k < group.length; k++) out[from + k] = group[k] as SignatureRecord;
    }
    return out;
  }

  /** Moves the clock to `slot`, applying the nullifications scheduled up to it. */
  private advance(slot: number): void {
    const seq = this.seqCount;
    const pending = this.pending;
    for (let s = this.curSlot + 1; s <= slot; s++) {
      const base = (s - FIRST_SLOT) * STATE_TREES;
      for (let t = 0; t < STATE_TREES; t++) {
        const n = pending[base + t] as number;
        if (n > 0) seq[t] = (seq[t] as number) + n;
      }
    }
    this.curSlot = slot;
  }

  /** A 32-byte hash below the BN254 modulus (see `base58Text`). */
  private newHash(): string {
    return base58Text(this.rng, HASH_TEXT.length, HASH_TEXT.firstDigit);
  }

  /** A transaction; `NONE` (shared, frozen) stands for an empty side, which most transactions have. */
  private newTx(slot: number, opened: string[], closed: string[]): SignatureRecord {
    const signature = base58Text(this.rng, SIGNATURE_TEXT.length, SIGNATURE_TEXT.firstDigit);
    const sig: SignatureRecord = { signature, slot, blockTime: blockTime(slot), opened, closed };
    this.signatures.push(sig);
    return sig;
  }

  /** Opens `hash` in a transaction of its own, or (`share` 0 program, 1 token) sometimes in the slot's open transaction of that kind. */
  private openTx(slot: number, hash: string, share?: 0 | 1): void {
    if (share !== undefined) {
      const open = this.sharedTx[share] as SignatureRecord | null;
      if (open !== null && open.slot === slot && this.rng.chance(0.3)) {
        open.opened.push(hash);
        return;
      }
    }
    const tx = this.newTx(slot, [hash], NONE);
    if (share !== undefined) this.sharedTx[share] = tx;
  }

  /**
   * Spends `account` in a transaction at `slot`: a V1 tree nullifies it (one sequence step, at the transaction's
   * slot); a batched tree too unless the transaction is late, when it stays in the input queue.
   */
  private close(account: AccountRecord, slot: number): void {
    const t = TREE_INDEX.get(account.tree) as number;
    if (account.inOutputQueue) throw internalError(RefErrorCode.INTERNAL, "an account in an output queue cannot be spent");
    account.spent = true;
    if (t >= BMT1 && slot >= this.lateSlot) account.inInputQueue = true;
    else if (slot <= this.curSlot) this.seqCount[t] = (this.seqCount[t] as number) + 1;
    else {
      const at = (slot - FIRST_SLOT) * STATE_TREES + t;
      this.pending[at] = (this.pending[at] as number) + 1;
    }
  }

  /** A transaction of its own at `slot` closing `account`. */
  private closeTx(account: AccountRecord, slot: number): void {
    this.close(account, slot);
    this.newTx(slot, NONE, [account.hash]);
  }

  /** A random slot after `slot` (the last slot at most). */
  private laterSlot(slot: number): number {
    return Math.min(this.endSlot, slot + 1 + this.rng.below(Math.max(1, this.endSlot - slot)));
  }

  /** Picks a state tree and leaf: mostly the lower of the two v1 trees; batched trees (mostly bmt1) for about 15%. */
  private place(kind: number, late: boolean, willSpend: boolean): Where {
    const rng = this.rng;
    const lc = this.leafCount;
    let t = kind;
    if (kind < 0) {
      // An account that will be spent never waits in an output queue.
      const batched = (kind === BATCHED || (kind === ANY && rng.chance(0.15))) && !(late && willSpend);
      if (batched) t = rng.chance(0.7) ? BMT1 : BMT1 + 1 + rng.below(4);
      else t = lc[0] === lc[1] ? rng.below(2) : (lc[0] as number) < (lc[1] as number) ? 0 : 1;
    }
    const leafIndex = lc[t] as number;
    lc[t] = leafIndex + 1;
    if (t >= BMT1 && late) {
      if (willSpend) throw internalError(RefErrorCode.INTERNAL, "an account that will be spent was placed in an output queue");
      return { t, leafIndex, seq: null, queued: true };
    }
    // An append is one sequence step and the account's seq is the tree's after it (Photon's snapshot
    // tests/integration_tests/snapshots/integration_tests__e2e_tests__e2e_mint_and_transfer-transfer-transaction.snap:
    // leafIndex 0, 1, 2 of a fresh tree have seq 1, 2, 3). Batched trees count the same way here.
    // Photon sends `seq: null` for every batched-tree account (see AccountRecord.seq).
    const seq = (this.seqCount[t] as number) + 1;
    this.seqCount[t] = seq;
    return { t, leafIndex, seq: t >= BMT1 ? null : seq, queued: false };
  }

  /** A new address for an account placed in tree `t`: into amt1 for V1 trees, amt2 (queued when late) for batched ones. */
  private newAddress(t: number, slot: number, late: boolean): string {
    const address = encodeBase58Fast(asAddress(this.rng.fill(this.hashBytes)));
    const batched = t >= BMT1;
    const tree = batched ? AMT2 : AMT1;
    const queued = batched && late;
    this.addresses.push({ address, tree: (LOCALNET_TREES[tree] as TreeRecord).tree, slot, queued });
    // An indexed (V1) address tree changes two leaves per insertion, each a sequence step (Photon
    // src/ingester/parser/merkle_tree_events_parser.rs, parse_indexed_merkle_tree_update); a batched one, one step per address here.
    if (!queued) this.seqCount[tree] = (this.seqCount[tree] as number) + (batched ? 1 : 2);
    return address;
  }

  private lamports(): U64 {
    const r = this.rng.float();
    if (r < 0.4) return 0;
    if (r < 0.8) return this.rng.between(1, 10_000_000_000);
    if (r < 0.96) return this.rng.below(1_000_000) * 1_000_000_000 + this.rng.below(1_000_000_000);
    // Above 2^53, small enough that an owner's sum stays within u64 (Photon's balance sums are u64).
    return u64((1n << 53n) + (this.rng.u64() >> 12n));
  }

  private account(owner: string, slot: number, where: Where, address: string | null, data: AccountRecord["data"], lamports: U64): AccountRecord {
    const record: AccountRecord = {
      hash: this.newHash(),
      address,
      data,
      owner,
      lamports,
      tree: TREES[where.t] as string,
      leafIndex: where.leafIndex,
      seq: where.seq,
      slotCreated: slot,
      spent: false,
      inInputQueue: false,
      inOutputQueue: where.queued,
    };
    this.accounts.push(record);
    return record;
  }

  private dataOf(bytes: Uint8Array | number[], discriminator: U64): AccountRecord["data"] {
    return { discriminator, data: Buffer.from(bytes).toString("base64"), dataHash: this.newHash() };
  }

  private ownerData(owner: ProgramOwner): AccountRecord["data"] {
    const rng = this.rng;
    if (owner.style === 2 || (owner.style === 3 && rng.chance(0.5))) return null;
    const length = rng.chance(0.02) ? 0 : rng.between(1, 96);
    return this.dataOf(rng.bytes(length), rng.pick(owner.discriminators));
  }

  private generic(slot: number, late: boolean): void {
    const rng = this.rng;
    const owner = this.owners[rng.skewed(this.owners.length)] as ProgramOwner;
    const spent = rng.chance(0.08);
    const where = this.place(ANY, late, spent);
    const address = rng.chance(0.5) ? this.newAddress(where.t, slot, late) : null;
    const record = this.account(owner.text, slot, where, address, this.ownerData(owner), this.lamports());
    this.openTx(slot, record.hash, 0);
    if (spent) this.closeTx(record, this.laterSlot(slot));
    else if (address !== null && !where.queued) {
      this.updatable.push(record);
      this.updatableOwners.push(owner);
    }
  }

  /** An update: one transaction closes an earlier unspent version and opens a new one holding its address, in the same kind of tree. */
  private update(slot: number, late: boolean): void {
    const n = this.updatable.length;
    if (n === 0) {
      this.generic(slot, late);
      return;
    }
    const i = this.rng.below(n);
    const old = this.updatable[i] as AccountRecord;
    const owner = this.updatableOwners[i] as ProgramOwner;
    this.updatable[i] = this.updatable[n - 1] as AccountRecord;
    this.updatableOwners[i] = this.updatableOwners[n - 1] as ProgramOwner;
    this.updatable.pop();
    this.updatableOwners.pop();
    this.close(old, slot);
    const where = this.place((TREE_INDEX.get(old.tree) as number) >= BMT1 ? BATCHED : V1, late, false);
    const record = this.account(owner.text, slot, where, old.address, this.ownerData(owner), this.lamports());
    this.newTx(slot, [record.hash], [old.hash]);
    if (!where.queued) {
      this.updatable.push(record);
      this.updatableOwners.push(owner);
    }
  }

  private roleAccount(role: RoleAccount, slot: number, late: boolean): void {
    if (role.tie === true) {
      this.pendingTies.push(role);
      const lc = this.leafCount;
      if (lc[0] === lc[1]) this.flushTies(slot);
      return;
    }
    if (role.chain !== undefined) {
      this.chainStep(role, slot, late);
      return;
    }
    const rng = this.rng;
    const where = this.place(role.tree ?? ANY, late, role.spent);
    const withAddress = role.address ?? rng.chance(0.5);
    const address = withAddress ? this.newAddress(where.t, slot, late) : null;
    const discriminator = role.discriminator ?? u64(rng.u64());
    const data =
      role.data === null
        ? null
        : role.data !== undefined
          ? this.dataOf(role.data, discriminator)
          : rng.chance(0.2)
            ? null
            : this.dataOf(rng.bytes(rng.between(1, 64)), discriminator);
    const record = this.account(role.owner.text, slot, where, address, data, role.lamports ?? this.lamports());
    this.openTx(slot, record.hash);
    if (!role.spent) return;
    const closeSlot =
      role.close === "late" ? this.endSlot : role.close === "early" ? Math.max(slot, Math.min(this.lateSlot - 1, this.laterSlot(slot))) : this.laterSlot(slot);
    this.closeTx(record, closeSlot);
  }

  /** Leaf-index ties: each pending tie role puts one account at the same (level) leaf index of both v1 trees. */
  private flushTies(slot: number): void {
    const lc = this.leafCount;
    for (const role of this.pendingTies) {
      const discriminator = u64(this.rng.u64());
      for (const t of [0, 1]) {
        const leafIndex = lc[t] as number;
        lc[t] = leafIndex + 1;
        const seq = (this.seqCount[t] as number) + 1;
        this.seqCount[t] = seq;
        const address = this.rng.chance(0.5) ? this.newAddress(t, slot, false) : null;
        const record = this.account(role.owner.text, slot, { t, leafIndex, seq, queued: false }, address, this.ownerDataLike(discriminator), this.lamports());
        this.openTx(slot, record.hash);
      }
    }
    this.pendingTies.length = 0;
  }

  /** One version of an address chain: the first opens the address, each later one closes the previous version and opens the next in one transaction. */
  private chainStep(role: RoleAccount, slot: number, late: boolean): void {
    const chain = role.chain as string;
    const previous = this.chains.get(chain);
    const where = this.place(role.tree ?? V1, late, true);
    const address = previous?.address ?? this.newAddress(where.t, slot, late);
    const record = this.account(role.owner.text, slot, where, address, this.ownerDataLike(u64(this.rng.u64())), this.lamports());
    if (previous === undefined) this.openTx(slot, record.hash);
    else {
      this.close(previous, slot);
      this.newTx(slot, [record.hash], [previous.hash]);
    }
    this.chains.set(chain, record);
  }

  private ownerDataLike(discriminator: U64): AccountRecord["data"] {
    return this.rng.chance(0.2) ? null : this.dataOf(this.rng.bytes(this.rng.between(1, 64)), discriminator);
  }

  private genericToken(slot: number, late: boolean): void {
    const rng = this.rng;
    const owner = this.tokenOwners[rng.skewed(this.tokenOwners.length)] as Key;
    const mint = this.mints[rng.skewed(this.mints.length)] as Key;
    this.roleToken({ kind: "token", owner, mint, spent: rng.chance(0.12) }, slot, late, true);
  }

  /** `shared`: may join the open token transaction of its slot (role accounts never do, so their signature counts are exact). */
  private roleToken(role: RoleToken, slot: number, late: boolean, shared = false): void {
    const rng = this.rng;
    const amount = role.amount ?? (role.positive !== true && rng.chance(0.1) ? 0 : 1 + rng.below(1_000_000) * 1_000_000 + rng.below(999_999));
    const delegate = typeof role.delegate === "object" ? role.delegate : (role.delegate ?? rng.chance(0.15)) ? rng.pick(this.delegates) : null;
    const state: TokenState = role.state ?? (rng.chance(0.08) ? "frozen" : "initialized");
    const tlv = (role.tlv ?? rng.chance(0.1)) ? rng.bytes(rng.between(2, 24)) : null;
    const r = rng.float();
    const discriminator = (r < 0.85 ? TOKEN_DISCRIMINATORS[0] : r < 0.95 ? TOKEN_DISCRIMINATORS[1] : TOKEN_DISCRIMINATORS[2]) as U64;
    const data = this.dataOf(tokenLayout(role.mint, role.owner, amount, delegate, state, tlv), discriminator);
    const lamports = rng.chance(0.05) ? rng.between(1, 2_000_000) : 0;
    const where = this.place(ANY, late, role.spent);
    const address = rng.chance(0.03) ? this.newAddress(where.t, slot, late) : null;
    const record = this.account(TOKEN_PROGRAM, slot, where, address, data, lamports);
    this.tokens.push({
      hash: record.hash,
      mint: role.mint.text,
      owner: role.owner.text,
      amount,
      delegate: delegate?.text ?? null,
      state,
      // At 0.51.2 Photon sends every byte after the option tag, so the u32 LE length prefix too
      // (spec/DECISIONS.md row 74; HEAD:src/common/typedefs/token_data.rs:61-81).
      tlv: tlv === null ? null : tlvWithLength(tlv).toString("base64"),
    });
    // Opened by a transaction in its slot (generic ones sometimes share one with several outputs) ...
    this.openTx(slot, record.hash, shared ? 1 : undefined);
    // ... and, when spent, closed by a later one of its own.
    if (role.spent) this.closeTx(record, role.spentLast === true ? this.endSlot : this.laterSlot(slot));
  }
}

const ALPHABET = Buffer.from("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", "latin1");
const textBuffer = Buffer.alloc(128);
/**
 * Random canonical base58 text of a fixed byte length, drawn as digits (encoding random bytes
 * costs more than the rest of the generator). `length` digits whose first is at least
 * `firstDigit`: for a value v with 58^(length-1) · firstDigit ≥ 2^(8(bytes-1)) and 58^length ≤ 2^(8·bytes),
 * the text is exactly the base58 of `bytes` bytes whose first byte is not zero.
 * Signatures: 87 digits, first ≥ 2 (v in [2^504.8, 2^509.7): 64 bytes). Hashes: 43 digits, first ≥ 4
 * (v in [2^248.03, 2^251.9): 32 bytes, first byte below 0x10, so below the BN254 modulus).
 */
function base58Text(rng: Random, length: number, firstDigit: number): string {
  const out = textBuffer;
  out[0] = ALPHABET[firstDigit + rng.below(58 - firstDigit)] as number;
  let x = 0;
  let left = 0;
  for (let i = 1; i < length; i++) {
    if (left === 0) {
      x = rng.u32();
      left = 5;
    }
    const q = Math.floor(x / 58);
    out[i] = ALPHABET[x - q * 58] as number;
    x = q;
    left--;
  }
  return out.toString("latin1", 0, length);
}
const SIGNATURE_TEXT = { length: 87, firstDigit: 2 } as const;
const HASH_TEXT = { length: 43, firstDigit: 4 } as const;

function blockTime(slot: number): number {
  return FIRST_BLOCK_TIME + Math.floor(((slot - FIRST_SLOT) * 2) / 5);
}

/** The extensions' bytes as they follow the option tag in token data: u32 LE length, then the bytes. */
function tlvWithLength(tlv: Uint8Array): Buffer {
  const out = Buffer.alloc(4 + tlv.length);
  out.writeUInt32LE(tlv.length, 0);
  out.set(tlv, 4);
  return out;
}

/** The borsh layout of compressed token data: mint, owner, amount (u64 LE), Option<delegate>, state, Option<tlv>. */
function tokenLayout(mint: Key, owner: Key, amount: U64, delegate: Key | null, state: TokenState, tlv: Uint8Array | null): Uint8Array {
  const size = 32 + 32 + 8 + 1 + (delegate ? 32 : 0) + 1 + 1 + (tlv ? 4 + tlv.length : 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(mint.bytes, 0);
  out.set(owner.bytes, 32);
  view.setBigUint64(64, BigInt(amount), true);
  let p = 72;
  out[p++] = delegate ? 1 : 0;
  if (delegate) {
    out.set(delegate.bytes, p);
    p += 32;
  }
  out[p++] = state === "frozen" ? 1 : 0;
  out[p++] = tlv ? 1 : 0;
  if (tlv) {
    view.setUint32(p, tlv.length, true);
    out.set(tlv, p + 4);
  }
  return out;
}
