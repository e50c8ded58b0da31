/** The request families the fuzzing sends, one arbitrary per category. */
import fc from "fast-check";
import { JSON_CONTENT_TYPES, profile } from "./oracle.js";
import {
  ALL_KEYS,
  badBase58,
  envelope,
  HASHES,
  hostile,
  jsonBody,
  limitArb,
  methodArb,
  notJsonNumber,
  oddNumber,
  offsetArb,
  ownerArb,
  paramsFor,
  SMALL_OWNERS,
} from "./values.js";
import { obj, raw, req, type Entry, type J, type Obj, type Req } from "./wire.js";
/** Bad JSON: not JSON, truncated or mutated JSON, invalid UTF-8, scalars, whitespace and BOMs. */
const garbageReq: fc.Arbitrary<Req> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }).map((s) => req("bad JSON", s)),
  fc.uint8Array({ maxLength: 300 }).map((b) => req("bad JSON", b)),
  fc
    .tuple(fc.constantFrom("{", "[", " {", "\n[", '{"jsonrpc":"2.0","id":1,"method":"'), fc.uint8Array({ maxLength: 100 }))
    .map(([p, b]) => req("bad JSON", Buffer.concat([Buffer.from(p), b]))),
  fc.tuple(envelope(1), fc.nat()).map(([e, cut]) => {
    const text = jsonBody(e);
    return req("bad JSON", text.slice(0, cut % Math.max(1, text.length)));
  }),
  fc.tuple(envelope(1), fc.nat(), fc.constantFrom(",", "}", "]", "{", "[", '"', ":", "\\", "'", "\u0000", "/*x*/", "\n", "x")).map(([e, at, c]) => {
    const text = jsonBody(e);
    const i = at % (text.length + 1);
    return req("bad JSON", text.slice(0, i) + c + text.slice(i));
  }),
  fc.tuple(envelope(1), fc.constantFrom([0xc3, 0x28], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xff], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82])).map(([e, bad]) => {
    // Invalid UTF-8 inside a JSON string of an otherwise valid request.
    const text = jsonBody(e);
    const at = text.indexOf('"method":"') + 10;
    return req("bad JSON", Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bad), Buffer.from(text.slice(at))]));
  }),
  fc
    .constantFrom(
      "",
      " ",
      "\r\n\t",
      "\f{}",
      "\f[]",
      "\u000b{}",
      "\ufeff{}",
      "\ufeff[]",
      "1",
      "-1",
      '"x"',
      "null",
      "true",
      "false",
      "{}",
      "[]",
      "[[]]",
      "[1,2,3]",
      "{}{}",
      "[]]",
      '{"jsonrpc":"2.0",}',
      "{'jsonrpc':'2.0'}",
      '{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"} x',
      '{"jsonrpc":"2.0","id":NaN,"method":"getIndexerSlot"}',
      '{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot","id":2}',
      '{"jsonrpc":"2.0","id":1,"id":12345678901234567890,"method":"getIndexerSlot"}',
      "\u0000{}",
      "{\u0000}",
      "[,]",
      "[1,]",
      '{"a":"\\ud800"}',
      '{"a":"\\u12"}',
      '{"a":"\\x41"}',
      '{"a":"\t"}',
    )
    .map((s) => req("bad JSON", s)),
  fc.tuple(envelope(1), notJsonNumber).map(([e, n]) => req("bad JSON", jsonBody(e).replace(/"id":[^,}]*/, `"id":${n.$raw}`))),
);

/** Huge and odd numbers as ids and in every numeric param. */
const numbersReq: fc.Arbitrary<Req> = fc
  .tuple(
    fc.oneof(oddNumber, fc.nat(), fc.constant(undefined)),
    fc.constantFrom(
      "getCompressedAccountsByOwner",
      "getCompressedTokenAccountsByOwner",
      "getCompressedTokenBalancesByOwner",
      "getCompressionSignaturesForTokenOwner",
      "getIndexerSlot",
      "getMultipleCompressedAccounts",
    ),
    ownerArb,
    fc.oneof(oddNumber, limitArb),
    offsetArb,
    offsetArb,
    fc.oneof(oddNumber, fc.nat(10)),
    fc.boolean(),
  )
  .map(([id, method, owner, limit, offset, length, memOffset, odd]) => {
    let params: J;
    if (method === "getCompressedAccountsByOwner") {
      params = obj(
        ["owner", owner],
        ["limit", limit],
        ["dataSlice", obj(["offset", offset], ["length", length])],
        ["filters", [obj(["memcmp", obj(["offset", memOffset], ["bytes", profile.memcmpOwner.matching.bytes])])]],
      );
    } else if (method === "getMultipleCompressedAccounts") {
      params = obj(["hashes", [limit, offset, profile.knownHash]]);
    } else if (method === "getIndexerSlot") {
      params = obj(["limit", limit]);
    } else {
      params = obj(["owner", owner], ["limit", limit]);
    }
    const e = obj(["jsonrpc", odd ? raw("2.0") : "2.0"], id === undefined ? undefined : ["id", id], ["method", odd ? limit : method], ["params", params]);
    return req("huge numbers", jsonBody(e));
  });

/** `__proto__`, `constructor` and friends as envelope keys, params keys and method names, on both JSON parsers. */
const protoReq: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "isPrototypeOf"),
    fc.constantFrom("envelope-inner", "envelope-outer", "params", "params-nested", "method", "filter", "batch"),
    methodArb,
    ownerArb,
    fc.nat(1000),
    fc.boolean(),
  )
  .map(([key, where, method, owner, id, lossless]) => {
    const inner = obj(["jsonrpc", "2.0"], ["method", "getIndexerSlot"], ["id", id], ["params", obj(["owner", owner])]);
    let e: J;
    switch (where) {
      case "envelope-inner":
        e = obj([key, inner]);
        break;
      case "envelope-outer":
        e = obj(
          ["jsonrpc", "2.0"],
          ["id", id],
          ["method", method],
          ["params", obj(["owner", owner])],
          [key, obj(["jsonrpc", "1.0"], ["method", 5], ["id", obj()], ["polluted", true])],
        );
        break;
      case "params":
        e = obj(["jsonrpc", "2.0"], ["id", id], ["method", method], ["params", obj([key, obj(["owner", owner], ["limit", 5000], ["polluted", true])])]);
        break;
      case "params-nested":
        e = obj(["jsonrpc", "2.0"], ["id", id], ["method", method], ["params", obj(["owner", owner], [key, obj(["prototype", obj(["polluted", true])])])]);
        break;
      case "method":
        e = obj(["jsonrpc", "2.0"], ["id", id], ["method", key], ["params", obj([key, obj(["polluted", true])])]);
        break;
      case "filter":
        e = obj(
          ["jsonrpc", "2.0"],
          ["id", id],
          ["method", "getCompressedAccountsByOwner"],
          ["params", obj(["owner", owner], ["filters", [obj([key, obj(["memcmp", null])], ["memcmp", obj(["offset", 0], ["bytes", "2VfUX"])])]])],
        );
        break;
      default:
        e = [obj([key, inner]), inner, obj(["jsonrpc", "2.0"], ["method", key], ["id", id])];
    }
    // A 16-digit run anywhere sends the whole body through lossless-json instead of JSON.parse.
    const text = jsonBody(e);
    return req(
      "__proto__ keys",
      lossless ? text.replace(/^(\s*[[{])/, '$1"pad":12345678901234567890,').replace(/^\["pad":12345678901234567890,/, "[12345678901234567890,") : text,
    );
  });

/** Deep nesting (up to 50,000 levels) at the root and inside every part of a request. */
const deepReq: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom("root", "id", "params", "method", "jsonrpc", "owner", "filters", "hashes", "batch element"),
    fc.constantFrom("array", "object", "mixed"),
    fc.boolean(),
    fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, { arbitrary: fc.constant(false), weight: 1 }),
    fc.integer({ min: 1000, max: 5000 }),
    fc.integer({ min: 15_000, max: 50_000 }),
    fc.boolean(),
  )
  .map(([where, shape, bigNumber, closed, small, large, useLarge]) => {
    // lossless-json (used when a 16-digit run occurs) recurses: it overflows somewhere between
    // 8,000 and 10,000 levels, so its depths stay clear of that band (either way is fine, but
    // the oracle parses here, on another stack).
    const depth = useLarge ? large : small;
    const open = shape === "array" ? "[" : shape === "object" ? '{"a":' : '[{"a":';
    const close = shape === "array" ? "]" : shape === "object" ? "}" : "}]";
    const levels = shape === "mixed" ? Math.floor(depth / 2) : depth;
    const inner = bigNumber ? "12345678901234567890" : "1";
    const nest = open.repeat(levels) + inner + (closed ? close.repeat(levels) : "");
    const call = (k: string) =>
      `{"jsonrpc":"2.0","id":7,"method":"getCompressedAccountsByOwner","params":{"owner":"${profile.memcmpOwner.owner}","${k}":${nest}}}`;
    let body: string;
    switch (where) {
      case "root":
        body = nest;
        break;
      case "id":
        body = `{"jsonrpc":"2.0","method":"getIndexerSlot","id":${nest}}`;
        break;
      case "params":
        body = `{"jsonrpc":"2.0","id":1,"method":"getCompressedAccount","params":${nest}}`;
        break;
      case "method":
        body = `{"jsonrpc":"2.0","id":2,"method":${nest}}`;
        break;
      case "jsonrpc":
        body = `{"jsonrpc":${nest},"id":3,"method":"getIndexerSlot"}`;
        break;
      case "owner":
        body = `{"jsonrpc":"2.0","id":4,"method":"getCompressedTokenBalancesByOwner","params":{"owner":${nest}}}`;
        break;
      case "filters":
        body = call("filters");
        break;
      case "hashes":
        body = `{"jsonrpc":"2.0","id":5,"method":"getMultipleCompressedAccounts","params":{"hashes":["${profile.knownHash}",${nest}]}}`;
        break;
      default:
        body = `[{"jsonrpc":"2.0","id":6,"method":"getIndexerSlot"},${nest},${call("dataSlice")}]`;
    }
    return req("deep nesting", body);
  });

/** Keys that are not valid base58 or not 32 bytes, in every key-taking param. */
const base58Req: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom(
      "getCompressedAccount.hash",
      "getCompressedAccount.address",
      "getMultipleCompressedAccounts.hashes",
      "getMultipleCompressedAccounts.addresses",
      "getCompressedAccountsByOwner.owner",
      "getCompressedAccountsByOwner.cursor",
      "getCompressedAccountsByOwner.memcmp",
      "getCompressedTokenAccountsByOwner.owner",
      "getCompressedTokenAccountsByOwner.mint",
      "getCompressedTokenAccountsByOwner.cursor",
      "getCompressedTokenBalancesByOwner.owner",
      "getCompressedTokenBalancesByOwner.mint",
      "getCompressedTokenBalancesByOwner.cursor",
      "getCompressionSignaturesForTokenOwner.owner",
      "getCompressionSignaturesForTokenOwner.cursor",
    ),
    badBase58,
    fc.nat(1000),
    fc.constantFrom(...SMALL_OWNERS),
  )
  .map(([target, bad, id, owner]) => {
    const [method, field] = target.split(".") as [string, string];
    let params: Obj;
    if (field === "hashes" || field === "addresses") params = obj([field, [...HASHES.slice(0, id % 4), bad, profile.knownHash]]);
    else if (field === "memcmp") params = obj(["owner", profile.memcmpOwner.owner], ["filters", [obj(["memcmp", obj(["offset", id % 9], ["bytes", bad])])]]);
    else if (field === "owner" || method === "getCompressedAccount") params = obj([field, bad], ["limit", 3]);
    else params = obj(["owner", owner], [field, bad], ["limit", 3]);
    return req("invalid base58", jsonBody(obj(["jsonrpc", "2.0"], ["id", id], ["method", method], ["params", params])));
  });

/** Oversized arrays: 1001+ keys, 6+ filters, batches of 1001+ requests, thousands of unknown keys, huge ids and method names. */
const oversizedReq: fc.Arbitrary<Req> = fc
  .tuple(
    fc.constantFrom("hashes", "addresses", "hashes+bad", "both", "filters", "batch", "keys", "long id", "long method", "long owner"),
    fc.integer({ min: 1001, max: 5000 }),
    fc.nat(),
  )
  .map(([kind, count, seed]) => {
    const pick = (k: number) => ALL_KEYS[(seed + k) % ALL_KEYS.length]!;
    const keys = Array.from({ length: count }, (_, k) => pick(k));
    const call = (method: string, params: J) => obj(["jsonrpc", "2.0"], ["id", seed % 1000], ["method", method], ["params", params]);
    let e: J;
    switch (kind) {
      case "hashes":
      case "addresses":
        e = call("getMultipleCompressedAccounts", obj([kind, keys]));
        break;
      case "hashes+bad":
        keys[seed % count] = "0OIl";
        e = call("getMultipleCompressedAccounts", obj(["hashes", keys]));
        break;
      case "both":
        e = call("getMultipleCompressedAccounts", obj(["hashes", keys], ["addresses", keys.slice(0, 1001)]));
        break;
      case "filters":
        e = call(
          "getCompressedAccountsByOwner",
          obj(
            ["owner", profile.memcmpOwner.owner],
            ["filters", keys.slice(0, 6 + (seed % 2000)).map((_, k) => obj(["memcmp", obj(["offset", k % 8], ["bytes", "2VfUX"])]))],
          ),
        );
        break;
      case "batch":
        e = keys.map(
          (_, k): J =>
            k % 7 === 0
              ? obj(["jsonrpc", "2.0"], ["method", "getIndexerSlot"])
              : k % 11 === 0
                ? k
                : obj(["jsonrpc", "2.0"], ["id", k], ["method", k % 5 === 0 ? "nope" : "getIndexerSlot"]),
        );
        break;
      case "keys":
        e = call("getCompressedAccount", obj(["hash", profile.knownHash], ...Array.from({ length: count * 2 }, (_, k): Entry => [`k${k}`, k])));
        break;
      case "long id":
        e = obj(["jsonrpc", "2.0"], ["id", "x".repeat(count * 200)], ["method", "getIndexerSlot"]);
        break;
      case "long method":
        e = obj(["jsonrpc", "2.0"], ["id", 1], ["method", "m".repeat(count * 200)]);
        break;
      default:
        e = call("getCompressedTokenBalancesByOwner", obj(["owner", "z".repeat(count * 100)]));
    }
    return req("oversized arrays", jsonBody(e));
  });

/** Random params for every method of the method table. */
const paramsReq: fc.Arbitrary<Req> = methodArb
  .chain((m) => fc.tuple(fc.constant(m), paramsFor(m), fc.nat()))
  .map(([method, params, id]) =>
    req("random params", jsonBody(obj(["jsonrpc", "2.0"], ["id", id], ["method", method], params === undefined ? undefined : ["params", params]))),
  );

/** Odd ids, versions and methods, notifications. */
const envelopeReq: fc.Arbitrary<Req> = envelope(4).map((e) => req("odd envelopes and ids", jsonBody(e)));

/** Content types, paths and query strings (POST on any path is JSON-RPC; only the content type matters). */
const httpReq: fc.Arbitrary<Req> = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom(...JSON_CONTENT_TYPES), weight: 3 },
      { arbitrary: fc.mixedCase(fc.constantFrom(...JSON_CONTENT_TYPES)), weight: 2 },
      {
        arbitrary: fc.constantFrom<string | undefined>(
          undefined,
          "",
          "text/plain",
          "application/json-rpc",
          "application/jsonx",
          "application/json; charset=latin1",
          "application/json;charset=UTF-16",
          "application/json; charset=utf-8; x=1",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "json",
          "*/*",
          "application/*",
        ),
        weight: 3,
      },
    ),
    fc.constantFrom(
      "/",
      "/getIndexerSlot",
      "/getCompressedAccount",
      "/anything?api-key=x",
      "/liveness",
      "/readiness",
      "/a/b/c",
      "//",
      "/%00",
      "/?",
      "/" + "p".repeat(2000),
    ),
    fc.oneof(envelope(1).map(jsonBody), fc.string({ maxLength: 40 })),
  )
  .map(([contentType, path, body]) => req("content types and paths", body, { contentType, path }));

/** Batches mixing all of the above. */
const batchElement: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: envelope(2).map(jsonBody), weight: 8 },
  { arbitrary: hostile.map(jsonBody), weight: 2 },
  { arbitrary: fc.constantFrom("[]", "{}", "null", "1", '"x"', '[{"jsonrpc":"2.0","id":1,"method":"getIndexerSlot"}]'), weight: 1 },
  { arbitrary: fc.integer({ min: 10, max: 2000 }).map((d) => "[".repeat(d) + "]".repeat(d)), weight: 1 },
  { arbitrary: fc.oneof(numbersReq, protoReq, base58Req).map((r) => r.body.toString("utf8")), weight: 3 },
);
/** Request objects with one of the envelope's own keys written twice, alone or in batches (DECISIONS #43). */
const repeatedElement: fc.Arbitrary<J> = fc
  .tuple(
    envelope(2),
    fc.constantFrom("jsonrpc", "id", "method", "params"),
    fc.oneof(fc.constantFrom<J>("2.0", 1, "x", "getIndexerSlot", null, obj(), []), hostile),
    fc.boolean(),
  )
  .map(([e, key, value, first]) => {
    const entries = (e as Obj).$entries;
    return { $entries: first ? [[key, value] as const, ...entries] : [...entries, [key, value] as const] };
  });
const repeatedKeyReq: fc.Arbitrary<Req> = fc.oneof(
  repeatedElement.map((e) => req("repeated envelope keys", jsonBody(e))),
  fc
    .array(fc.oneof({ arbitrary: repeatedElement, weight: 2 }, { arbitrary: envelope(2), weight: 1 }), { minLength: 1, maxLength: 6 })
    .map((list) => req("repeated envelope keys", jsonBody(list))),
);

const batchReq: fc.Arbitrary<Req> = fc
  .tuple(
    fc.array(batchElement, { maxLength: 40 }),
    fc.constantFrom("", " ", "\n\t"),
    fc.oneof({ arbitrary: fc.constant<string | null>(null), weight: 9 }, { arbitrary: fc.constantFrom<string | null>(",", "]", "x"), weight: 1 }),
  )
  .map(([elements, ws, junk]) => req("mixed batches", `${ws}[${elements.join(",")}${junk ?? ""}]`));

/** Each category, its requests and how many groups of them the full run sends. */
export const CATEGORIES: readonly [name: string, arb: fc.Arbitrary<Req>, runs: number][] = [
  ["bad JSON and invalid UTF-8", garbageReq, 100],
  ["huge and odd numbers", numbersReq, 70],
  ["__proto__ / constructor keys", protoReq, 50],
  ["deep nesting (1,000 to 50,000 levels)", deepReq, 30],
  ["invalid base58 and wrong-length keys", base58Req, 70],
  ["oversized arrays (1001+ keys, filters, batch elements)", oversizedReq, 20],
  ["random params for every method", paramsReq, 150],
  ["odd ids, versions and methods, notifications", envelopeReq, 80],
  ["content types and paths", httpReq, 25],
  ["batches mixing everything", batchReq, 80],
  ["repeated envelope keys", repeatedKeyReq, 40],
];
