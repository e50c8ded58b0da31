/**
 * Validity proofs over HTTP (getValidityProof, getValidityProofV2): the contexts list the right
 * trees, queues, leaf indexes and leaves (from the dataset's records), roots are the trees'
 * current roots and root indexes `seq % rootHistory` of each proof's tree (prover/prove.rs:21-50);
 * the placeholder proof has Groth16's compressed sizes; Photon's error texts. With a prover URL,
 * the reference posts Photon's request to `{url}/prove` and converts the gnark answer as Photon
 * does, checked against stateless.js's own conversion of the same answer.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { negateAndCompressProof, placeholderValidityProof, proofFromJsonStruct } from "@lightprotocol/stateless.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { methods, methodValidators, type MethodName } from "../../generated/index.js";
import { ADDRESS_TREE_V1, Forest, ZERO_HASH } from "../../reference/index.js";
import { BASE_FIELD_MODULUS, compressG1, compressG2, compressGnarkProof, placeholderProof } from "../../reference/handlers/prover.js";
import { Random } from "../../reference/random.js";
import type { AccountRecord, TreeRecord } from "../../reference/records.js";
import { startReferenceIndexer, type ReferenceIndexer } from "../../reference/serve.js";
import { decodeBase58, encodeBase58, parseJson, stringifyJson, validate } from "../../runtime/index.js";
import { useReferenceIndexer } from "../helpers/reference.js";
import { dataset, profile } from "./fixture.js";

const indexer = useReferenceIndexer({ data: dataset });
const forest = new Forest(dataset);
// Built before the first request: a tree built in the middle of the test would block the event loop
// for seconds between two requests, past the server's keep-alive, and the next request would meet a reset.
beforeAll(() => forest.warm({ sliceMs: 50 }), 120_000);

async function post(url: string, method: string, params?: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stringifyJson({ jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
  return parseJson(await res.text()) as { result?: any; error?: { code: number; message: string } };
}

async function result(method: MethodName, params: unknown, url = indexer().url): Promise<any> {
  const json = await post(url, method, params);
  expect(json.error, `${method} failed`).toBeUndefined();
  expect(validate(methodValidators[method].result, json.result), `result of ${method}`).toEqual([]);
  return json.result;
}

async function error(method: string, params: unknown, url = indexer().url): Promise<{ code: number; message: string }> {
  const json = await post(url, method, params);
  expect(json.result, `${method} succeeded`).toBeUndefined();
  return json.error as { code: number; message: string };
}

const treeOf = (key: string) => dataset.trees.find((t) => t.tree === key) as TreeRecord;
const rootIndexOf = (key: string) => treeOf(key).seq % treeOf(key).rootHistory;
const typeCode = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 } as const;
const of = (type: TreeRecord["type"], keep: (a: AccountRecord) => boolean) => dataset.accounts.filter((a) => treeOf(a.tree).type === type && keep(a));

const v1 = of("StateV1", (a) => !a.spent);
const v1Accounts = [v1[3], v1[v1.length - 1], v1[Math.floor(v1.length / 2)]] as AccountRecord[];
const batched = of("StateV2", (a) => !a.spent && !a.inOutputQueue);
const batchedAccounts = [batched[0], batched[batched.length - 1]] as AccountRecord[];
const queued = of("StateV2", (a) => a.inOutputQueue);
const AMT2 = profile.trees.addressV2;

/** An address absent from every tree (first byte 0): the profile's, with its last byte varied. */
function freshAddress(i: number): string {
  const bytes = Uint8Array.from(decodeBase58(profile.unknownAddress) as Uint8Array);
  bytes[31] = ((bytes[31] as number) + i + 1) % 256;
  return encodeBase58(bytes);
}

/** The low element's leaf index of a new address by brute force over the tree's held addresses. */
function lowLeafIndex(tree: string, address: string): number {
  const first = treeOf(tree).type === "AddressV1" ? 2 : 1;
  const value = Buffer.from(decodeBase58(address) as Uint8Array).toString("hex");
  let best: { hex: string; leafIndex: number } = { hex: "", leafIndex: 0 };
  dataset.addresses
    .filter((a) => a.tree === tree && !a.queued)
    .forEach((a, i) => {
      const hex = Buffer.from(decodeBase58(a.address) as Uint8Array).toString("hex");
      if (hex < value && hex > best.hex) best = { hex, leafIndex: first + i };
    });
  return best.leafIndex;
}

describe("the placeholder proof", () => {
  it("has the compressed sizes (32, 64, 32 bytes), is deterministic, and is stateless.js's own placeholder", () => {
    const p = placeholderProof();
    expect([p.a.length, p.b.length, p.c.length]).toEqual([32, 64, 32]);
    expect([...p.a, ...p.b, ...p.c].every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)).toBe(true);
    expect(p).toEqual(placeholderProof());
    expect(p).toEqual(placeholderValidityProof());
  });
});

describe("getValidityProof", () => {
  it("lists each account's root, root index, leaf index, hash and tree, with the placeholder proof", async () => {
    const r = await result("getValidityProof", { hashes: v1Accounts.map((a) => a.hash) });
    expect(Object.keys(r)).toEqual(["value", "context"]);
    expect(r.context).toEqual({ slot: dataset.slot });
    expect(r.value).toEqual({
      compressedProof: placeholderProof(),
      roots: v1Accounts.map((a) => forest.root(a.tree).root),
      rootIndices: v1Accounts.map((a) => rootIndexOf(a.tree)),
      leafIndices: v1Accounts.map((a) => a.leafIndex),
      leaves: v1Accounts.map((a) => a.hash),
      merkleTrees: v1Accounts.map((a) => a.tree),
    });
  });

  it("puts the new addresses after the accounts: their low element's leaf, the address, the tree; `newAddresses` means the V1 tree", async () => {
    const addresses = [freshAddress(0), freshAddress(1)];
    const account = v1Accounts[0] as AccountRecord;
    for (const params of [
      { hashes: [account.hash], newAddresses: addresses },
      { hashes: [account.hash], newAddressesWithTrees: addresses.map((address) => ({ address, tree: ADDRESS_TREE_V1 })) },
    ]) {
      const { value } = await result("getValidityProof", params);
      expect(value.leaves).toEqual([account.hash, ...addresses]);
      expect(value.merkleTrees).toEqual([account.tree, ADDRESS_TREE_V1, ADDRESS_TREE_V1]);
      expect(value.leafIndices).toEqual([account.leafIndex, ...addresses.map((a) => lowLeafIndex(ADDRESS_TREE_V1, a))]);
      expect(value.roots).toEqual([forest.root(account.tree).root, forest.root(ADDRESS_TREE_V1).root, forest.root(ADDRESS_TREE_V1).root]);
      expect(value.rootIndices).toEqual([rootIndexOf(account.tree), rootIndexOf(ADDRESS_TREE_V1), rootIndexOf(ADDRESS_TREE_V1)]);
    }
  });

  it("answers Photon's errors in Photon's order", async () => {
    const hash = (v1Accounts[0] as AccountRecord).hash;
    const cap = methods.getValidityProof.maxItems.newAddressesWithTrees as number;
    const many = Array.from({ length: cap + 1 }, (_, i) => ({ address: freshAddress(i), tree: ADDRESS_TREE_V1 }));
    const cases: [unknown, string][] = [
      [{}, "Validation Error: No hashes or new addresses provided for proof generation"],
      [
        { newAddresses: [freshAddress(0)], newAddressesWithTrees: [{ address: freshAddress(1), tree: AMT2 }] },
        "Validation Error: Cannot provide both newAddresses and newAddressesWithTree",
      ],
      [{ hashes: [profile.unknownHash] }, "Record Not Found: Leaf nodes not found for hashes. Got 0 hashes. Expected 1."],
      [{ hashes: [hash, (batchedAccounts[0] as AccountRecord).hash] }, "Validation Error: All state trees for account proofs must have the same height"],
      [
        {
          newAddressesWithTrees: [
            { address: freshAddress(0), tree: ADDRESS_TREE_V1 },
            { address: freshAddress(1), tree: AMT2 },
          ],
        },
        "Validation Error: All address trees for new address proofs must have the same height",
      ],
      [{ newAddressesWithTrees: many }, `Validation Error: Too many addresses requested ${cap + 1}. Maximum allowed: ${cap}`],
      [{ newAddresses: many.map((m) => m.address) }, `Validation Error: Too many addresses requested ${cap + 1}. Maximum allowed: ${cap}`],
      // The account proofs come first: a bad hash wins over too many addresses.
      [{ hashes: [profile.unknownHash], newAddressesWithTrees: many }, "Record Not Found: Leaf nodes not found for hashes. Got 0 hashes. Expected 1."],
    ];
    for (const [params, message] of cases)
      expect(await error("getValidityProof", params), JSON.stringify(params).slice(0, 80)).toEqual({ code: -32000, message });
  });
});

describe("getValidityProofV2", () => {
  it("gives each account its root index and context; output-queue accounts prove by index with the zero root", async () => {
    const accounts = [queued[0], batchedAccounts[0], batchedAccounts[1]] as AccountRecord[];
    const r = await result("getValidityProofV2", { hashes: accounts.map((a) => a.hash) });
    expect(Object.keys(r)).toEqual(["value", "context"]);
    expect(r.context).toEqual({ slot: dataset.slot });
    expect(r.value.compressedProof).toEqual(placeholderProof());
    expect(r.value.addresses).toEqual([]);
    expect(r.value.accounts).toEqual(
      accounts.map((a) => {
        const tree = treeOf(a.tree);
        const context = { treeType: typeCode[tree.type], tree: tree.tree, queue: tree.queue, cpiContext: null, nextTreeContext: null };
        return a.inOutputQueue
          ? { hash: a.hash, root: ZERO_HASH, rootIndex: { rootIndex: 0, proveByIndex: true }, leafIndex: a.leafIndex, merkleContext: context }
          : {
              hash: a.hash,
              root: forest.root(a.tree).root,
              rootIndex: { rootIndex: rootIndexOf(a.tree), proveByIndex: false },
              leafIndex: a.leafIndex,
              merkleContext: context,
            };
      }),
    );
  });

  it("gives each address its tree's root, root index and context", async () => {
    const addresses = [freshAddress(3), freshAddress(4)];
    const { value } = await result("getValidityProofV2", { newAddressesWithTrees: addresses.map((address) => ({ address, tree: AMT2 })) });
    const tree = treeOf(AMT2);
    expect(value.addresses).toEqual(
      addresses.map((address) => ({
        address,
        root: forest.root(AMT2).root,
        rootIndex: rootIndexOf(AMT2),
        merkleContext: { treeType: 4, tree: AMT2, queue: tree.queue, cpiContext: null, nextTreeContext: null },
      })),
    );
    expect(value.compressedProof).toEqual(placeholderProof());
  });

  it("has no proof when every account proves by index, and Photon's default (slot 0) for an empty request", async () => {
    const r = await result("getValidityProofV2", { hashes: queued.slice(0, 2).map((a) => a.hash) });
    expect(r.value.compressedProof).toBeNull();
    expect(r.value.accounts.map((a: { rootIndex: unknown }) => a.rootIndex)).toEqual([
      { rootIndex: 0, proveByIndex: true },
      { rootIndex: 0, proveByIndex: true },
    ]);
    for (const params of [{}, { hashes: [], newAddressesWithTrees: [] }])
      expect(await result("getValidityProofV2", params)).toEqual({ value: { compressedProof: null, accounts: [], addresses: [] }, context: { slot: 0 } });
  });

  it("refuses spent, unknown and repeated accounts, listing what it found", async () => {
    const a = batchedAccounts[0] as AccountRecord;
    const spent = dataset.accounts.find((x) => x.spent) as AccountRecord;
    expect(await error("getValidityProofV2", { hashes: [a.hash, spent.hash] })).toEqual({
      code: -32000,
      message: `Validation Error: Not all requested account hashes exist or are available (might be spent). Requested: ["${a.hash}", "${spent.hash}"], Found in DB: ["${a.hash}"]`,
    });
    expect((await error("getValidityProofV2", { hashes: [a.hash, a.hash] })).message).toContain("Not all requested account hashes exist");
    expect((await error("getValidityProofV2", { newAddresses: [freshAddress(0)] })).code).toBe(-32602);
  });
});

// --- forwarding to a prover -------------------------------------------------------------------------

const P = BASE_FIELD_MODULUS;
const mod = (a: bigint) => ((a % P) + P) % P;
function inverse(a: bigint): bigint {
  let [result, base, e] = [1n, mod(a), P - 2n];
  while (e > 0n) {
    if (e & 1n) result = (result * base) % P;
    base = (base * base) % P;
    e >>= 1n;
  }
  return result;
}
type Point = [bigint, bigint];
function add(p: Point, q: Point): Point {
  const l = p[0] === q[0] ? mod(3n * p[0] * p[0] * inverse(2n * p[1])) : mod((q[1] - p[1]) * inverse(q[0] - p[0]));
  const x = mod(l * l - p[0] - q[0]);
  return [x, mod(l * (p[0] - x) - p[1])];
}
/** k·G on BN254's G1 (y² = x³ + 3, G = (1, 2)): real curve points for the prover's answer. */
function multiple(k: number): Point {
  let acc: Point = [1n, 2n];
  for (let i = 1; i < k; i++) acc = add(acc, [1n, 2n]);
  return acc;
}
const hex = (v: bigint) => `0x${v.toString(16).padStart(64, "0")}`;
const rng = new Random(15, "validity-test");
const fieldValue = () => mod(BigInt(`0x${Buffer.from(rng.bytes(32)).toString("hex")}`));

describe("the gnark answer's conversion (prover/gnark.rs, helpers.rs)", () => {
  it("negates A and compresses A, B, C exactly as stateless.js converts the same answer", () => {
    for (let k = 2; k < 12; k++) {
      const [a, c] = [multiple(k), multiple(k + 7)];
      const json = {
        ar: [hex(a[0]), hex(a[1])],
        bs: [
          [hex(fieldValue()), hex(fieldValue())],
          [hex(fieldValue()), hex(fieldValue())],
        ],
        krs: [hex(c[0]), hex(c[1])],
      };
      const ours = compressGnarkProof(json as never);
      expect(ours).toEqual(negateAndCompressProof(proofFromJsonStruct(json)));
      expect([ours.a.length, ours.b.length, ours.c.length]).toEqual([32, 64, 32]);
    }
  });

  it("sets the sign bit when y is the larger of y and -y (arkworks' order; G2 compares y0 first, y1 when y0 is 0), and keeps zero as zero", () => {
    const half = (P - 1n) / 2n;
    expect(compressG1(5n, half)[0]).toBe(0);
    expect(compressG1(5n, half + 1n)[0]).toBe(0x80);
    expect(compressG1(0n, 0n)).toEqual(new Array(32).fill(0));
    expect(compressG2(1n, 2n, 0n, half + 1n)[0]).toBe(0x80);
    expect(compressG2(1n, 2n, 0n, half)[0]).toBe(0);
    expect(compressG2(1n, 2n, half, P - 1n)[0]).toBe(0);
    expect(compressG2(0n, 0n, 0n, 0n)).toEqual(new Array(64).fill(0));
  });
});

describe("getValidityProof(V2) with a prover URL", () => {
  let prover: Server;
  let reference: ReferenceIndexer;
  const requests: { url: string; body: any }[] = [];
  let answer: { status: number; body: string } = { status: 200, body: "" };
  const gnark = {
    ar: [hex(multiple(3)[0]), hex(multiple(3)[1])],
    bs: [
      [hex(7n), hex(8n)],
      [hex(9n), hex(10n)],
    ],
    krs: [hex(multiple(5)[0]), hex(multiple(5)[1])],
  };

  beforeAll(async () => {
    prover = createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => {
        text += chunk;
      });
      req.on("end", () => {
        requests.push({ url: req.url ?? "", body: JSON.parse(text) });
        res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
      });
    });
    prover.listen(0, "127.0.0.1");
    await once(prover, "listening");
    const { port } = prover.address() as AddressInfo;
    reference = await startReferenceIndexer({ port: 0, data: dataset, warmTrees: false, proverUrl: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await reference?.close();
    prover?.close();
  });

  it("posts Photon's request to {url}/prove and answers the converted proof (V1: inclusion over height-26 trees, no public input hash)", async () => {
    answer = { status: 200, body: JSON.stringify(gnark) };
    const accounts = v1Accounts.slice(0, 2);
    const { value } = await result("getValidityProof", { hashes: accounts.map((a) => a.hash) }, reference.url);
    expect(value.compressedProof).toEqual(negateAndCompressProof(proofFromJsonStruct(gnark)));
    const sent = requests.at(-1);
    expect(sent?.url).toBe("/prove");
    expect(Object.keys(sent?.body)).toEqual(["circuitType", "stateTreeHeight", "inputCompressedAccounts"]);
    expect(sent?.body.circuitType).toBe("inclusion");
    expect(sent?.body.stateTreeHeight).toBe(26);
    const asHex = (b58: string) => `0x${Buffer.from(decodeBase58(b58) as Uint8Array).toString("hex")}`;
    expect(
      sent?.body.inputCompressedAccounts.map((x: { root: string; pathIndex: number; leaf: string; pathElements: string[] }) => [
        x.root,
        x.pathIndex,
        x.leaf,
        x.pathElements.length,
      ]),
    ).toEqual(accounts.map((a) => [asHex(forest.root(a.tree).root), a.leafIndex, asHex(a.hash), 26]));
  });

  it("sends the public input hash for batched heights and a combined circuit for accounts and addresses (V2)", async () => {
    answer = { status: 200, body: JSON.stringify(gnark) };
    const { value } = await result(
      "getValidityProofV2",
      { hashes: [(batchedAccounts[0] as AccountRecord).hash], newAddressesWithTrees: [{ address: freshAddress(5), tree: AMT2 }] },
      reference.url,
    );
    expect(value.compressedProof).toEqual(negateAndCompressProof(proofFromJsonStruct(gnark)));
    const body = requests.at(-1)?.body;
    expect(Object.keys(body)).toEqual(["circuitType", "stateTreeHeight", "addressTreeHeight", "publicInputHash", "inputCompressedAccounts", "newAddresses"]);
    expect([body.circuitType, body.stateTreeHeight, body.addressTreeHeight]).toEqual(["combined", 32, 40]);
    expect(body.publicInputHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Object.keys(body.newAddresses[0])).toEqual([
      "root",
      "value",
      "pathIndex",
      "pathElements",
      "leafLowerRangeValue",
      "leafHigherRangeValue",
      "nextIndex",
    ]);
  });

  it("does not call the prover when every account proves by index", async () => {
    const before = requests.length;
    const { value } = await result("getValidityProofV2", { hashes: [(queued[0] as AccountRecord).hash] }, reference.url);
    expect(value.compressedProof).toBeNull();
    expect(requests.length).toBe(before);
  });

  it("answers -32000 Internal server error when the prover fails, answers garbage, or cannot be reached", async () => {
    const params = { hashes: [(v1Accounts[0] as AccountRecord).hash] };
    const failure = { code: -32000, message: "Internal server error" };
    for (const bad of [
      { status: 500, body: "prover crashed" },
      { status: 200, body: "not json" },
      { status: 200, body: JSON.stringify({ ar: ["0x1"], bs: [], krs: [] }) },
      { status: 200, body: JSON.stringify({ ...gnark, ar: [hex(P), gnark.ar[1]] }) },
    ]) {
      answer = bad;
      expect(await error("getValidityProof", params, reference.url)).toEqual(failure);
    }
    // The log line of a prover failure is one line, escaped for the console, with no stack trace.
    const logged: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => logged.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      answer = { status: 200, body: "\u001b[2Jboom\nat fake (x.js:1:1)\u202e" };
      expect(await error("getValidityProof", params, reference.url)).toEqual(failure);
    } finally {
      process.stderr.write = write;
    }
    const line = logged.find((l) => l.includes("boom")) ?? "";
    expect(line).toMatch(/^reference indexer: getValidityProof failed: PHOTON_REF_ERR_PROVER: .*\\x1b\[2Jboom\\nat fake .*\\u202e.*\n$/);
    expect(line.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u202e]/);
    expect(line).not.toContain("    at ");
    const unreachable = await startReferenceIndexer({ port: 0, data: dataset, warmTrees: false, proverUrl: "http://127.0.0.1:9" });
    try {
      expect(await error("getValidityProof", params, unreachable.url)).toEqual(failure);
    } finally {
      await unreachable.close();
    }
  });
});
