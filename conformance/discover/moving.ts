/**
 * Discovery on a moving target. Discovery watches the target for at least WATCH_MS, reading its
 * slot at the start and at the end (and the slot of every answer). When the slot moved, the
 * profile states no value a moving chain changes: those values are set aside under `mayMove`
 * (as seen, for the operator to review), keyed by the placeholder path the cases name them by,
 * and a case needing one is skipped, naming it (case-format.ts).
 */
import { encodeBase58, isObject, type Json, type MethodInfo } from "@photon-indexer-kit/runtime";
import type { Target } from "../checks/check.js";
import { MAY_MOVE } from "../placeholders.js";
import { ABSENT, getPath } from "../matchers.js";
import type { Exchange } from "../results.js";
import { methodInfo, type MethodTable, slotOfResult } from "../spec-facts.js";
import { dataOf, delegateOf, type Listing } from "./token-roles.js";

/**
 * The shortest watch: a target whose slot stays put this long stands still. A Photon indexer
 * polls for the next block every 10 ms (src/ingester/fetchers/poller.rs:30) and Solana makes a
 * slot about every 400 ms, so a live one moves about five slots in it.
 */
export const WATCH_MS = 2000;

/**
 * Exact values of a list or of the chain: one account opened or spent changes them. Rule: on a
 * target that moved, none is stated (the slot, counts, the top holder and its balance).
 */
const EXACT_VALUES: readonly string[] = [
  "slot",
  "ownerWithManyAccounts.unspent",
  "memcmpOwner.unspent",
  "memcmpOwner.withData",
  "memcmpOwner.matching.count",
  "memcmpOwner.nonMatching.count",
  "tokenOwnerWithManyMints.mints",
  "tokenOwnerWithManyMints.unspent",
  "delegateWithManyAccounts.unspent",
  "delegateWithManyAccounts.mints",
  "mintWithManyHolders.holders",
  "mintWithManyHolders.zeroBalanceHolders",
  "mintWithManyHolders.topHolder",
];

/**
 * Roles chosen for an exact fact of their list (one account, a page and one, two mints): set aside
 * whole on a target that moved. Roles for lists longer than a page stay.
 */
const EXACT_ROLES: readonly string[] = ["ownerWith1000", "ownerWith1001", "ownerWithOneAccount", "delegatedMint"];

/** The slots a target's answers stated: the first and the last read, and whether any two differed. */
export class SlotWatch {
  private first: bigint | undefined;
  private last: bigint | undefined;
  private differed = false;
  /** The target, the slot of each of its answers noted (from the method table's slot path). */
  readonly target: Target;

  constructor(inner: Target, table: MethodTable) {
    this.target = {
      display: inner.display,
      call: async (method, params, signal) => {
        const exchange = await inner.call(method, params, signal);
        this.note(methodInfo(method, table), exchange);
        return exchange;
      },
    };
  }

  private note(info: MethodInfo | undefined, exchange: Exchange): void {
    const slot = isObject(exchange.body) ? slotOfResult(info, exchange.body.result) : undefined;
    const value = typeof slot === "bigint" ? slot : typeof slot === "number" && Number.isSafeInteger(slot) ? BigInt(slot) : undefined;
    if (value === undefined) return;
    if (this.first !== undefined && value !== this.first) this.differed = true;
    this.first ??= value;
    this.last = value;
  }

  /** Whether the target moved while watched; a target that stated no slot counts as moving (nothing says it stood still). */
  moved(): boolean {
    return this.differed || this.first === undefined;
  }

  /** The last slot seen, if any. */
  lastSlot(): bigint | undefined {
    return this.last;
  }

  /** The first and the last slot seen, as the profile states numbers (null when none was). */
  seen(): { fromSlot: Json; toSlot: Json } | null {
    if (this.first === undefined || this.last === undefined) return null;
    return { fromSlot: asJson(this.first), toSlot: asJson(this.last) };
  }
}

const asJson = (v: bigint): Json => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : (v as unknown as Json));

/**
 * Who can spend an account of the seed owner's list: for a token account (`token`), its token
 * owner and its delegate (token data: mint ‖ owner ‖ …); else the account's owner (`ownerPath`).
 */
export function actorsOf(item: Record<string, unknown>, token: boolean, ownerPath: string): string[] {
  if (token) {
    const data = dataOf(item);
    if (!data || data.length < 72) return [];
    const delegate = delegateOf(data);
    return [encodeBase58(data.subarray(32, 64)), ...(delegate === null ? [] : [delegate])];
  }
  const owner = getPath(item, ownerPath);
  return owner === ABSENT || typeof owner !== "string" ? [] : [owner];
}

/** The actors of every account that came or went between two reads of one list (by identity field `id`). */
export function activeActors(before: Listing, after: Listing, id: string, actors: (item: Record<string, unknown>) => string[]): Set<string> {
  const key = (item: Record<string, unknown>) => String(item[id]);
  const then = new Map(before.items.map((i) => [key(i), i]));
  const now = new Map(after.items.map((i) => [key(i), i]));
  const active = new Set<string>();
  for (const [k, item] of then) if (!now.has(k)) for (const a of actors(item)) active.add(a);
  for (const [k, item] of now) if (!then.has(k)) for (const a of actors(item)) active.add(a);
  return active;
}

/** Removes the value at dotted `path` from `profile` (in place) and returns it; undefined when absent. */
function take(profile: Record<string, Json>, path: string): Json | undefined {
  const steps = path.split(".");
  let node: unknown = profile;
  for (const step of steps.slice(0, -1)) node = isObject(node) && Object.hasOwn(node, step) ? node[step] : undefined;
  const last = steps.at(-1)!;
  if (!isObject(node) || !Object.hasOwn(node, last)) return undefined;
  const value = node[last] as Json;
  delete node[last];
  return value;
}

/**
 * Sets aside (under MAY_MOVE) the values `paths` names, plus, when the target moved, every exact
 * value and exact role the profile holds. Returns the profile.
 */
export function setAside(profile: Record<string, Json>, moved: boolean, paths: readonly string[]): Record<string, Json> {
  const aside: Record<string, Json> = {};
  // Whole roles first: a role set aside keeps its counts with it.
  for (const path of [...paths, ...(moved ? [...EXACT_ROLES, ...EXACT_VALUES] : [])]) {
    const value = take(profile, path);
    if (value !== undefined) aside[path] = value;
  }
  if (Object.keys(aside).length > 0) profile[MAY_MOVE] = aside;
  return profile;
}
