/**
 * The formats of a fixtures profile's fields, checked when the profile is read, so a value no
 * deployment can hold (`"owner": "x"`) is refused with its JSON pointer instead of reaching the
 * target as a case's params. The field's name says its format, wherever it sits: account keys
 * (owners, mints, trees…) and hashes are base58 of 32 bytes; transaction signatures base58 of
 * 64 bytes; memcmp `bytes` base58; every number a non-negative integer (a count, a slot, an
 * amount). Fields of other names are not checked.
 */
import { decodeBase58, isObject, type Json } from "@photon-indexer-kit/runtime";

/** Fields holding a public key or a 32-byte hash (a string, or a list of them). */
const KEY_FIELDS: ReadonlySet<string> = new Set([
  "address",
  "addressTree",
  "addressV1",
  "addressV2",
  "delegate",
  "discoveredFrom",
  "hash",
  "hashes",
  "inInputQueue",
  "inOutputQueue",
  "inTree",
  "knownAddress",
  "knownHash",
  "maxMint",
  "mint",
  "nullified",
  "owner",
  "ownerWithNoAccounts",
  "queue",
  "queuedAddress",
  "spentAddress",
  "spentHash",
  "stateTree",
  "stateV1",
  "stateV2",
  "sumMint",
  "tokenAccountWithMaxAmount",
  "tokenOwnerWithNoAccounts",
  "tokenProgram",
  "tree",
  "unknownAddress",
  "unknownHash",
  "zeroAmountMint",
]);

/** Fields holding a transaction signature; `signatures` holds one, or is a count. */
const SIGNATURE_FIELDS: ReadonlySet<string> = new Set(["closedBy", "openedBy", "signature"]);

/** Problems reported in the one line; past this, "and N more". */
const MAX_SHOWN = 3;

const pointer = (path: readonly (string | number)[]) => `/${path.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
const shown = (v: unknown) =>
  typeof v === "string" ? JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v) : typeof v === "bigint" ? String(v) : JSON.stringify(v);

/** What is wrong with `value` at a field named `name`, or null. */
function problem(name: string, value: Json): string | null {
  const base58 = (bytes?: number) => {
    const decoded = typeof value === "string" ? decodeBase58(value) : undefined;
    return decoded !== undefined && (bytes === undefined || decoded.length === bytes);
  };
  if (KEY_FIELDS.has(name)) return base58(32) ? null : "must be a base58 public key or hash (32 bytes)";
  if (SIGNATURE_FIELDS.has(name) || (name === "signatures" && typeof value === "string")) {
    return base58(64) ? null : "must be a base58 transaction signature (64 bytes)";
  }
  if (name === "bytes") return base58() ? null : "must be base58";
  if (typeof value === "bigint") return value >= 0n ? null : "must be a non-negative integer";
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? null : "must be a non-negative integer";
  return null;
}

/** Each field of `profile` whose format is wrong, as `/pointer: "value" must be …`; none when it is sound. */
export function fixturesProblems(profile: Readonly<Record<string, Json>>): string[] {
  const found: string[] = [];
  // Iterative (a profile is data from a file): a stack of [value, path, field name].
  const stack: [Json, (string | number)[], string][] = Object.entries(profile)
    .reverse()
    .map(([k, v]) => [v, [k], k]);
  while (stack.length > 0) {
    const [value, path, name] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i]!, [...path, i], name]);
    } else if (isObject(value)) {
      for (const [k, v] of Object.entries(value).reverse()) stack.push([v as Json, [...path, k], k]);
    } else if (value !== null && typeof value !== "boolean") {
      const why = problem(name, value);
      if (why) found.push(`${pointer(path)}: ${shown(value)} ${why}`);
    }
  }
  return found;
}

/** The one line naming a profile's format problems (the first few, then how many more). */
export function fixturesProblemLine(problems: readonly string[]): string {
  const more = problems.length > MAX_SHOWN ? `; and ${problems.length - MAX_SHOWN} more` : "";
  return `invalid fixtures profile: ${problems.slice(0, MAX_SHOWN).join("; ")}${more}`;
}
