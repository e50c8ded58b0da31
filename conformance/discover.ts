/**
 * `--discover --seed-owner PUBKEY`: derives a fixtures profile from the target itself, for an
 * operator who knows nothing about the deployment's data. From the accounts the target lists
 * for a well-known owner (a program id), it collects hashes, addresses and memcmp prefixes;
 * when that owner is the compressed-token program, it decodes token data (mint ‖ owner ‖
 * amount, borsh) to find token owners and mints, then asks for their lists. Only keys whose
 * promises it has checked are written; cases needing other keys are skipped. On a target that
 * moves, only what stays true is stated; the rest is set aside under `mayMove` (discover/moving.ts).
 */
import { randomBytes } from "node:crypto";
import { decodeBase58, encodeBase58, isObject, type Json, type MethodInfo } from "@photon-indexer-kit/runtime";
import type { Target } from "./checks/check.js";
import { UsageError } from "./errors.js";
import { discoverSignatures, SIGNATURE_CALLS } from "./discover/signatures.js";
import { setAside, SlotWatch, WATCH_MS } from "./discover/moving.js";
import { SETTLE_CALLS, Settling } from "./discover/settle.js";
import { dataOf, delegateOf, discoverMerkleContext, discoverTokenRoles, list, type Listing } from "./discover/token-roles.js";
import { ABSENT, getPath } from "./matchers.js";
import type { Exchange } from "./results.js";
import { slotMethod, slotOfResult, specMethods, type MethodTable } from "./spec-facts.js";

/**
 * The calls discovery sends before its watch ends, and at its end; past either budget every call
 * answers nothing and discovery writes what it has (220 find calls at MAX_PAGES, plus SIGNATURE_CALLS).
 */
const FIND_CALLS = 220 + SIGNATURE_CALLS;
const WATCH_CALLS = 1 + SETTLE_CALLS;
/** The most calls one discovery sends (every list page and lookup counts). */
export const MAX_CALLS = FIND_CALLS + WATCH_CALLS;
/** Accounts with an address tried for knownHash's merkle context (4 lookups each). */
const MAX_CONTEXT_TRIES = 4;

/** The target, its calls counted: past `max`, a call is not sent and answers an exchange without a body. */
function budgeted(target: Target, max: number): Target {
  let calls = 0;
  return {
    display: target.display,
    call: (method, params, signal) =>
      ++calls > max
        ? Promise.resolve({ body: undefined, status: 0, error: "discovery call budget spent", parseError: null } as unknown as Exchange)
        : target.call(method, params, signal),
  };
}

/**
 * The lists discovery reads, by spec facts: `accounts` (by `owner`, items carrying it, `x-filters`),
 * `owned` (the other owner lists), among them `tokens` (filtering `owner` and `mint`) and `totals` (`x-sums`).
 */
export function discoveryLists(table: MethodTable = specMethods) {
  const byOwner = Object.values(table).filter((m) => m.pagination && m.requiredParams.length === 1 && m.requiredParams[0] === "owner");
  const accounts = byOwner.find((m) => m.filters.owner === "owner") ?? null;
  const owned = byOwner.filter((m) => m !== accounts);
  const tokens = owned.find((m) => m.filters.owner !== undefined && m.filters.mint !== undefined) ?? null;
  const totals = owned.find((m) => m.sums !== null && m.sums.method === tokens?.name) ?? null;
  return { accounts, owned, tokens, totals, slot: slotMethod(table) };
}

const randomKey = () => encodeBase58(randomBytes(32));

/** Memcmp cases over a complete list: the first account's 2-byte prefix, and a prefix nobody has. */
function memcmp(owner: string, accounts: readonly Record<string, unknown>[]): Json | undefined {
  const datas = accounts.map(dataOf);
  const first = datas.find((d): d is Buffer => d !== null && d.length >= 2);
  if (!first) return undefined;
  const count = (bytes: Buffer) => datas.filter((d) => d !== null && d.length >= bytes.length && d.subarray(0, bytes.length).equals(bytes)).length;
  const prefix = first.subarray(0, 2);
  let none = Buffer.from([0xff, 0xff, 0xff, 0xff]);
  for (let i = 0; count(none) > 0 && i < 256; i++) none = Buffer.from([0xff, 0xfe, i, 0x7f]);
  const matching = { offset: 0, bytes: encodeBase58(prefix), count: count(prefix) };
  const nonMatching = { offset: 0, bytes: encodeBase58(none), count: 0 };
  // No `filters` list: its entries have roles (a prefix and its extension, …) found only in the reference data.
  return { owner, unspent: accounts.length, withData: datas.filter(Boolean).length, matching, nonMatching };
}

/** What compressed-token account data shows: token owner → its mints, mint → accounts, delegate → accounts. */
function tokenData(accounts: readonly Record<string, unknown>[]) {
  const owners = new Map<string, Set<string>>();
  const mints = new Map<string, number>();
  const delegates = new Map<string, number>();
  for (const a of accounts) {
    const d = dataOf(a);
    if (!d || d.length < 72) continue;
    const mint = encodeBase58(d.subarray(0, 32));
    const owner = encodeBase58(d.subarray(32, 64));
    owners.set(owner, (owners.get(owner) ?? new Set()).add(mint));
    mints.set(mint, (mints.get(mint) ?? 0) + 1);
    const delegate = delegateOf(d);
    if (delegate !== null) delegates.set(delegate, (delegates.get(delegate) ?? 0) + 1);
  }
  return { owners, mints, delegates };
}

const MAX_CANDIDATES = 8;

/**
 * A token owner with several mints whose token accounts, balances and signatures each fit one
 * default page (as the cases read them), tried in order of mints seen; its own lists give the figures.
 */
async function tokenOwnerWithManyMints(target: Target, owners: Map<string, Set<string>>, table: MethodTable): Promise<Json | undefined> {
  const { owned, tokens, totals } = discoveryLists(table);
  if (!tokens || !totals) return undefined;
  const mintField = tokens.filters.mint!;
  const candidates = [...owners.entries()].filter(([, m]) => m.size > 1).sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1));
  for (const [owner] of candidates.slice(0, MAX_CANDIDATES)) {
    const lists = new Map<MethodInfo, Listing>();
    for (const m of owned) lists.set(m, await list(target, m, { owner }));
    const fits = (m: MethodInfo, l: Listing) => l.complete && l.items.length < (m.pagination?.defaultLimit ?? Infinity);
    const mints = [...new Set(lists.get(tokens)!.items.map((t) => String(getPath(t, mintField) === ABSENT ? "" : getPath(t, mintField))))].sort();
    if ([...lists].every(([m, l]) => fits(m, l)) && mints.length > 1) {
      return { owner, mints: lists.get(totals)!.items.length, mint: mints[0]!, unspent: lists.get(tokens)!.items.length };
    }
  }
  return undefined;
}

export interface DiscoverOptions {
  /** The shortest watch of the target, in ms (default WATCH_MS); the command's deadline does not shorten it. */
  readonly watchMs?: number;
}

/** The slot the target states (its slot method), or undefined. */
async function slotOf(target: Target, method: MethodInfo | null): Promise<Json | undefined> {
  if (!method) return undefined;
  const slot = await target.call(method.name, undefined);
  const value = isObject(slot.body) ? slotOfResult(method, slot.body.result) : undefined;
  return typeof value === "number" || typeof value === "bigint" ? value : undefined;
}

/**
 * Derives a fixtures profile from the target. The target is watched while discovery reads it (at
 * least `watchMs`, discover/moving.ts): when its slot moved, exact values and the accounts of
 * owners seen acting are set aside under `mayMove` instead of stated.
 */
export async function discoverFixtures(
  unbounded: Target,
  seedOwner: string,
  table: MethodTable = specMethods,
  options: DiscoverOptions = {},
): Promise<Record<string, Json>> {
  if (decodeBase58(seedOwner)?.length !== 32) throw new UsageError(`--seed-owner ${JSON.stringify(seedOwner)} is not a base58 public key`);
  const started = performance.now();
  const watch = new SlotWatch(unbounded, table);
  const target = budgeted(watch.target, FIND_CALLS);
  const profile: Record<string, Json> = {
    discoveredFrom: seedOwner,
    unknownHash: randomKey(),
    unknownAddress: randomKey(),
    ownerWithNoAccounts: randomKey(),
    tokenOwnerWithNoAccounts: randomKey(),
  };
  const lists = discoveryLists(table);
  const slot = await slotOf(target, lists.slot);
  if (slot !== undefined) profile.slot = slot;
  const seed = lists.accounts ? await fromSeedOwner(target, table, lists.accounts, seedOwner, profile) : null;

  const rest = (options.watchMs ?? WATCH_MS) - (performance.now() - started);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  const end = budgeted(watch.target, WATCH_CALLS);
  await slotOf(end, lists.slot);
  const moved = watch.moved();
  const aside: string[] = [];
  if (seed && lists.accounts) {
    const after = moved ? await list(end, lists.accounts, { owner: seedOwner }) : seed.accounts;
    const settling = new Settling(end, table, lists.accounts, seed.token, seed.accounts, after, moved ? (watch.lastSlot() ?? null) : undefined);
    await chooseKnown(target, table, lists.accounts.identity ?? "hash", seed.withAddress, settling, profile, aside);
    const opened = profile.tokenAccountOpened as { hash?: unknown } | undefined;
    const item = opened && seed.accounts.items.find((i) => i[lists.accounts!.identity ?? "hash"] === opened.hash);
    if (opened !== undefined && !(item && (await settling.settled(item)))) aside.push("tokenAccountOpened");
    const many = profile.tokenOwnerWithManyMints as { owner?: string } | undefined;
    if (typeof many?.owner === "string" && (await settling.acted(many.owner))) aside.push("tokenOwnerWithManyMints");
    // The memcmp cases read the seed owner's whole list: when it changed or its owner acted, its prefixes and pages move with it.
    if (profile.memcmpOwner !== undefined && (settling.changed || (await settling.acted(seedOwner)))) aside.push("memcmpOwner");
  }
  setAside(profile, moved, aside);
  const seen = watch.seen();
  if (seen) profile.watchedSlots = seen;
  return profile;
}

/**
 * knownHash and knownAddress: an account of the seed owner's with an address, settled; among the
 * first MAX_CONTEXT_TRIES of them, one whose merkle context checks as a V1 state tree's also gives
 * merkleContexts.knownHash. None settled: the first candidate is set aside (`aside`).
 */
async function chooseKnown(
  target: Target,
  table: MethodTable,
  id: string,
  withAddress: readonly Record<string, unknown>[],
  settling: Settling,
  profile: Record<string, Json>,
  aside: string[],
): Promise<void> {
  let first: Record<string, unknown> | undefined;
  let tries = 0;
  for (const a of withAddress) {
    if (tries >= MAX_CONTEXT_TRIES) break;
    if (!(await settling.settled(a))) continue;
    first ??= a;
    tries++;
    const context = await discoverMerkleContext(target, table, id, a.hash as string);
    if (context === undefined) continue;
    profile.knownHash = a.hash as string;
    profile.knownAddress = a.address as string;
    profile.merkleContexts = { knownHash: context };
    return;
  }
  const named = first ?? withAddress[0];
  if (!named) return;
  profile.knownHash = named.hash as string;
  profile.knownAddress = named.address as string;
  if (first === undefined) aside.push("knownHash", "knownAddress");
}

/** The seed owner's list and what it shows: counted roles, token roles, signature keys (into `profile`). */
async function fromSeedOwner(target: Target, table: MethodTable, method: MethodInfo, seedOwner: string, profile: Record<string, Json>) {
  const accounts = await list(target, method, { owner: seedOwner });
  // The profile's owners are named by the default page size: a full page, one more, a long list.
  const page = method.pagination?.defaultLimit ?? Infinity;
  const n = accounts.items.length;
  if (accounts.complete) {
    const one = { owner: seedOwner, unspent: n };
    if (n === page) profile.ownerWith1000 = one;
    if (n === page + 1) profile.ownerWith1001 = one;
    if (n === 1 && typeof accounts.items[0]!.hash === "string") profile.ownerWithOneAccount = { ...one, hash: accounts.items[0]!.hash };
    // The memcmp cases read the owner's whole list in one default page.
    const m = n < page ? memcmp(seedOwner, accounts.items) : undefined;
    if (m !== undefined) profile.memcmpOwner = m;
  }
  if (n > 2 * page) profile.ownerWithManyAccounts = accounts.complete ? { owner: seedOwner, unspent: n } : { owner: seedOwner };

  const seen = tokenData(accounts.items);
  const token = seen.owners.size > 0;
  if (token) {
    profile.tokenProgram = seedOwner;
    const many = await tokenOwnerWithManyMints(target, seen.owners, table);
    if (many) profile.tokenOwnerWithManyMints = many;
    Object.assign(profile, await discoverTokenRoles(target, table, seen.delegates, seen.mints));
  }
  Object.assign(profile, await discoverSignatures(target, table, method, seedOwner, token ? accounts.items : null));
  const withAddress = method.identity ? accounts.items.filter((a) => typeof a.address === "string" && typeof a.hash === "string") : [];
  return { accounts, token, withAddress };
}
