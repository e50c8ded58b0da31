/**
 * Which accounts of the seed owner's list discovery may name as unspent on a moving target. Rule:
 * an account is settled when it is still listed at the end of the watch and whoever can spend it
 * (its owner; a token account's token owner or delegate) neither acted during the watch (an
 * account of theirs came or went) nor has a transaction within RECENT_SLOTS of the watch's last
 * slot. On a target that stood still, every account is settled.
 */
import { isObject, type MethodInfo } from "@photon-indexer-kit/runtime";
import type { Target } from "../checks/check.js";
import { getPath } from "../matchers.js";
import { pageOf, type MethodTable } from "../spec-facts.js";
import { activeActors, actorsOf } from "./moving.js";
import { MAX_OWNER_LISTS, signatureMethods } from "./signatures.js";
import { MAX_PAGES, type Listing } from "./token-roles.js";

/** How recent an owner's newest transaction marks it as acting: about a minute of Solana slots (400 ms each). */
export const RECENT_SLOTS = 150n;
/** Owners whose newest transaction is asked for; past them, an owner counts as acting (nothing says it does not). */
const MAX_OWNERS_ASKED = 6;
/** The calls settling sends at most: the seed owner's list again, then the first page of each owner's signature lists. */
export const SETTLE_CALLS = MAX_PAGES + MAX_OWNERS_ASKED * MAX_OWNER_LISTS;

export class Settling {
  /** Whether the seed owner's list changed during the watch (an account came or went). */
  readonly changed: boolean;
  private readonly id: string;
  private readonly listed: Set<string>;
  private readonly active: Set<string>;
  private readonly asked = new Map<string, Promise<boolean>>();
  private readonly ownerPath: string;

  /**
   * `before` and `after`: the seed owner's list at the start and the end of the watch; `lastSlot`:
   * the watch's last slot, or null when the target moved without stating one, or undefined
   * when it stood still.
   */
  constructor(
    private readonly target: Target,
    private readonly table: MethodTable,
    accounts: MethodInfo,
    private readonly token: boolean,
    before: Listing,
    after: Listing,
    private readonly lastSlot: bigint | null | undefined,
  ) {
    this.id = accounts.identity ?? "hash";
    this.ownerPath = accounts.filters.owner ?? "owner";
    this.listed = new Set(after.items.map((i) => String(i[this.id])));
    this.changed = after.items.length !== before.items.length || before.items.some((i) => !this.listed.has(String(i[this.id])));
    this.active = activeActors(before, after, this.id, (i) => this.actors(i));
  }

  private actors(item: Record<string, unknown>): string[] {
    return actorsOf(item, this.token, this.ownerPath);
  }

  /** Whether `item` (an account of the seed owner's list) is settled. */
  async settled(item: Record<string, unknown>): Promise<boolean> {
    if (this.lastSlot === undefined) return true;
    if (!this.listed.has(String(item[this.id]))) return false;
    const actors = this.actors(item);
    if (actors.length === 0 || actors.some((a) => this.active.has(a))) return false;
    // The owner (the first actor) is asked for its newest transaction; a delegate has no list of its own.
    return !(await this.acted(actors[0]!));
  }

  /** Whether `owner` acted during the watch or within RECENT_SLOTS before its end (always false on a target that stood still). */
  acted(owner: string): Promise<boolean> {
    if (this.lastSlot === undefined) return Promise.resolve(false);
    if (this.active.has(owner) || this.lastSlot === null) return Promise.resolve(true);
    let known = this.asked.get(owner);
    if (known === undefined) {
      known = this.asked.size >= MAX_OWNERS_ASKED ? Promise.resolve(true) : this.newestIsRecent(owner, this.lastSlot);
      this.asked.set(owner, known);
    }
    return known;
  }

  /**
   * Whether the newest transaction `owner`'s signature lists hold (the first item of their first
   * page; its slot is the list's integer order key) is within RECENT_SLOTS of `last`. A list
   * that does not answer with such an item says nothing.
   */
  private async newestIsRecent(owner: string, last: bigint): Promise<boolean> {
    const lists = signatureMethods(this.table, this.id)?.owners ?? [];
    for (const m of lists) {
      const slotField = m.pagination?.order?.find((o) => o.compare === "integer")?.field;
      if (!m.pagination || !slotField) continue;
      const limit = m.pagination.limit ? { [m.pagination.limit]: 1 } : {};
      const exchange = await this.target.call(m.name, { [m.requiredParams[0]!]: owner, ...limit });
      const value = isObject(exchange.body) ? pageOf(m, exchange.body.result) : undefined;
      const first = isObject(value) && Array.isArray(value[m.pagination.items]) ? (value[m.pagination.items] as unknown[])[0] : undefined;
      const slot = isObject(first) ? getPath(first, slotField) : undefined;
      const at = typeof slot === "bigint" ? slot : typeof slot === "number" && Number.isSafeInteger(slot) ? BigInt(slot) : null;
      if (at !== null && at + RECENT_SLOTS >= last) return true;
    }
    return false;
  }
}
