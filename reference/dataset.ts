/**
 * A deterministic dataset generator: same seed and size, same records (and so the same
 * file bytes) on every machine.
 *
 * The dataset is a timeline of compressed accounts in three state trees. About a fifth
 * are compressed-token accounts (owned by TOKEN_PROGRAM, with token records and the
 * signatures that created and spent them); the rest belong to program owners. Around
 * the random bulk, fixed "role" entities cover every edge the conformance suite checks
 * (see roles.ts and `datasetProfile`).
 */
import { compareBase58, encodeBase58Fast } from "./base58.js";
import { RefErrorCode, ReferenceIndexerError } from "./errors.js";
import { Random } from "./random.js";
import { TOKEN_PROGRAM, U64_MAX, u64 } from "./records.js";
import type { AccountRecord, Dataset, SignatureRecord, TokenRecord, TokenState, U64 } from "./records.js";
import { MEMCMP, OWNER_ROLES, TOKEN_ROLES, asFieldElement, keyFromBytes, roleKey } from "./roles.js";
import type { Key } from "./roles.js";

export { datasetProfile } from "./profile.js";
export type { DatasetProfile } from "./profile.js";

export interface GenerateOptions {
  /** Any safe integer. Default 1. */
  seed?: number;
  /** Total compressed accounts, spent ones and token accounts included. Default 20,000; at least MIN_ACCOUNTS. */
  accounts?: number;
}

/** The smallest size that holds every role entity plus some random bulk. */
export const MIN_ACCOUNTS = 12_000;

/** State trees: two v1 trees (kept level, so leaf indexes collide across them) and one batched tree. */
export const TREES = [
  "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT",
  "smt2rJAFdyJJupwMKAqTNAJwvjhmiZ4JYGZmbVRw1Ho",
  "bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU",
] as const;
const BATCHED = 2;
const FIRST_SLOT = 301_000_000;
const FIRST_BLOCK_TIME = 1_732_000_000;
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
  /** In the batched tree, placed last in the timeline: seq null. */
  last?: boolean;
}

/** One planned token account of a role entity. */
interface RoleToken {
  kind: "token";
  owner: Key;
  mint: Key;
  amount?: U64;
  spent: boolean;
  /** Spent in the dataset's last slot (many signatures share that slot). */
  spentLast?: boolean;
  delegate?: boolean;
  tlv?: boolean;
  state?: TokenState;
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
  entries.push(...repeat(m.tiePairs, () => acc(many, false, { tie: true })));
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
  entries.push(acc(one, false, { address: false, data: null, last: true, lamports: 0 }));
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

  const manyMints = key("tokenOwnerWithManyMints");
  const mintsOfMany = repeat(TOKEN_ROLES.manyMints, (i) => key(`manyMints:${i}`));
  mintsOfMany.forEach((mint, i) => {
    entries.push(...repeat(1 + (i % 3), () => tok(manyMints, mint, false)));
    if (i % 5 === 0) entries.push(tok(manyMints, mint, true));
  });
  const t1000 = key("tokenOwnerWith1000TokenAccounts");
  const mint1000 = key("mintOf1000");
  entries.push(...repeat(TOKEN_ROLES.with1000.unspent, () => tok(t1000, mint1000, false)));
  entries.push(...repeat(TOKEN_ROLES.with1000.spent, () => tok(t1000, mint1000, true, { spentLast: true })));
  const t1001 = key("tokenOwnerWith1001TokenAccounts");
  entries.push(...repeat(TOKEN_ROLES.with1001, (i) => tok(t1001, key(`mints1001:${i}`), false)));
  const tOne = key("tokenOwnerWithOneAccount");
  entries.push(tok(tOne, mintsOfMany[0] as Key, false, { delegate: true, tlv: true, state: "frozen" }));
  const zero = key("tokenOwnerWithZeroBalance");
  const zeroMint = key("zeroBalanceMint");
  entries.push(tok(zero, zeroMint, true, { amount: 500 }), tok(zero, zeroMint, true, { amount: 700 }));
  entries.push(tok(zero, mintsOfMany[1] as Key, false, { amount: 0, delegate: false, tlv: false, state: "initialized" }));
  entries.push(tok(zero, mintsOfMany[2] as Key, false), tok(zero, mintsOfMany[2] as Key, false));
  const big = key("tokenOwnerWithBigAmounts");
  const bigMint = key("bigAmountMint");
  const bigSumMint = key("bigSumMint");
  entries.push(tok(big, bigMint, false, { amount: U64_MAX }), tok(big, bigMint, true, { amount: U64_MAX }));
  entries.push(tok(big, bigSumMint, false, { amount: 2n ** 53n + 1n }), tok(big, bigSumMint, false, { amount: 2n ** 60n }));
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
  private readonly owners: ProgramOwner[];
  private readonly tokenOwners: Key[];
  private readonly mints: Key[];
  private readonly delegates: Key[];
  /** Next leaf index and last sequence number per tree. */
  private readonly leafCount = new Float64Array(TREES.length);
  private readonly seqCount = new Float64Array(TREES.length);
  private readonly accounts: AccountRecord[] = [];
  private readonly tokens: TokenRecord[] = [];
  private readonly signatures: SignatureRecord[] = [];
  private lastCreation: SignatureRecord | null = null;
  private readonly hashBytes = new Uint8Array(32);
  private readonly sigBytes = new Uint8Array(64);

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
    const tokenTotal = Math.round(total / 5);
    const genericTokens = tokenTotal - roleTokens;
    const rest = total - tokenTotal - roleAccounts;
    const updates = Math.floor(rest * 0.03);
    const singles = rest - 2 * updates;
    const size = this.roles.length + singles + updates + genericTokens;
    const plan = new Int32Array(size);
    let p = 0;
    for (let i = 0; i < this.roles.length; i++) plan[p++] = i;
    plan.fill(Plan.Single, p, (p += singles));
    plan.fill(Plan.Update, p, (p += updates));
    plan.fill(Plan.Token, p, (p += genericTokens));
    this.rng.shuffle(plan);
    // The role account marked `last` closes the timeline (newest leaf of the batched tree).
    const lastRole = this.roles.findIndex((e) => e.kind === "account" && e.last === true);
    const at = plan.indexOf(lastRole);
    plan[at] = plan[size - 1] as number;
    plan[size - 1] = lastRole;
    this.plan = plan;
    this.span = Math.max(1000, Math.floor(total / 8));

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

  private get endSlot(): number {
    return FIRST_SLOT + this.span - 1;
  }

  run(): Dataset {
    const size = this.plan.length;
    for (let d = 0; d < size; d++) {
      const slot = FIRST_SLOT + Math.floor((d * this.span) / size);
      const late = d >= size * 0.97;
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
    for (const s of this.signatures) s.blockTime = blockTime(s.slot);
    this.signatures.sort((a, b) => a.slot - b.slot || compareBase58(a.signature, b.signature));
    return { seed: this.seed, slot: this.endSlot + 2, accounts: this.accounts, tokens: this.tokens, signatures: this.signatures };
  }

  private newHash(): string {
    return encodeBase58Fast(asFieldElement(this.rng.fill(this.hashBytes)));
  }

  private newSignature(slot: number, hash: string): SignatureRecord {
    const sig: SignatureRecord = { signature: encodeBase58Fast(this.rng.fill(this.sigBytes)), slot, blockTime: 0, accounts: [hash] };
    this.signatures.push(sig);
    return sig;
  }

  /** Picks a tree and leaf: mostly the lower of the two v1 trees, sometimes the batched tree. */
  private place(late: boolean, batched = this.rng.chance(0.15)): { tree: string; leafIndex: number; seq: number | null } {
    const lc = this.leafCount;
    const t = batched ? BATCHED : lc[0] === lc[1] ? this.rng.below(2) : (lc[0] as number) < (lc[1] as number) ? 0 : 1;
    const leafIndex = lc[t] as number;
    lc[t] = leafIndex + 1;
    return { tree: TREES[t] as string, leafIndex, seq: t === BATCHED && late ? null : this.nextSeq(t) };
  }

  private nextSeq(t: number): number {
    // Nullifications also advance a tree's sequence number.
    const seq = (this.seqCount[t] as number) + (this.rng.chance(0.3) ? 2 : 1);
    this.seqCount[t] = seq;
    return seq;
  }

  private lamports(): U64 {
    const r = this.rng.float();
    if (r < 0.4) return 0;
    if (r < 0.8) return this.rng.between(1, 10_000_000_000);
    if (r < 0.96) return this.rng.below(1_000_000) * 1_000_000_000 + this.rng.below(1_000_000_000);
    return u64((1n << 53n) + (this.rng.u64() >> 2n));
  }

  private account(
    owner: string,
    slot: number,
    spent: boolean,
    where: { tree: string; leafIndex: number; seq: number | null },
    address: string | null,
    data: AccountRecord["data"],
    lamports: U64,
  ): AccountRecord {
    const record: AccountRecord = {
      hash: this.newHash(),
      address,
      data,
      owner,
      lamports,
      tree: where.tree,
      leafIndex: where.leafIndex,
      seq: where.seq,
      slotCreated: slot,
      spent,
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

  private address(p = 0.5): string | null {
    return this.rng.chance(p) ? encodeBase58Fast(asFieldElement(this.rng.fill(this.hashBytes))) : null;
  }

  private generic(slot: number, late: boolean): void {
    const owner = this.owners[this.rng.skewed(this.owners.length)] as ProgramOwner;
    const spent = this.rng.chance(0.08);
    this.account(owner.text, slot, spent, this.place(late), this.address(), this.ownerData(owner), this.lamports());
  }

  /** An update: the old version is spent and a new one takes over its address in the same slot. */
  private update(slot: number, late: boolean): void {
    const owner = this.owners[this.rng.skewed(this.owners.length)] as ProgramOwner;
    const address = this.address(1);
    this.account(owner.text, slot, true, this.place(late), address, this.ownerData(owner), this.lamports());
    this.account(owner.text, slot, false, this.place(late), address, this.ownerData(owner), this.lamports());
  }

  private roleAccount(role: RoleAccount, slot: number, late: boolean): void {
    const rng = this.rng;
    const address = role.address === undefined ? this.address() : role.address ? this.address(1) : null;
    const discriminator = role.discriminator ?? u64(rng.u64());
    const data =
      role.data === null
        ? null
        : role.data !== undefined
          ? this.dataOf(role.data, discriminator)
          : rng.chance(0.2)
            ? null
            : this.dataOf(rng.bytes(rng.between(1, 64)), discriminator);
    const lamports = role.lamports ?? this.lamports();
    if (role.tie === true) {
      const lc = this.leafCount;
      const leafIndex = Math.max(lc[0] as number, lc[1] as number);
      lc[0] = lc[1] = leafIndex + 1;
      this.account(role.owner.text, slot, role.spent, { tree: TREES[0], leafIndex, seq: this.nextSeq(0) }, address, data, lamports);
      this.account(
        role.owner.text,
        slot,
        role.spent,
        { tree: TREES[1], leafIndex, seq: this.nextSeq(1) },
        this.address(),
        this.ownerDataLike(discriminator),
        this.lamports(),
      );
      return;
    }
    this.account(role.owner.text, slot, role.spent, this.place(late || role.last === true, role.last === true ? true : undefined), address, data, lamports);
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

  /** `shareTx`: may join the open transaction of its slot (role accounts never do, so their signature counts are exact). */
  private roleToken(role: RoleToken, slot: number, late: boolean, shareTx = false): void {
    const rng = this.rng;
    const amount = role.amount ?? (rng.chance(0.1) ? 0 : rng.below(1_000_000) * 1_000_000 + rng.below(1_000_000));
    const delegate = (role.delegate ?? rng.chance(0.15)) ? rng.pick(this.delegates) : null;
    const state: TokenState = role.state ?? (rng.chance(0.08) ? "frozen" : "initialized");
    const tlv = (role.tlv ?? rng.chance(0.1)) ? rng.bytes(rng.between(2, 24)) : null;
    const r = rng.float();
    const discriminator = (r < 0.85 ? TOKEN_DISCRIMINATORS[0] : r < 0.95 ? TOKEN_DISCRIMINATORS[1] : TOKEN_DISCRIMINATORS[2]) as U64;
    const data = this.dataOf(tokenLayout(role.mint, role.owner, amount, delegate, state, tlv), discriminator);
    const lamports = rng.chance(0.05) ? rng.between(1, 2_000_000) : 0;
    const record = this.account(TOKEN_PROGRAM, slot, role.spent, this.place(late), this.address(0.03), data, lamports);
    this.tokens.push({
      hash: record.hash,
      mint: role.mint.text,
      owner: role.owner.text,
      amount,
      delegate: delegate?.text ?? null,
      state,
      tlv: tlv === null ? null : Buffer.from(tlv).toString("base64"),
    });
    // Created by a transaction in its slot (sometimes one with several outputs) ...
    const open = this.lastCreation;
    if (shareTx && open !== null && open.slot === slot && rng.chance(0.3)) open.accounts.push(record.hash);
    else this.lastCreation = this.newSignature(slot, record.hash);
    // ... and, when spent, nullified by a later one.
    if (role.spent) {
      const spendSlot = role.spentLast === true ? this.endSlot : slot + 1 + rng.below(Math.max(1, this.endSlot - slot));
      this.newSignature(Math.min(spendSlot, this.endSlot), record.hash);
    }
  }
}

function blockTime(slot: number): number {
  return FIRST_BLOCK_TIME + Math.floor(((slot - FIRST_SLOT) * 2) / 5);
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
