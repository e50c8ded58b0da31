/**
 * Values for requests: real keys of the default dataset, broken base58, odd numbers, hostile JSON
 * values, params for every method and JSON-RPC envelopes.
 */
import fc from "fast-check";
import { methodNames, methods } from "../../../generated/index.js";
import type { MethodName } from "../../../generated/index.js";
import { encodeBase58 } from "../../../runtime/index.js";
import { profile, U64_MAX } from "./oracle.js";
import { emit, obj, raw, type Entry, type J } from "./wire.js";

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const b58char = fc.constantFrom(...B58.split(""));

export const SMALL_OWNERS = [
  profile.ownerWithOneAccount.owner,
  profile.ownerWithOnlySpentAccounts.owner,
  profile.ownerWithNoAccounts,
  profile.memcmpOwner.owner,
  profile.tokenOwnerWithManyMints.owner,
  profile.tokenOwnerWithOneAccount.owner,
  profile.ownerWithZeroBalance.owner,
  profile.tokenOwnerWithBigAmounts.owner,
  profile.tokenOwnerWithNoAccounts,
];
/** Owners whose default page is 1000 items (about 400 KB of answer): drawn rarely. */
const BIG_OWNERS = [
  profile.ownerWithManyAccounts.owner,
  profile.ownerWith1000.owner,
  profile.ownerWith1001.owner,
  profile.tokenOwnerWith1000TokenAccounts.owner,
  profile.tokenOwnerWith1001TokenAccounts.owner,
];
export const HASHES = [
  profile.knownHash,
  profile.spentHash,
  profile.unknownHash,
  profile.accountWithBigLamports.hash,
  profile.ownerWithOneAccount.hash,
  profile.tokenOwnerWithOneAccount.hash,
  profile.updatedAddress.hash,
  profile.updatedAddress.spentHash,
  profile.tokenAccountWithMaxAmount,
];
const ADDRESSES = [profile.knownAddress, profile.spentAddress, profile.unknownAddress, profile.updatedAddress.address];
const MINTS = [
  profile.tokenOwnerWithManyMints.mint,
  profile.tokenOwnerWith1000TokenAccounts.mint,
  profile.ownerWithZeroBalance.mint,
  profile.tokenOwnerWithBigAmounts.maxMint,
  profile.tokenOwnerWithBigAmounts.sumMint,
];
export const ALL_KEYS = [...SMALL_OWNERS, ...HASHES, ...ADDRESSES, ...MINTS];
/** Cursors returned by the server itself (filled in beforeAll). */
export const realCursors: string[] = [];

/** Numbers that JavaScript, serde and u64 disagree on. A few are not JSON at all. */
const ODD_NUMBERS = [
  "1e400",
  "-1e400",
  "1E400",
  "99999999999999999999999",
  "-99999999999999999999999",
  "18446744073709551615",
  "18446744073709551616",
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "1.5",
  "-1",
  "-0",
  "0.0",
  "-0.0",
  "1e-400",
  "1E+2",
  "1e2",
  "4294967296",
  "1000",
  "1001",
  "1000.0",
  "1e3",
  "123456789012345678901234567890.123",
  "0.1e1",
  "1.7976931348623157e308",
  "5e-324",
  "0",
  "1",
  "100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
];
const NOT_JSON_NUMBERS = ["00", "+1", ".5", "1.", "NaN", "Infinity", "-Infinity", "0x10", "1e", "--1", "1_000"];

export const oddNumber = fc.constantFrom(...ODD_NUMBERS).map(raw);
export const notJsonNumber = fc.constantFrom(...NOT_JSON_NUMBERS).map(raw);

const INTERESTING_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "then",
  "toJSON",
  "__defineGetter__",
  "isPrototypeOf",
  "jsonrpc",
  "id",
  "method",
  "params",
  "owner",
  "limit",
  "cursor",
  "hash",
  "hashes",
  "address",
  "addresses",
  "mint",
  "filters",
  "dataSlice",
  "memcmp",
  "offset",
  "bytes",
  "length",
  "",
  "\u0000",
  "é",
  "𝒳",
  "a".repeat(300),
];
const keyArb = fc.oneof(fc.constantFrom(...INTERESTING_KEYS), fc.string({ maxLength: 8 }));

const INTERESTING_STRINGS = [
  "",
  " ",
  "2.0",
  "2.00",
  "2",
  "1.0",
  "null",
  "\u0000",
  "\ud800",
  "\udfff",
  "💥",
  "\u2028",
  "a".repeat(1000),
  "getIndexerSlot ",
  "GETINDEXERSLOT",
];

const random32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => encodeBase58(b));
const knownKey = fc.constantFrom(...ALL_KEYS);

/** Invalid base58, wrong-length keys and other strings that are not a 32-byte key. */
export const badBase58: fc.Arbitrary<string> = fc.oneof(
  // Characters outside the alphabet, anywhere.
  fc
    .tuple(knownKey, fc.nat(43), fc.constantFrom("0", "O", "I", "l", "+", "/", "=", "-", "_", " ", "\t", "é", "💥", "\u0000", "\ud800"))
    .map(([k, at, c]) => k.slice(0, at) + c + k.slice(at + 1)),
  fc.string({ unit: fc.constantFrom(...`${B58}0OIl+/= -_é`.split("")), maxLength: 80 }),
  // Valid base58 of the wrong length (0..31 and 33..100 bytes).
  fc.oneof(fc.uint8Array({ maxLength: 31 }), fc.uint8Array({ minLength: 33, maxLength: 100 })).map((b) => encodeBase58(b)),
  // Leading '1's decode to zero bytes: 31 and 33 of them are the wrong length.
  fc.constantFrom(31, 33, 44, 45).map((n) => "1".repeat(n)),
  fc.tuple(knownKey, fc.constantFrom("pad", "trim", "twice", "lower", "upper", "chop", "space")).map(([k, how]) => {
    switch (how) {
      case "pad":
        return `${k}1`;
      case "trim":
        return k.slice(1);
      case "twice":
        return k + k;
      case "lower":
        return k.toLowerCase();
      case "upper":
        return k.toUpperCase();
      case "chop":
        return k.slice(0, 16);
      default:
        return ` ${k} `;
    }
  }),
  fc.string({ unit: b58char, minLength: 45, maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 50 }),
);

const scalar: fc.Arbitrary<J> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  oddNumber,
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(...INTERESTING_STRINGS),
  knownKey,
  badBase58,
);

export const hostile: fc.Arbitrary<J> = fc.letrec<{ value: J }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: "hostile" },
    { arbitrary: scalar, weight: 6 },
    { arbitrary: fc.array(tie("value"), { maxLength: 5 }), weight: 1 },
    { arbitrary: fc.array(fc.tuple(keyArb, tie("value")), { maxLength: 5 }).map((e): J => ({ $entries: e })), weight: 1 },
  ),
})).value;

export const limitArb: fc.Arbitrary<J> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 20 }), weight: 10 },
  { arbitrary: fc.integer({ min: 0, max: 1000 }), weight: 3 },
  { arbitrary: fc.constantFrom<J>(1000, 1001, -1, 1.5, "10", null, true, [], raw("1e400"), raw("18446744073709551615"), raw("1e2"), raw("10.0")), weight: 3 },
  { arbitrary: oddNumber, weight: 2 },
);

export const offsetArb: fc.Arbitrary<J> = fc.oneof(fc.integer({ min: 0, max: 64 }), oddNumber, fc.constantFrom<J>(-1, null, "0", 1.5, 2 ** 53, 2 ** 31));

const memcmpBytes: fc.Arbitrary<J> = fc.oneof(
  fc.constantFrom(...profile.memcmpOwner.filters.map((f) => f.bytes)),
  fc.uint8Array({ maxLength: 12 }).map((b) => encodeBase58(b)),
  badBase58.filter((s) => s.length <= 300),
  hostile,
);

const filterArb: fc.Arbitrary<J> = fc.oneof(
  { arbitrary: fc.tuple(offsetArb, memcmpBytes).map(([offset, bytes]) => obj(["memcmp", obj(["offset", offset], ["bytes", bytes])])), weight: 5 },
  { arbitrary: fc.constantFrom(...profile.memcmpOwner.filters).map((f) => obj(["memcmp", obj(["offset", f.offset], ["bytes", f.bytes])])), weight: 3 },
  { arbitrary: fc.constantFrom<J>(obj(["memcmp", null]), obj(), obj(["memcmp", obj()]), obj(["memcmp", obj(["offset", 0])]), null, "memcmp", []), weight: 2 },
  { arbitrary: fc.tuple(hostile, keyArb, hostile).map(([m, k, v]) => obj(["memcmp", m], [k, v])), weight: 2 },
);

const cursorArb: fc.Arbitrary<J> = fc.oneof(
  { arbitrary: fc.nat().map((i) => realCursors[i % Math.max(1, realCursors.length)] ?? ""), weight: 3 },
  {
    arbitrary: fc
      .constantFrom(32, 64, 72, 0, 1, 71, 73)
      .chain((n) => fc.uint8Array({ minLength: n, maxLength: n }))
      .map((b) => encodeBase58(b)),
    weight: 3,
  },
  { arbitrary: knownKey, weight: 2 },
  { arbitrary: badBase58, weight: 2 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: hostile, weight: 1 },
);

export const ownerArb: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...SMALL_OWNERS), weight: 12 },
  { arbitrary: random32, weight: 3 },
  { arbitrary: fc.constantFrom(...BIG_OWNERS), weight: 1 },
);

const keyList = (keys: readonly string[]) => fc.array(fc.oneof(fc.constantFrom(...keys), random32), { maxLength: 20 });

/** Plausible values per param name, so that many calls get past validation into the handlers. */
function goodValue(field: string): fc.Arbitrary<J> {
  switch (field) {
    case "owner":
      return ownerArb;
    case "hash":
      return fc.oneof(fc.constantFrom(...HASHES), random32, fc.constant(null));
    case "address":
      return fc.oneof(fc.constantFrom(...ADDRESSES), random32, fc.constant(null));
    case "hashes":
      return fc.oneof(keyList(HASHES), fc.constant(null));
    case "addresses":
      return fc.oneof(keyList(ADDRESSES), fc.constant(null));
    case "mint":
      return fc.oneof(fc.constantFrom(...MINTS), random32, fc.constant(null));
    case "cursor":
      return cursorArb;
    case "limit":
      return limitArb;
    case "filters":
      return fc.array(filterArb, { maxLength: 7 });
    case "dataSlice":
      return fc.oneof(
        fc.constant(null),
        fc.tuple(offsetArb, offsetArb).map(([offset, length]) => obj(["offset", offset], ["length", length])),
        hostile,
      );
    default:
      return hostile;
  }
}

/** `params` for one method of the method table: its own param names with good, bad and hostile values. */
export function paramsFor(name: MethodName): fc.Arbitrary<J | undefined> {
  const info = methods[name];
  const fields = [...info.requiredParams, ...info.optionalParams];
  const asObject = fc
    .tuple(
      fc.tuple(
        ...fields.map((f) =>
          fc.option(
            fc.oneof({ arbitrary: goodValue(f), weight: 12 }, { arbitrary: badBase58, weight: 1 }, { arbitrary: hostile, weight: 1 }).map((v): Entry => [f, v]),
            { freq: 4, nil: undefined }, // absent one time in 4
          ),
        ),
      ),
      rarely(fc.tuple(keyArb, hostile)),
      fc.boolean(),
    )
    .map(([entries, extra, reversed]): J => {
      const list = reversed ? [...entries].reverse() : entries;
      return obj(...list, extra);
    });
  return fc.oneof(
    { arbitrary: asObject, weight: 10 },
    { arbitrary: fc.constantFrom<J | undefined>(undefined, null, [], obj(), "params", 0), weight: 1 },
    { arbitrary: fc.array(hostile, { maxLength: 3 }), weight: 1 },
  );
}

/** The value one time in 8, else undefined. */
function rarely<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: arb, weight: 1 });
}

export const methodArb: fc.Arbitrary<MethodName> = fc.constantFrom(...methodNames);

const idArb: fc.Arbitrary<J | undefined> = fc.oneof(
  { arbitrary: fc.nat(), weight: 6 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 2 },
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: oddNumber, weight: 2 },
  { arbitrary: fc.bigInt({ min: 0n, max: U64_MAX }), weight: 1 },
  { arbitrary: fc.integer({ min: -1000, max: -1 }), weight: 1 },
  { arbitrary: fc.constantFrom<J>("test-account", "", "\ud800", "💥", true, false, [], obj(), [1], obj(["id", 1]), 1.5, -0), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 30 }), weight: 1 },
);

/** A full request object: mostly plausible calls of every method, with odd ids, versions and methods mixed in. */
export function envelope(odd: number): fc.Arbitrary<J> {
  const jsonrpc = fc.oneof(
    { arbitrary: fc.constant<J | undefined>("2.0"), weight: 20 },
    { arbitrary: fc.constantFrom<J | undefined>(undefined, "1.0", "2", 2, 2.0, null, " 2.0", "2.0 ", "2.00", []), weight: odd },
    { arbitrary: hostile, weight: odd },
  );
  const call = methodArb.chain((m) => fc.tuple(fc.constant<J>(m), paramsFor(m)));
  const other = fc.tuple(
    fc.oneof(
      fc.constantFrom<J>(
        "liveness",
        "readiness",
        "getIndexerHealth",
        "getCompressedBalance",
        "__proto__",
        "constructor",
        "toString",
        "hasOwnProperty",
        "",
        "getindexerslot",
        "getIndexerSlot\u0000",
      ),
      fc.string({ maxLength: 20 }),
      hostile,
    ),
    fc.option(hostile, { nil: undefined }),
  );
  return fc
    .tuple(jsonrpc, idArb, fc.oneof({ arbitrary: call, weight: 20 }, { arbitrary: other, weight: odd }), rarely(fc.tuple(keyArb, hostile)), fc.nat(5))
    .map(([v, id, [method, params], extra, order]) => {
      const entries: (Entry | undefined)[] = [
        v === undefined ? undefined : ["jsonrpc", v],
        id === undefined ? undefined : ["id", id],
        ["method", method],
        params === undefined ? undefined : ["params", params],
        extra,
      ];
      // Any key order is allowed; rotate it.
      return obj(...entries.slice(order), ...entries.slice(0, order));
    });
}

export const jsonBody = (v: J) => emit(v);
