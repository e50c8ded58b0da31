/**
 * Shared fixture of the reference tests: the default generated dataset (seed 1, 20,000
 * accounts), its profile, store and handlers, plus a `call` that checks params and result
 * against the generated validators, and an independent oracle for the documented orders
 * (it compares decoded bytes with Buffer.compare, not the store's base58 comparison).
 */
import { expect } from "vitest";
import type { Handlers, MethodName, Params, Result } from "../../generated/index.js";
import { methodValidators } from "../../generated/index.js";
import { decodeBase58, RpcError, validate } from "../../runtime/index.js";
import type { CallContext } from "../../runtime/index.js";
import { createReferenceHandlers } from "../../reference/handlers/index.js";
import { datasetProfile, generateDataset } from "../../reference/dataset.js";
import { ReferenceStore } from "../../reference/store.js";
import type { AccountRecord, Dataset } from "../../reference/records.js";

export const dataset: Dataset = generateDataset();
export const profile = datasetProfile(dataset);
export const store = new ReferenceStore(dataset);
export const handlers: Handlers = createReferenceHandlers(store);

const ctx = {} as CallContext;

/** Calls a handler with spec-valid params and returns its spec-valid result. */
export function call<M extends MethodName>(method: M, params: Params<M>): Result<M> {
  if (params !== undefined) expect(validate(methodValidators[method].params, params), `params of ${method}`).toEqual([]);
  const handler = handlers[method] as (p: Params<M>, c: CallContext) => Result<M>;
  const result = handler(params, ctx);
  expect(validate(methodValidators[method].result, result), `result of ${method}`).toEqual([]);
  return result;
}

/** The RpcError a call throws. */
export function callError<M extends MethodName>(method: M, params: Params<M>): RpcError {
  try {
    call(method, params);
  } catch (err) {
    if (err instanceof RpcError) return err;
    throw err;
  }
  throw new Error(`${method} did not fail`);
}

type Paged =
  | "getCompressedAccountsByOwner"
  | "getCompressedTokenAccountsByOwner"
  | "getCompressedTokenBalancesByOwner"
  | "getCompressionSignaturesForTokenOwner";

/** Pages through a list method with `limit`, returning every item and the number of calls. */
export function walk<M extends Paged>(method: M, params: Params<M>, limit?: number): { items: unknown[]; pages: number } {
  const items: unknown[] = [];
  let cursor: string | null = null;
  for (let pages = 1; pages < 20_000; pages++) {
    const p = { ...params, ...(limit === undefined ? {} : { limit }), ...(cursor === null ? {} : { cursor }) } as Params<M>;
    const value = (call(method, p) as { value: Record<string, unknown> }).value;
    const page = (method === "getCompressedTokenBalancesByOwner" ? value.token_balances : value.items) as unknown[];
    if (limit !== undefined) expect(page.length).toBeLessThanOrEqual(limit);
    items.push(...page);
    cursor = value.cursor as string | null;
    if (cursor === null) return { items, pages };
  }
  throw new Error("pagination did not end");
}

export const bytes = (base58: string): Buffer => Buffer.from(decodeBase58(base58) as Uint8Array);
export const byteOrder = (a: string, b: string): number => Buffer.compare(bytes(a), bytes(b));

/** The oracle for getCompressedAccountsByOwner: unspent accounts of `owner` by (leafIndex, hash bytes). */
export function expectedOwnerAccounts(owner: string): AccountRecord[] {
  return dataset.accounts.filter((a) => !a.spent && a.owner === owner).sort((a, b) => a.leafIndex - b.leafIndex || byteOrder(a.hash, b.hash));
}

/** The fields of the wire `Account` (spec's Account schema), in the order Photon sends them. */
export type WireAccount = Pick<AccountRecord, "hash" | "address" | "data" | "owner" | "lamports" | "tree" | "leafIndex" | "seq" | "slotCreated">;

/**
 * The wire form of an account record: the Account fields only, picked by name, so the record's own
 * bookkeeping (`spent`, `inInputQueue`, `inOutputQueue`, and any field added later) never reaches it.
 */
export function wire(a: AccountRecord): WireAccount {
  const { hash, address, data, owner, lamports, tree, leafIndex, seq, slotCreated } = a;
  return { hash, address, data, owner, lamports, tree, leafIndex, seq, slotCreated };
}
