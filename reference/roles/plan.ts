/** The generator's plan of one role entity: the accounts and token accounts it must hold, and how to write them. */
import type { Placement } from "../dataset-trees.js";
import type { TokenState, U64 } from "../records.js";
import type { Key } from "./keys.js";

/** One planned account of a role entity. */
export interface RoleAccount {
  kind: "account";
  owner: Key;
  spent: boolean;
  /** Two unspent accounts with the same leafIndex in the two v1 trees. */
  tie?: boolean;
  address?: boolean;
  /** Explicit data bytes, `null` for no data, undefined for the owner's random style. */
  data?: number[] | null;
  discriminator?: U64;
  lamports?: U64;
  /** Where the account is placed; default any state tree. */
  tree?: Placement;
  /** "early": before the late part of the timeline; "tail": at its very end (late). */
  when?: "early" | "tail";
  /** The last step of the timeline (newest leaf of bmt1, in its output queue). */
  last?: boolean;
  /** When a spent account is closed: "early" before the late part, "late" in the last slot; default a random later slot. */
  close?: "early" | "late";
  /** Versions of one address: the first entry of a chain opens it, each later one updates it. */
  chain?: string;
}

/** One planned token account of a role entity. */
export interface RoleToken {
  kind: "token";
  owner: Key;
  mint: Key;
  amount?: U64;
  /** A random amount that is never 0 (so the (owner, mint) pair has a balance row: roles/tokens.ts). */
  positive?: boolean;
  spent: boolean;
  /** Spent in the dataset's last slot (many signatures share that slot). */
  spentLast?: boolean;
  /** A given delegate, or whether to pick a random one. */
  delegate?: boolean | Key;
  tlv?: boolean;
  state?: TokenState;
  when?: undefined;
}

export type RoleEntry = RoleAccount | RoleToken;

export function repeat<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

export function account(owner: Key, spent: boolean, extra: Partial<RoleAccount> = {}): RoleAccount {
  return { kind: "account", owner, spent, ...extra };
}

export function token(owner: Key, mint: Key, spent: boolean, extra: Partial<RoleToken> = {}): RoleToken {
  return { kind: "token", owner, mint, spent, ...extra };
}
