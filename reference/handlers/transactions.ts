/**
 * Transactions with their compression info (photon HEAD:src/api/method/get_transaction_with_compression_info.rs):
 * the compressed accounts a transaction closed (spent) and opened (created), each with its token
 * data when it is a compressed token account, in the V1 shape (`Account`) or the V2 shape
 * (`AccountV2`, closed ones as `ClosedAccountV2` with their nullifier and tx hash).
 *
 * Photon fetches the transaction from its Solana RPC node (encoding base64, commitment confirmed,
 * :26-32, 258-274), parses the compression events out of it for the opened accounts and reads the
 * closed ones from its index (:210-256, 341-395). The reference has no chain: the accounts come
 * from the dataset's transaction record (`SignatureRecord.opened`/`closed`), and `transaction` is
 * SYNTHETIC (see `syntheticTransaction`).
 */
import { encodeBase58, RpcCode, RpcError } from "@photon-indexer-kit/runtime";
import { Random } from "../random.js";
import { type SignatureRecord, TOKEN_PROGRAM, type TreeRecord } from "../records.js";
import type { TransactionView, TxAccount } from "../store.js";
import { ZERO_HASH } from "../trees/forest.js";
import { bytesOf, type Family, internalServerError, type Reference, toAccount, toAccountV2, toTokenData } from "./support.js";

/**
 * Light Protocol's programs (light-protocol js/stateless.js/src/constants.ts: `lightSystemProgram`,
 * `accountCompressionProgram`), as the synthetic transaction's invoked programs.
 */
const LIGHT_SYSTEM_PROGRAM = "SySTEM1eSU2p4BGQfQpimFEWWSC1XDFeun3Nqzz3rT7";
const ACCOUNT_COMPRESSION_PROGRAM = "compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq";
/** Solana's fee per signature (lamports) in the synthetic transaction's meta. */
const FEE_PER_SIGNATURE = 5000;

/** Solana's compact-u16 ("shortvec") length prefix. */
function shortVec(n: number): number[] {
  const out: number[] = [];
  let rest = n;
  for (;;) {
    const low = rest & 0x7f;
    rest >>>= 7;
    if (rest === 0) {
      out.push(low);
      return out;
    }
    out.push(low | 0x80);
  }
}

/**
 * SYNTHETIC: the reference has no chain, so it builds a deterministic, well-formed transaction from the
 * signature record, in Photon's pass-through shape (base64 legacy transaction, success `meta`, fee only).
 * It carries no compression events; `compressionInfo` comes from the records.
 */
function syntheticTransaction(ref: Reference, view: TransactionView): Record<string, unknown> {
  const s = view.signature;
  const rng = new Random(s.signature, "transaction");
  const payer = encodeBase58(rng.bytes(32));
  const touched = [...view.closed, ...view.opened];
  const writable: string[] = [];
  for (const { account } of touched) {
    const tree = ref.store.tree(account.tree);
    for (const key of [account.tree, tree?.queue]) if (key !== undefined && !writable.includes(key)) writable.push(key);
  }
  const invoked = touched.some((t) => t.token !== null) ? TOKEN_PROGRAM : LIGHT_SYSTEM_PROGRAM;
  const readonly = [...new Set([invoked, LIGHT_SYSTEM_PROGRAM, ACCOUNT_COMPRESSION_PROGRAM])];
  const keys = [payer, ...writable, ...readonly];
  const blockhash = new Random(s.slot, "blockhash").bytes(32);
  const instruction = [
    keys.indexOf(invoked),
    ...shortVec(keys.length - 1),
    ...keys.map((_, i) => i).filter((i) => i !== keys.indexOf(invoked)),
    ...shortVec(0),
  ];
  const message = Buffer.concat([
    Buffer.from([1, 0, readonly.length]),
    Buffer.from(shortVec(keys.length)),
    ...keys.map((k) => Buffer.from(bytesOf(k, "account key"))),
    Buffer.from(blockhash),
    Buffer.from([...shortVec(1), ...instruction]),
  ]);
  const wire = Buffer.concat([Buffer.from(shortVec(1)), Buffer.from(bytesOf(s.signature, "signature")), message]);
  const fee = FEE_PER_SIGNATURE;
  const payerBalance = 1_000_000_000 + rng.below(1_000_000_000);
  const rent = (key: string) => new Random(key, "rent").between(1_000_000, 4_000_000_000);
  const pre = [payerBalance, ...writable.map(rent), ...readonly.map(() => 1)];
  const post = [payerBalance - fee, ...pre.slice(1)];
  return {
    slot: s.slot,
    transaction: [wire.toString("base64"), "base64"],
    meta: {
      err: null,
      status: { Ok: null },
      fee,
      preBalances: pre,
      postBalances: post,
      innerInstructions: [],
      logMessages: [`Program ${invoked} invoke [1]`, `Program ${invoked} success`],
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: 50_000 + 30_000 * touched.length,
    },
    version: "legacy",
    blockTime: s.blockTime,
  };
}

/**
 * The transaction with this signature: none is -32000 `Internal server error` (error.rs:62-68; DECISIONS row 65);
 * a closed account that is not a spent account of the index is -32000 `Record Not Found: Account not found` (:192-208).
 */
function transactionOf(ref: Reference, signature: string): TransactionView {
  const view = ref.store.transaction(signature);
  if (view === null) throw internalServerError();
  if (view.closed.some(({ account }) => !account.spent)) throw new RpcError(RpcCode.CALL_EXECUTION_FAILED, "Record Not Found: Account not found");
  return view;
}

/** Token data when the account is a compressed token account (`parse_token_data`, account/v1.rs:40-55), else null. */
const tokenDataOf = ({ token }: TxAccount) => (token === null ? null : toTokenData(token));

/**
 * An opened account as Photon parses it from the event (ingester/parser/tx_event_parser.rs:82-154): created
 * in the transaction's slot, in the output queue exactly when its tree is batched (:129), whatever happened since.
 */
function asCreated(s: SignatureRecord, tree: TreeRecord | undefined): { slotCreated: number; proveByIndex: boolean } {
  return { slotCreated: s.slot, proveByIndex: tree?.type === "StateV2" };
}

export const transactionHandlers = ((ref) => {
  const { store, forest } = ref;
  return {
    /** V1 shapes: `{transaction, compressionInfo: {closedAccounts, openedAccounts}}`, each `{account, optionalTokenData}` (:41-63, 210-256). */
    getTransactionWithCompressionInfo(params) {
      const view = transactionOf(ref, params.signature);
      return {
        transaction: syntheticTransaction(ref, view),
        compressionInfo: {
          closedAccounts: view.closed.map((t) => ({ account: toAccount(t.account), optionalTokenData: tokenDataOf(t) })),
          openedAccounts: view.opened.map((t) => ({
            account: { ...toAccount(t.account), slotCreated: view.signature.slot },
            optionalTokenData: tokenDataOf(t),
          })),
        },
      };
    },
    /**
     * V2 shapes (:95-125, 333-395): closed accounts carry the `nullifier` and `txHash` their batched tree's
     * input queue recorded (ingester/persist/spend.rs:70-100), else 32 zero bytes (:374-375), as for every V1 tree.
     */
    getTransactionWithCompressionInfoV2(params) {
      const view = transactionOf(ref, params.signature);
      const s = view.signature;
      return {
        transaction: syntheticTransaction(ref, view),
        compressionInfo: {
          closedAccounts: view.closed.map((t) => {
            const batched = store.tree(t.account.tree)?.type === "StateV2";
            return {
              account: {
                account: toAccountV2(ref, t.account),
                nullifier: batched ? forest.nullifier(t.account) : ZERO_HASH,
                txHash: batched ? forest.transactionHash(s) : ZERO_HASH,
              },
              optionalTokenData: tokenDataOf(t),
            };
          }),
          openedAccounts: view.opened.map((t) => ({
            account: { ...toAccountV2(ref, t.account), ...asCreated(s, store.tree(t.account.tree)) },
            optionalTokenData: tokenDataOf(t),
          })),
        },
      };
    },
  };
}) satisfies Family;
