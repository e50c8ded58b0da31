/**
 * What one exchange can show about its own meaning, without further calls: derived from the
 * request's params. Used by `check` (captured traffic), where no case file states it.
 */
import type { Json } from "./case-format.js";

export interface DerivedExpectation {
  readonly every: Record<string, Json> | null;
  readonly semantics: readonly string[];
}

type Params = Record<string, Json>;

/** Every item carries the requested owner and/or mint at these paths. */
function filtered(p: Params, ownerPath: string | null, mintPath: string | null): DerivedExpectation {
  const every: Record<string, Json> = {};
  if (ownerPath && typeof p.owner === "string") every[ownerPath] = p.owner;
  if (mintPath && typeof p.mint === "string") every[mintPath] = p.mint;
  return { every: Object.keys(every).length > 0 ? every : null, semantics: [] };
}

const RULES: Readonly<Record<string, (p: Params) => DerivedExpectation>> = {
  getCompressedAccountsByOwner: (p) => filtered(p, "owner", null),
  getCompressedTokenAccountsByOwner: (p) => filtered(p, "tokenData.owner", "tokenData.mint"),
  getCompressedTokenBalancesByOwner: (p) => filtered(p, null, "mint"),
  getCompressedAccount: () => ({ every: null, semantics: ["lookup"] }),
  getMultipleCompressedAccounts: () => ({ every: null, semantics: ["input-order"] }),
};

export function deriveExpectation(method: string, params: Json | undefined): DerivedExpectation {
  const p = typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Params) : {};
  return RULES[method]?.(p) ?? { every: null, semantics: [] };
}
