/**
 * What the live stream must not move so that a fixtures profile stays true: the queues holding an account or
 * address the profile names (a batch would move them into their tree), and the owners whose lists it moves with
 * their counts kept (the role modules name them: `churnedRoles`).
 */
import type { AddressRecord } from "../records.js";
import { ProfileError } from "../roles/facts.js";
import { churnedRoles, type DatasetProfile, datasetProfile } from "../roles/index.js";
import type { ReferenceStore } from "../store.js";
import type { Pinned } from "./stream.js";

/** Every string in a profile (a JSON value), once. */
function strings(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === "string") out.add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** What `profile` pins in `store`; a null profile (a dataset without one) pins nothing. */
export function pinnedBy(profile: DatasetProfile | null, store: ReferenceStore): Pinned {
  const named = strings(profile);
  const stateQueues = new Set<string>();
  const addressQueues = new Set<string>();
  for (const text of named) {
    const account = store.account(text);
    if (account !== undefined && (account.inOutputQueue || account.inInputQueue)) stateQueues.add(account.tree);
  }
  const queued: AddressRecord[] = store.dataset.addresses.filter((a) => a.queued);
  for (const a of queued) if (named.has(a.address)) addressQueues.add(a.tree);
  const churned = profile === null ? { owners: [], tokenOwners: [] } : churnedRoles(profile);
  return { stateQueues, addressQueues, churn: { ...churned, named } };
}

/** What the profile of the store's dataset pins; nothing for a dataset without one (a hand-made file names no entity). */
export function pinnedFor(store: ReferenceStore): Pinned {
  try {
    return pinnedBy(datasetProfile(store.dataset), store);
  } catch (err) {
    if (err instanceof ProfileError) return pinnedBy(null, store);
    throw err;
  }
}
