/** `x-transaction-accounts` (DECISIONS row 77): where a transaction's result lists the accounts it opened and closed, read into the method table. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Json } from "@photon-indexer-kit/runtime";
import { loadSpec } from "../../generator/load.js";
import { buildModel } from "../../generator/model.js";
import { methods } from "../../generated/methods.js";
import { ourSpec } from "../helpers/paths.js";
import { useScratch } from "../helpers/scratch.js";
import { expectGenError } from "../helpers/gen-error.js";

const dir = useScratch("transaction-accounts");

/** A one-method spec whose result is `{info: {spent: [Closed], created: [Entry]}}`, the operation carrying `mark` (when given). */
function spec(mark: Json | undefined): Json {
  const object = (props: Record<string, Json>): Json => ({ type: "object", properties: props });
  const operation: Record<string, Json> = {
    requestBody: {
      content: {
        "application/json": {
          schema: object({ jsonrpc: { type: "string" }, method: { type: "string", enum: ["getTx"] }, params: object({ signature: { type: "string" } }) }),
        },
      },
    },
    responses: {
      "200": {
        description: "ok",
        content: {
          "application/json": {
            schema: object({
              jsonrpc: { type: "string" },
              id: { type: "string" },
              result: { $ref: "#/components/schemas/Result" },
            }),
          },
        },
      },
    },
  };
  if (mark !== undefined) operation["x-transaction-accounts"] = mark;
  return {
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths: { "/getTx": { post: operation } },
    components: {
      schemas: {
        Result: object({
          info: object({
            spent: { type: "array", items: { $ref: "#/components/schemas/Closed" } },
            created: { type: "array", items: { $ref: "#/components/schemas/Entry" } },
            count: { type: "integer" },
          }),
        }),
        Entry: object({ account: { allOf: [{ $ref: "#/components/schemas/Account" }] }, note: { type: "string" } }),
        Closed: object({ account: { $ref: "#/components/schemas/Entry" }, nullifier: { type: "string" } }),
        Account: object({ hash: { type: "string" }, lamports: { type: "integer" } }),
      },
    },
  };
}

const GOOD = { opened: { list: "info.created", hash: "account.hash" }, closed: { list: "info.spent", hash: "account.account.hash" } };

let n = 0;
async function model(mark: Json | undefined) {
  const file = join(dir, `spec-${++n}.json`);
  writeFileSync(file, JSON.stringify(spec(mark)));
  return { file, build: async () => buildModel(await loadSpec(file)) };
}

describe("x-transaction-accounts", () => {
  it("reads the opened and closed lists with their entries' hash paths, checked through $refs and allOf, and keeps them out of `extensions`", async () => {
    const m = (await (await model(GOOD)).build()).methods[0]!;
    expect(m.transactionAccounts).toEqual(GOOD);
    expect(m.extensions).not.toHaveProperty("x-transaction-accounts");
  });

  it("is null on an operation without it", async () => {
    expect((await (await model(undefined)).build()).methods[0]!.transactionAccounts).toBeNull();
  });

  const at = "/paths/~1getTx/post/x-transaction-accounts";
  it.each([
    ["a list", [GOOD.opened], at, "must map `opened` and `closed`"],
    ["an unknown key", { ...GOOD, moved: GOOD.opened }, `${at}/moved`, 'not "moved"'],
    ["a missing side", { opened: GOOD.opened }, `${at}/closed`, "needs a `list` path and a `hash` path"],
    ["a hash that is not a string", { ...GOOD, opened: { list: "info.created", hash: 7 } }, `${at}/opened`, "needs a `list` path and a `hash` path"],
    ["a list path that is no property", { ...GOOD, opened: { list: "info.made", hash: "account.hash" } }, `${at}/opened/list`, 'names "info.made"'],
    ["a list path that is not an array", { ...GOOD, closed: { list: "info.count", hash: "account.hash" } }, `${at}/closed/list`, "not an array of the result"],
    [
      "a hash path the entries lack (V2 closed entries nest the account one level deeper)",
      { ...GOOD, closed: { list: "info.spent", hash: "account.hash" } },
      `${at}/closed/hash`,
      "not a field of the list's entries",
    ],
  ])("refuses %s with a GenError naming the file and the pointer", async (_what, mark, pointer, message) => {
    const { file, build } = await model(mark as Json);
    await expectGenError(build(), { file, pointer, message, code: "PHOTON_GEN_ERR_SCHEMA" });
  });

  it("marks our spec's two transaction methods (V2 closed entries one level deeper), and no other", async () => {
    const real = buildModel(await loadSpec(ourSpec));
    const marked = real.methods.filter((m) => m.transactionAccounts !== null);
    expect(marked.map((m) => m.name)).toEqual(["getTransactionWithCompressionInfo", "getTransactionWithCompressionInfoV2"]);
    expect(marked[0]!.transactionAccounts).toEqual({
      opened: { list: "compressionInfo.openedAccounts", hash: "account.hash" },
      closed: { list: "compressionInfo.closedAccounts", hash: "account.hash" },
    });
    expect(marked[1]!.transactionAccounts!.closed).toEqual({ list: "compressionInfo.closedAccounts", hash: "account.account.hash" });
    // The generated table carries the same.
    expect(methods.getTransactionWithCompressionInfoV2.transactionAccounts).toEqual(marked[1]!.transactionAccounts);
  });
});
