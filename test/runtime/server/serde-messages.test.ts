/**
 * -32602 answers in serde's words, as Photon's (jsonrpsee 0.16 puts serde_json's message in
 * `message`, spec/DECISIONS.md row 79), through the generated listener: the message is serde's text
 * for the first issue, without a prefix, and `data.issues` names each issue's JSON pointer. A bad
 * element of a list-params method is reported as that element's fault, not as "params must be an
 * object"; `limit: 1001` is Photon's Limit text, not "must be an unsigned 64-bit integer".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListener, type Handlers } from "../../../generated/index.js";
import { closeListeners, listen, post } from "../../helpers/listener.js";

const OWNER = "11111111111111111111111111111111";
let base = "";

beforeAll(async () => {
  const ok = () => ({ context: { slot: 1 }, value: [] });
  const handlers = {
    getCompressedAccountsByOwner: ok,
    getMultipleCompressedAccountProofs: ok,
    getCompressedAccount: ok,
    getTransactionWithCompressionInfo: ok,
    getQueueElements: ok,
  } as unknown as Handlers;
  base = await listen(createListener(handlers));
});
afterAll(closeListeners);

async function refusal(method: string, params?: unknown): Promise<{ message: string; pointer: string | undefined; keys: string[] }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) });
  const error = JSON.parse((await post(base, body)).body).error as { code: number; message: string; data?: { issues: { pointer: string }[] } };
  expect(error.code).toBe(-32602);
  return { message: error.message, pointer: error.data?.issues[0]?.pointer, keys: Object.keys(error) };
}

describe("-32602 in serde's words", () => {
  it("limit above 1000: Photon's Limit text (invalid value), not a u64 range", async () => {
    expect(await refusal("getCompressedAccountsByOwner", { owner: OWNER, limit: 1001 })).toEqual({
      message: "invalid value: integer `1001`, expected a value less than or equal to 1000",
      pointer: "/limit",
      keys: ["code", "message", "data"],
    });
    expect((await refusal("getCompressedAccountsByOwner", { owner: OWNER, limit: -1 })).message).toBe("invalid value: integer `-1`, expected u64");
    expect((await refusal("getCompressedAccountsByOwner", { owner: OWNER, limit: "5" })).message).toBe('invalid type: string "5", expected u64');
  });

  it("a bad element of a list-params method is that element's fault", async () => {
    expect(await refusal("getMultipleCompressedAccountProofs", [OWNER, "abc"])).toMatchObject({ message: "String is the wrong size", pointer: "/1" });
    expect(await refusal("getMultipleCompressedAccountProofs", [5])).toMatchObject({ message: "invalid type: integer `5`, expected a string", pointer: "/0" });
    expect((await refusal("getMultipleCompressedAccountProofs", { hashes: [] })).message).toBe("invalid type: map, expected a sequence");
    expect((await refusal("getMultipleCompressedAccountProofs")).message).toBe("invalid type: null, expected a sequence");
  });

  it("missing and unknown fields, wrong types, base58 texts: serde's and Photon's types' own messages", async () => {
    expect(await refusal("getCompressedAccountsByOwner", {})).toMatchObject({ message: "missing field `owner`", pointer: "/owner" });
    expect(await refusal("getCompressedAccountsByOwner", { owner: OWNER, extra: 1 })).toMatchObject({ message: "unknown field `extra`", pointer: "/extra" });
    expect(await refusal("getCompressedAccountsByOwner", { owner: OWNER, dataSlice: { offset: 1 } })).toMatchObject({
      message: "missing field `length`",
      pointer: "/dataSlice/length",
    });
    expect((await refusal("getCompressedAccountsByOwner", { owner: "0OIl" })).message).toBe("Invalid Base58 string");
    expect((await refusal("getCompressedAccount", { hash: 5 })).message).toBe("invalid type: integer `5`, expected a string");
    expect((await refusal("getCompressedAccount", { hash: "0OIl" })).message).toBe("Invalid hash input");
    expect((await refusal("getTransactionWithCompressionInfo", { signature: "abc" })).message).toBe("string decoded to wrong size for signature");
    expect((await refusal("getQueueElements", { tree: OWNER, outputQueue: { limit: 70000 } })).message).toBe("invalid value: integer `70000`, expected u16");
    expect((await refusal("getCompressedAccount", "x")).message).toBe('invalid type: string "x", expected a map');
    expect((await refusal("getCompressedAccount")).message).toBe("invalid type: null, expected a map");
  });
});
