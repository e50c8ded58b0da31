/**
 * getIndexerHealth, the two spec-only methods Photon 0.51.2 does not register (answered exactly as
 * an unregistered method), and what startReferenceIndexer adds for the proof methods: the trees
 * built in the background (or not).
 */
import { describe, expect, it, vi } from "vitest";
import { methodValidators } from "../../generated/index.js";
import { startReferenceIndexer } from "../../reference/serve.js";
import { parseJson, validate } from "../../runtime/index.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { dataset, profile } from "./fixture.js";

const indexer = useReferenceIndexer({ data: dataset, warmTrees: false });

async function text(body: unknown, url = indexer().url): Promise<string> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.text();
}

describe("getIndexerHealth", () => {
  it("answers the string ok (the reference has no chain to fall behind), whatever params hold", async () => {
    for (const params of [undefined, [], {}, { anything: 1 }]) {
      const answer = parseJson(await text({ jsonrpc: "2.0", id: 3, method: "getIndexerHealth", ...(params === undefined ? {} : { params }) })) as {
        result: unknown;
      };
      expect(answer).toEqual({ jsonrpc: "2.0", result: "ok", id: 3 });
      expect(validate(methodValidators.getIndexerHealth.result, answer.result)).toEqual([]);
    }
  });
});

describe("the spec-only interface methods", () => {
  it("answer -32601 Method not found byte for byte as a method the server does not have", async () => {
    const calls: [string, unknown][] = [
      ["getAccountInterface", { address: profile.knownAddress }],
      ["getMultipleAccountInterfaces", { addresses: [profile.knownAddress, profile.unknownAddress] }],
    ];
    for (const [method, params] of calls) {
      for (const id of [1, "test-account", null]) {
        const ours = await text({ jsonrpc: "2.0", id, method, params });
        const unregistered = await text({ jsonrpc: "2.0", id, method: "noSuchMethodAtAll", params });
        expect(ours).toBe(unregistered);
        expect(JSON.parse(ours)).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id });
      }
    }
  });
});

describe("startReferenceIndexer and the trees", () => {
  it("builds no tree without warmTrees, and builds a tree on its first proof", async () => {
    expect(indexer().forest.built()).toEqual([]);
    const account = dataset.accounts.find((a) => !a.spent && !a.inOutputQueue && dataset.trees.find((t) => t.tree === a.tree)?.type === "StateV2");
    expect(account).toBeDefined();
    await text({ jsonrpc: "2.0", id: 1, method: "getCompressedAccountProof", params: { hash: account?.hash } });
    expect(indexer().forest.built()).toEqual([account?.tree]);
  });

  it("builds every tree in the background by default while it answers, and stops on close", async () => {
    const warm = await startReferenceIndexer({ port: 0, data: dataset });
    try {
      expect(parseJson(await text({ jsonrpc: "2.0", id: 1, method: "getIndexerSlot" }, warm.url))).toEqual({ jsonrpc: "2.0", result: dataset.slot, id: 1 });
      await vi.waitFor(() => expect(warm.forest.built().length).toBe(dataset.trees.length), { timeout: 120_000, interval: 100 });
    } finally {
      await warm.close();
    }
  }, 150_000);
});
