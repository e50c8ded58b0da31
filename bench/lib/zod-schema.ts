/**
 * The zod baseline: a hand-written zod 4 schema of getCompressedTokenAccountsByOwner's result,
 * mirroring the spec's shapes check for check, as the generated validator applies them:
 * - base58 formats decode with bs58 and check the byte length (pubkey/hash: 32 bytes and at
 *   most 44 characters), base58 any length, base64 standard with padding;
 * - uint64 is a safe non-negative integer number or a bigint up to 2^64 - 1;
 * - nullable fields must be present (null allowed); `additionalProperties: false` objects are
 *   strict, the others (Context, TokenData, TokenAccountList) let unknown keys through.
 */
import bs58 from "bs58";
import { z } from "zod";
import { UINT64_MAX } from "@photon-indexer-kit/runtime";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const byteLength = (value: string): number => bs58.decodeUnsafe(value)?.length ?? -1;

const pubkey = z.string().refine((s) => s.length <= 44 && byteLength(s) === 32, { message: "must be a valid pubkey" });
const hash = z.string().refine((s) => s.length <= 44 && byteLength(s) === 32, { message: "must be a valid hash" });
const base58 = z.string().refine((s) => byteLength(s) >= 0, { message: "must be valid base58" });
const base64 = z.string().refine((s) => s.length % 4 === 0 && BASE64.test(s), { message: "must be valid base64" });
const uint64 = z.union([z.int().nonnegative(), z.bigint().nonnegative().max(UINT64_MAX)]);

const context = z.looseObject({ slot: uint64 });

const accountData = z.strictObject({ discriminator: uint64, data: base64, dataHash: hash });

const account = z.strictObject({
  hash,
  address: pubkey.nullable(),
  data: accountData.nullable(),
  owner: pubkey,
  lamports: uint64,
  tree: pubkey,
  leafIndex: uint64,
  seq: uint64.nullable(),
  slotCreated: uint64,
});

const tokenData = z.looseObject({
  mint: pubkey,
  owner: pubkey,
  amount: uint64,
  delegate: pubkey.nullable(),
  state: z.enum(["initialized", "frozen"]),
  tlv: base64.nullable(),
});

const tokenAccount = z.strictObject({ account, tokenData });

const tokenAccountList = z.looseObject({ items: z.array(tokenAccount), cursor: base58.nullable() });

/** getCompressedTokenAccountsByOwner's result: `{ context, value }`. */
export const tokenAccountsResult = z.strictObject({ context, value: tokenAccountList });
