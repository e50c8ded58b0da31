/** The dataset generator's timeline: plans the steps, places accounts in trees and queues, and records their transactions and addresses (see dataset.ts). */
import { compareBase58Numbers, encodeBase58, internalError } from "@photon-indexer-kit/runtime";
import { FIRST_SLOT, HASH_TEXT, SIGNATURE_TEXT, base58Text, blockTime, tlvWithLength, tokenLayout } from "./dataset-encoding.js";
import { roleEntries } from "./roles/index.js";
import type { RoleAccount, RoleEntry, RoleToken } from "./roles/plan.js";
import { AMT1, AMT2, ANY_TREE, BATCHED_TREE, BMT1, LOCALNET_TREES, STATE_TREES, TREES, TREE_INDEX, V1_ADDRESS_INIT_SEQ, V1_TREE } from "./dataset-trees.js";
import type { Placement } from "./dataset-trees.js";
import { RefErrorCode } from "./errors.js";
import { Random } from "./random.js";
import { TOKEN_PROGRAM, u64 } from "./records.js";
import type { AccountRecord, AddressRecord, Dataset, SignatureRecord, TokenRecord, TokenState, TreeRecord, U64 } from "./records.js";
import { asAddress, keyFromBytes } from "./roles/keys.js";
import type { Key } from "./roles/keys.js";

/** The empty side of a transaction (frozen: records are never edited after generation). */
const NONE = Object.freeze([]) as unknown as string[];
/** The last 3% of the timeline is late (see the file comment). */
const LATE_FRACTION = 0.97;
/** Token data discriminators: v1 (2), and the v2/v3 ones ([0,…,0,3] and [0,…,0,4] read LE). */
const TOKEN_DISCRIMINATORS: readonly U64[] = [2, 3n << 56n, 4n << 56n];

/** One step of the timeline: a random program account, an update of one, a random token account, or a role entry. */
type Step = { readonly kind: "single" } | { readonly kind: "update" } | { readonly kind: "token" } | { readonly kind: "role"; readonly entry: RoleEntry };
const SINGLE: Step = { kind: "single" };
const UPDATE: Step = { kind: "update" };
const TOKEN: Step = { kind: "token" };

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

export class Generator {
  private readonly rng: Random;
  private readonly roles: RoleEntry[];
  private readonly plan: readonly Step[];
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
  /** The newest version of each address chain (roles/addresses.ts ADDRESS_HISTORY). */
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
      return { text: encodeBase58(rng.bytes(32)), style, discriminators };
    });
    this.tokenOwners = Array.from({ length: Math.max(50, Math.floor(genericTokens / 5)) }, () => keyFromBytes(rng.bytes(32)));
    this.mints = Array.from({ length: Math.max(30, Math.floor(tokenTotal / 200)) }, () => keyFromBytes(rng.bytes(32)));
    this.delegates = Array.from({ length: 24 }, () => keyFromBytes(rng.bytes(32)));
  }

  /**
   * The shuffled timeline: role entries marked "tail" at the very end (the `last` one last),
   * those marked "early" moved out of the late part, everything else anywhere.
   */
  private makePlan(size: number, singles: number, updates: number, genericTokens: number): Step[] {
    const plan: Step[] = [];
    const tail: RoleEntry[] = [];
    for (const entry of this.roles) {
      if (entry.when === "tail") tail.push(entry);
      else plan.push({ kind: "role", entry });
    }
    for (let i = 0; i < singles; i++) plan.push(SINGLE);
    for (let i = 0; i < updates; i++) plan.push(UPDATE);
    for (let i = 0; i < genericTokens; i++) plan.push(TOKEN);
    const body = plan.length;
    this.rng.shuffle(plan);
    tail.sort((a, b) => Number((a as RoleAccount).last === true) - Number((b as RoleAccount).last === true));
    for (const entry of tail) plan.push({ kind: "role", entry });
    const isEarly = (step: Step) => step.kind === "role" && step.entry.when === "early";
    let lateStart = 0;
    while (this.slotOf(lateStart, size) < this.lateSlot) lateStart++;
    for (let at = lateStart; at < body; at++) {
      if (!isEarly(plan[at] as Step)) continue;
      let q = this.rng.below(lateStart);
      while (isEarly(plan[q] as Step)) q = this.rng.below(lateStart);
      const step = plan[at] as Step;
      plan[at] = plan[q] as Step;
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
      const step = this.plan[d] as Step;
      if (step.kind === "single") this.generic(slot, late);
      else if (step.kind === "update") this.update(slot, late);
      else if (step.kind === "token") this.genericToken(slot, late);
      else if (step.entry.kind === "token") this.roleToken(step.entry, slot, late);
      else this.roleAccount(step.entry, slot, late);
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
      const group = out.slice(from, to).sort((a, b) => compareBase58Numbers(a.signature, b.signature));
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
  private place(to: Placement, late: boolean, willSpend: boolean): Where {
    const rng = this.rng;
    const lc = this.leafCount;
    let t: number;
    if (to.kind === "tree") t = to.index;
    else {
      // An account that will be spent never waits in an output queue.
      const batched = (to.kind === "batched" || (to.kind === "any" && rng.chance(0.15))) && !(late && willSpend);
      if (batched) t = rng.chance(0.7) ? BMT1 : BMT1 + 1 + rng.below(4);
      else t = lc[0] === lc[1] ? rng.below(2) : (lc[0] as number) < (lc[1] as number) ? 0 : 1;
    }
    const leafIndex = lc[t] as number;
    lc[t] = leafIndex + 1;
    if (t >= BMT1 && late) {
      if (willSpend) throw internalError(RefErrorCode.INTERNAL, "an account that will be spent was placed in an output queue");
      return { t, leafIndex, seq: null, queued: true };
    }
    // An append is one sequence step: the account's seq is the tree's after it (Photon's snapshot
    // tests/integration_tests/snapshots/integration_tests__e2e_tests__e2e_mint_and_transfer-transfer-transaction.snap).
    // Photon sends `seq: null` for every batched-tree account (see AccountRecord.seq).
    const seq = (this.seqCount[t] as number) + 1;
    this.seqCount[t] = seq;
    return { t, leafIndex, seq: t >= BMT1 ? null : seq, queued: false };
  }

  /** A new address for an account placed in tree `t`: into amt1 for V1 trees, amt2 (queued when late) for batched ones. */
  private newAddress(t: number, slot: number, late: boolean): string {
    const address = encodeBase58(asAddress(this.rng.fill(this.hashBytes)));
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
    const where = this.place(ANY_TREE, late, spent);
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
    const where = this.place((TREE_INDEX.get(old.tree) as number) >= BMT1 ? BATCHED_TREE : V1_TREE, late, false);
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
    const where = this.place(role.tree ?? ANY_TREE, late, role.spent);
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
    const where = this.place(role.tree ?? V1_TREE, late, true);
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
    const where = this.place(ANY_TREE, late, role.spent);
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
