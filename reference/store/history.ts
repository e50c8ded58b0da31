/**
 * Signature histories: `SignatureRecord.opened` and `.closed` are Photon's `account_transactions`
 * rows (photon HEAD:src/ingester/parser/tx_event_parser.rs:155-179), joined per query by account
 * hash, address (every version), owner or token owner, spent accounts included, DISTINCT over
 * transactions (HEAD:src/api/method/utils.rs:410-439, 483-537).
 */
import type { AccountRecord, SignatureRecord, TokenRecord } from "../records.js";
import { pushDistinct } from "./order.js";

/** What a history is keyed by, for one account of a transaction (null: not in that history). */
export type HistoryKey = (hash: string, account: AccountRecord | undefined, token: TokenRecord | undefined) => string | null;

/** The distinct transactions touching each key, in dataset order. */
export function histories(
  signatures: readonly SignatureRecord[],
  accountOf: (hash: string) => AccountRecord | undefined,
  tokenOf: (hash: string) => TokenRecord | undefined,
  keyOf: HistoryKey,
): Map<string, SignatureRecord[]> {
  const out = new Map<string, SignatureRecord[]>();
  const visit = (s: SignatureRecord, hash: string) => {
    const key = keyOf(hash, accountOf(hash), tokenOf(hash));
    if (key !== null) pushDistinct(out, key, s);
  };
  for (const s of signatures) {
    for (const hash of s.opened) visit(s, hash);
    for (const hash of s.closed) visit(s, hash);
  }
  return out;
}

export const keyByAccountHash: HistoryKey = (hash) => hash;
export const keyByAddress: HistoryKey = (_hash, account) => account?.address ?? null;
export const keyByProgramOwner: HistoryKey = (_hash, account) => account?.owner ?? null;
export const keyByTokenOwner: HistoryKey = (_hash, _account, token) => token?.owner ?? null;
