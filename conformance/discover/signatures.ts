/**
 * Discovery of `closedAccount` and `tokenAccountOpened`: accounts whose signatures and
 * transactions the target answers consistently. Methods are chosen by spec facts: `sigs`, the
 * unpaginated method whose one required param is the accounts' identity field (`hash`) and whose
 * items carry a signature identity; `tx`, the first method whose table entry says where its result lists
 * the accounts a transaction opened and closed (`transactionAccounts`, from `x-transaction-accounts`)
 * and whose one required param is that signature field; `owners`, the paginated signature lists taking just an `owner`. Every value read
 * from the target is type-checked before use; every loop is bounded (MAX_TX_READS, MAX_ACCOUNT_TRIES).
 */
import { decodeBase58, isObject, type Json, type MethodInfo, type TransactionAccountList } from "@photon-indexer-kit/runtime";
import type { Target } from "../checks/check.js";
import { getPath } from "../matchers.js";
import { pageOf, type MethodTable } from "../spec-facts.js";

/** Transactions read from the seed owner's first signatures page while looking for a closed account. */
export const MAX_TX_READS = 6;
/** Candidate accounts tried per key (each costs a signatures lookup and a transaction lookup). */
export const MAX_ACCOUNT_TRIES = 4;
/** Signature lists by owner read (their first page each). */
export const MAX_OWNER_LISTS = 2;
/** At most this many signatures of one page are looked at (a huge page is cut, not walked). */
const MAX_PAGE_ITEMS = 1000;

const isSignature = (v: unknown): v is string => typeof v === "string" && v.length <= 90 && decodeBase58(v)?.length === 64;

/** The signature methods discovery reads, by spec facts; null when the table lacks one. */
export function signatureMethods(table: MethodTable, hashField: string) {
  const all = Object.values(table);
  const sigs = all.find((m) => !m.pagination && m.identity !== null && m.requiredParams.length === 1 && m.requiredParams[0] === hashField);
  if (!sigs?.identity) return null;
  const sigField = sigs.identity;
  // The items field of the signature lists: the one the paginated lists with the same identity use.
  const itemsField = all.find((m) => m.pagination && m.identity === sigField)?.pagination?.items;
  const tx = all.find((m) => m.transactionAccounts && m.requiredParams.length === 1 && m.requiredParams[0] === sigField);
  // Every signature list taking just an `owner` (the table does not tell a program owner's from a token owner's: both are read).
  const owners = all
    .filter((m) => m.pagination && m.identity === sigField && m.requiredParams.length === 1 && m.requiredParams[0] === "owner")
    .slice(0, MAX_OWNER_LISTS);
  if (!itemsField || !tx?.transactionAccounts) return null;
  return { sigs, sigField, itemsField, tx, accounts: tx.transactionAccounts, owners };
}

type Facts = NonNullable<ReturnType<typeof signatureMethods>>;

/** The account hashes a transaction's list (`at`: the list's path and each entry's hash path, from the table) holds, in order; null when the answer is malformed. */
function hashesAt(result: unknown, at: TransactionAccountList): string[] | null {
  const list = getPath(result, at.list);
  if (!Array.isArray(list) || list.length > MAX_PAGE_ITEMS) return null;
  const out: string[] = [];
  for (const entry of list) {
    const hash = isObject(entry) ? getPath(entry, at.hash) : undefined;
    if (typeof hash !== "string") return null;
    out.push(hash);
  }
  return out;
}

/** A transaction's closed and opened account hashes, or null when the answer is not a well-formed one. */
async function transaction(target: Target, f: Facts, signature: string) {
  const exchange = await target.call(f.tx.name, { [f.sigField]: signature });
  const result = isObject(exchange.body) ? pageOf(f.tx, exchange.body.result) : undefined;
  if (!isObject(result)) return null;
  const closed = hashesAt(result, f.accounts.closed);
  const opened = hashesAt(result, f.accounts.opened);
  return closed && opened ? { closed, opened } : null;
}

/** The signatures the target lists for account `hash`, in its order, or null when malformed. */
async function signaturesOf(target: Target, f: Facts, hash: string): Promise<string[] | null> {
  const exchange = await target.call(f.sigs.name, { [f.sigs.requiredParams[0]!]: hash });
  const value = isObject(exchange.body) ? pageOf(f.sigs, exchange.body.result) : undefined;
  const items = isObject(value) ? value[f.itemsField] : undefined;
  if (!Array.isArray(items) || items.length > MAX_PAGE_ITEMS) return null;
  const sigs = items.map((i) => (isObject(i) ? i[f.sigField] : undefined));
  return sigs.every(isSignature) ? sigs : null;
}

/**
 * `closedAccount`: a spent account with exactly two signatures, newest first its closing (`closedBy`)
 * then opening (`openedBy`) transaction, from the seed owner's first signatures page (at most MAX_TX_READS).
 */
async function closedAccount(target: Target, f: Facts, seedOwner: string): Promise<Json | undefined> {
  const signatures: string[] = [];
  for (const m of f.owners) {
    const exchange = await target.call(m.name, { [m.requiredParams[0]!]: seedOwner });
    const value = isObject(exchange.body) ? pageOf(m, exchange.body.result) : undefined;
    const items = isObject(value) && m.pagination ? value[m.pagination.items] : undefined;
    if (!Array.isArray(items)) continue;
    for (const i of items.slice(0, MAX_PAGE_ITEMS)) {
      const signature = isObject(i) ? i[f.sigField] : undefined;
      if (isSignature(signature) && !signatures.includes(signature) && signatures.length < MAX_TX_READS) signatures.push(signature);
    }
  }
  let tries = 0;
  for (const closedBy of signatures) {
    const closing = await transaction(target, f, closedBy);
    for (const hash of closing?.closed ?? []) {
      if (tries++ >= MAX_ACCOUNT_TRIES) return undefined;
      const sigs = await signaturesOf(target, f, hash);
      if (sigs === null || sigs.length !== 2 || sigs[0] !== closedBy) continue;
      const opening = await transaction(target, f, sigs[1]!);
      if (opening?.opened.includes(hash) && !opening.closed.includes(hash)) return { hash, openedBy: sigs[1]!, closedBy };
    }
  }
  return undefined;
}

/**
 * `tokenAccountOpened`: an unspent account of the seed owner's list (`accounts`, the token
 * program's: each a token account) with exactly one signature, whose transaction opens it as its
 * first opened account and does not close it.
 */
async function tokenAccountOpened(target: Target, f: Facts, hashField: string, accounts: readonly Record<string, unknown>[]): Promise<Json | undefined> {
  const candidates = accounts.map((a) => a[hashField]).filter((h): h is string => typeof h === "string");
  for (const hash of candidates.slice(0, MAX_ACCOUNT_TRIES)) {
    const sigs = await signaturesOf(target, f, hash);
    if (sigs === null || sigs.length !== 1) continue;
    const opening = await transaction(target, f, sigs[0]!);
    if (opening && opening.opened[0] === hash && !opening.closed.includes(hash)) return { hash, openedBy: sigs[0]! };
  }
  return undefined;
}

/** The calls this module sends at most: an owner page per list, MAX_TX_READS transactions, 2 × MAX_ACCOUNT_TRIES per key. */
export const SIGNATURE_CALLS = MAX_OWNER_LISTS + MAX_TX_READS + 4 * MAX_ACCOUNT_TRIES;

/**
 * closedAccount (from the seed owner's signatures) and, when `tokenAccounts` is given (the seed
 * owner is the token program), tokenAccountOpened.
 */
export async function discoverSignatures(
  target: Target,
  table: MethodTable,
  accountsMethod: MethodInfo,
  seedOwner: string,
  tokenAccounts: readonly Record<string, unknown>[] | null,
): Promise<Record<string, Json>> {
  const out: Record<string, Json> = {};
  const hashField = accountsMethod.identity;
  const f = hashField ? signatureMethods(table, hashField) : null;
  if (!f || !hashField) return out;
  const closed = await closedAccount(target, f, seedOwner);
  if (closed !== undefined) out.closedAccount = closed;
  const opened = tokenAccounts ? await tokenAccountOpened(target, f, hashField, tokenAccounts) : undefined;
  if (opened !== undefined) out.tokenAccountOpened = opened;
  return out;
}
