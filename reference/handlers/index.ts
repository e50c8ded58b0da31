/**
 * The reference indexer's method handlers: Photon's behaviour as settled in spec/DECISIONS.md
 * (each row with Photon's file:line), over a ReferenceStore, one file per method family. Params
 * arrive validated by the generated listener, so only semantic rules are checked here. Each
 * handler receives its own method-table entry (`withFacts`), so none looks itself up by name.
 * The methods the spec documents but Photon 0.51.2 does not register (`x-registered: false`:
 * getAccountInterface, getMultipleAccountInterfaces) have no handler: the listener answers them
 * -32601 `Method not found`, as it answers any unknown method.
 */
import type { Handlers, MethodName } from "../../generated/index.js";
import { methods } from "../../generated/methods.js";
import type { CallContext, MethodInfo } from "@photon-indexer-kit/runtime";
import type { ReferenceStore } from "../store.js";
import { accountHandlers } from "./accounts.js";
import { indexerHandlers } from "./indexer.js";
import { signatureHandlers } from "./signatures.js";
import { Forest } from "../trees/forest.js";
import { balanceHandlers } from "./balances.js";
import { proofHandlers } from "./proofs.js";
import { queueHandlers } from "./queues.js";
import type { FactHandlers, HandlerOptions, Reference } from "./support.js";
import { transactionHandlers } from "./transactions.js";
import { validityHandlers } from "./validity.js";
import { tokenHandlers } from "./tokens.js";

export { MAX_ACCOUNTS_WITH_FILTERS } from "./accounts.js";

/**
 * The largest default page size of the spec's paginated methods (Photon's PAGE_LIMIT), read
 * from the method table (`x-default` on Limit). Kept for the package's API; the handlers read
 * each method's own figures.
 */
export const PAGE_LIMIT: number = Math.max(...Object.values(methods).map((m) => m.pagination?.defaultLimit ?? 0));

/** The listener's handlers: each implementation called with its method's table entry. */
function withFacts(impl: FactHandlers): Handlers {
  const out: Record<string, (params: unknown, call: CallContext) => unknown> = {};
  for (const name of Object.keys(impl) as MethodName[]) {
    const fn = impl[name] as (params: unknown, facts: MethodInfo, call: CallContext) => unknown;
    const facts: MethodInfo = methods[name];
    out[name] = (params, call) => fn(params, facts, call);
  }
  return out as unknown as Handlers;
}

export type { HandlerOptions } from "./support.js";

/**
 * Every method's handler over `store`, with the Merkle trees of its records (`forest`, built
 * lazily per tree on the first proof that needs it unless given).
 */
export function createReferenceHandlers(store: ReferenceStore, options: HandlerOptions = {}, forest = new Forest(store.dataset)): Handlers {
  const ref: Reference = { store, forest, options };
  return withFacts({
    ...accountHandlers(ref),
    ...tokenHandlers(ref),
    ...balanceHandlers(ref),
    ...signatureHandlers(ref),
    ...transactionHandlers(ref),
    ...proofHandlers(ref),
    ...validityHandlers(ref),
    ...queueHandlers(ref),
    ...indexerHandlers(ref),
  });
}
