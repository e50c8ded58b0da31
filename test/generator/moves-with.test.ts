/** `x-moves-with` (DECISIONS row 76): the result fields that move with the tree's root or the slot, read into the method table's `moving`. */
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

const dir = useScratch("moves-with");

/** A one-method spec whose result is `{context, value: [Proof]}`, `Proof` carrying `mark` as its `x-moves-with`. */
function spec(mark: Json): Json {
  const envelope = (props: Record<string, Json>): Json => ({ type: "object", properties: props });
  return {
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths: {
      "/getProofs": {
        post: {
          requestBody: {
            content: { "application/json": { schema: envelope({ jsonrpc: { type: "string" }, method: { type: "string", enum: ["getProofs"] } }) } },
          },
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": {
                  schema: envelope({
                    jsonrpc: { type: "string" },
                    id: { type: "string" },
                    result: envelope({
                      context: envelope({ slot: { type: "integer" } }),
                      value: { type: "array", items: { $ref: "#/components/schemas/Proof" } },
                    }),
                  }),
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Proof: {
          type: "object",
          "x-moves-with": mark,
          properties: { leafIndex: { type: "integer" }, root: { type: "string" }, rootSeq: { type: "integer" }, inner: { $ref: "#/components/schemas/Inner" } },
        },
        Inner: { type: "object", "x-moves-with": { slot: ["size"] }, properties: { size: { type: "integer" }, tree: { type: "string" } } },
      },
    },
  };
}

let n = 0;
async function model(mark: Json) {
  const file = join(dir, `spec-${++n}.json`);
  writeFileSync(file, JSON.stringify(spec(mark)));
  return { file, build: async () => buildModel(await loadSpec(file)) };
}

describe("x-moves-with", () => {
  it("lists the marked properties by path from the result, through $refs and arrays, nested objects included", async () => {
    const { build } = await model({ root: ["root", "rootSeq"], seq: "rootSeq" });
    expect((await build()).methods[0]!.moving).toEqual([
      { path: "value[].root", with: "root", type: "string", seq: "value[].rootSeq" },
      { path: "value[].rootSeq", with: "root", type: "number", seq: "value[].rootSeq" },
      { path: "value[].inner.size", with: "slot", type: "number", seq: null },
    ]);
  });

  it.each([
    ["a list", ["root"], "/components/schemas/Proof/x-moves-with", "must map `root`, `slot` or `state`"],
    ["an unknown key", { height: ["root"] }, "/components/schemas/Proof/x-moves-with/height", "keys are root, slot, state or seq"],
    ["a string for the list", { root: "root" }, "/components/schemas/Proof/x-moves-with/root", "must be a list of property names"],
    ["a name that is not a property", { root: ["root", "leaves"] }, "/components/schemas/Proof/x-moves-with/root/1", 'names "leaves"'],
    ["a name that is not a string", { slot: [7] }, "/components/schemas/Proof/x-moves-with/slot/0", "not a property of the object"],
    [
      "a seq that is not a property",
      { root: ["root"], seq: "sequence" },
      "/components/schemas/Proof/x-moves-with/seq",
      "must name the property stating the root sequence",
    ],
  ])("refuses %s with a GenError naming the file and the pointer", async (_what, mark, pointer, message) => {
    const { file, build } = await model(mark as Json);
    await expectGenError(build(), { file, pointer, message, code: "PHOTON_GEN_ERR_SCHEMA" });
  });

  it("marks what moves in our spec's proofs, queues, lists and lookups, and nothing in a transaction's V1 answer", async () => {
    const real = buildModel(await loadSpec(ourSpec));
    const by = Object.fromEntries(real.methods.map((m) => [m.name, m.moving]));
    expect(by.getCompressedAccountProof).toEqual([
      { path: "value.proof", with: "root", type: "array", seq: "value.rootSeq" },
      { path: "value.root", with: "root", type: "hash", seq: "value.rootSeq" },
      { path: "value.rootSeq", with: "root", type: "uint64", seq: "value.rootSeq" },
    ]);
    expect(by.getMultipleCompressedAccountProofsV2!.map((f) => f.path)).toContain("value[].proveByIndex");
    expect(by.getMultipleNewAddressProofs!.map((f) => f.path)).toEqual(expect.arrayContaining(["value[].lowerRangeAddress", "value[].lowElementLeafIndex"]));
    expect(by.getValidityProofV2!.map((f) => f.path)).toEqual(expect.arrayContaining(["value.accounts[].root", "value.accounts[].rootIndex.rootIndex"]));
    expect(by.getQueueInfo).toEqual([{ path: "queues[].queueSize", with: "slot", type: "uint64", seq: null }]);
    // A nullable field (V2's compressedProof is null when nothing needed proving) has no type matcher.
    expect(by.getValidityProofV2!.find((f) => f.path === "value.compressedProof")!.type).toBeNull();
    // Fixed fields stay out: the leaf, its hash, its tree.
    expect(
      Object.values(by)
        .flat()
        .map((f) => f.path.replace(/^.*\./, "")),
    ).not.toEqual(expect.arrayContaining(["hash"]));
    // What the index holds moves with its state; an account leaves its output queue as slots pass; a transaction is fixed.
    expect(by.getCompressedAccount).toEqual([{ path: "value", with: "state", type: null, seq: null }]);
    expect(by.getCompressedAccountsByOwner!.map((f) => [f.path, f.with])).toEqual([
      ["value.items", "state"],
      ["value.cursor", "state"],
    ]);
    expect(by.getCompressedAccountsByOwnerV2!.map((f) => [f.path, f.with])).toContainEqual(["value.items[].proveByIndex", "slot"]);
    expect(by.getTransactionWithCompressionInfo).toEqual([]);
    // The generated table carries the same.
    expect(methods.getCompressedAccountProof.moving).toEqual(by.getCompressedAccountProof);
  });
});
